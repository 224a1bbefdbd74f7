import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { JSONReport, JSONReportSuite, JSONReportTest } from '@playwright/test/reporter';
import type { ApiReply, ApiRequest } from '../reference/http';
import { ALONE_TAG, VIEWS_HOLD_WRITES } from '../config/phases';
import { OmsApi } from '../harness/requests/api';
import type { OmsClient } from '../harness/http/client';
import { CreatedOrders } from '../harness/requests/created-orders';
import type { Behaviour } from '../reference/app';
import { readLedger } from '../harness/http/ledger';
import { mustRunAlone } from '../harness/record/verifies';
import { DEV_TOKEN_A, startServer, temporaryDirectory } from './support/cli';
import { ordersLeftBehind, runSuite } from './support/run-suite';

/** Tests of every phase: list views (views), a count after a delete and writes after a delete (alone), creates, updates and deletes (together). */
const SELECTION = '@ORD-LIST-00[37]|@ORD-DELETE-00[15]|@ORD-CREATE-00[1-4]|@ORD-UPDATE-00[1-3]';
/** Timestamps of the runner and of the server's process are read from one clock, to the millisecond. */
const CLOCK_SLACK_MS = 5;

interface Ran {
  title: string;
  project: string;
  worker: number;
  start: number;
  end: number;
}

interface Write {
  at: number;
  created?: string;
  touched?: string;
}

function testsOf(suite: JSONReportSuite): Array<{ title: string; test: JSONReportTest }> {
  return [...suite.specs.flatMap((spec) => spec.tests.map((test) => ({ title: spec.title, test }))), ...(suite.suites ?? []).flatMap(testsOf)];
}

/** Every write the server took (with the order it made or touched, and when), and the server. */
async function serverRecordingWrites(extra: Behaviour[] = []): Promise<{ writes: Write[]; server: Awaited<ReturnType<typeof startServer>> }> {
  const writes: Write[] = [];
  const server = await startServer([
    ...extra,
    {
      name: 'selftest-write-times',
      rewriteReply(request: ApiRequest, reply: ApiReply): ApiReply {
        const at = Date.now();
        const id = (reply.body as { id?: unknown } | undefined)?.id;
        // A create the server refused (the invalid bodies some tests send) made no order.
        if (request.method === 'POST' && request.path === '/orders') writes.push({ at, created: reply.status < 300 && id !== undefined ? String(id) : undefined });
        else if (request.method !== 'GET' && request.path.startsWith('/orders/')) writes.push({ at, touched: decodeURIComponent(request.path.slice('/orders/'.length)) });
        return reply;
      },
    },
  ]);
  return { writes, server };
}

/** The tests a run's JSON report shows, with their project, worker and times. */
function testsRan(results: string): Ran[] {
  const report = JSON.parse(readFileSync(results, 'utf8')) as JSONReport;
  return report.suites.flatMap(testsOf).flatMap(({ title, test }) =>
    test.results.map((result) => {
      const start = Date.parse(result.startTime);
      return { title, project: test.projectName, worker: result.workerIndex, start, end: start + result.duration };
    }),
  );
}

const span = (tests: Ran[]) => ({ start: Math.min(...tests.map((t) => t.start)), end: Math.max(...tests.map((t) => t.end)) });

test('list views read side by side while no test of the run writes; tests that run alone run after them, one at a time; the orders made for the views are deleted last', async () => {
  const { writes, server } = await serverRecordingWrites();
  const results = join(temporaryDirectory('oms-phases-'), 'results.json');
  try {
    const run = await runSuite(
      { OMS_BASE_URL: server.url, OMS_TOKEN: DEV_TOKEN_A, OMS_WORKERS: '2', PLAYWRIGHT_JSON_OUTPUT_NAME: results },
      ['--reporter', 'json', '--grep', SELECTION],
    );
    expect(run.exitCode, run.output).toBe(0);
    const ran = testsRan(results);
    const inProject = (name: string) => ran.filter((t) => t.project === name);
    // The --grep chose tests of every phase, and only those: each phase is filtered like the run.
    expect(inProject('views').map((t) => t.title).sort()).toEqual(['answers the first page when no page is given', 'ends, at any limit, on the last page meta.total implies']);
    expect(inProject('alone').map((t) => t.title).sort()).toEqual([
      'answers a second delete of an order without a 5xx, and the order stays deleted',
      'answers an update of a deleted order without a 5xx, and the order stays deleted',
      'reports the total count in meta.total, also after a delete and while another account holds orders',
    ]);
    expect(inProject('view-orders').map((t) => t.title)).toEqual(['makes the orders the list views read, and waits until the list shows them']);
    expect(inProject('view-orders-cleanup').map((t) => t.title)).toEqual(['deletes the orders made for the list views']);
    const together = inProject('together');
    expect(together.length).toBeGreaterThanOrEqual(8);

    // Views: after every test of the first phase, its workers' orders deleted; no write of the run while they read.
    const views = span(inProject('views'));
    const first = span([...together, ...inProject('view-orders')]);
    expect(first.end).toBeLessThanOrEqual(views.start + CLOCK_SLACK_MS);
    expect(writes.filter((w) => w.at > views.start + CLOCK_SLACK_MS && w.at < views.end - CLOCK_SLACK_MS), 'writes while the views were read').toEqual([]);
    // The orders made for the views are the ones the run's ledger shows handed over to the cleanup.
    const ledger = join(run.reportDir, 'ledger');
    const viewOrders = new Set(readdirSync(ledger).flatMap((file) => readLedger(join(ledger, file))).filter((entry) => entry.event === 'handed-over').map((entry) => entry.orderId));
    expect(viewOrders.size).toBe(101);
    const madeFirst = new Set(writes.filter((w) => w.created && w.at < views.start && !viewOrders.has(w.created)).map((w) => w.created));
    const deletedFirst = new Set(writes.filter((w) => w.touched && w.at < views.start).map((w) => w.touched));
    expect([...madeFirst].filter((id) => !deletedFirst.has(id)), 'orders of the first phase still there when the views began').toEqual([]);

    expect(new Set(inProject('views').map((t) => t.worker)).size, 'the views read in more than one worker').toBeGreaterThan(1);

    // Alone: after the views, in one worker, one test at a time.
    const alone = [...inProject('alone')].sort((a, b) => a.start - b.start);
    expect(views.end).toBeLessThanOrEqual(alone[0].start + CLOCK_SLACK_MS);
    expect(new Set(alone.map((t) => t.worker)).size).toBe(1);
    alone.slice(1).forEach((t, i) => expect(t.start, `${t.title} began before ${alone[i].title} ended`).toBeGreaterThanOrEqual(alone[i].end - CLOCK_SLACK_MS));

    // The orders made for the views: untouched until the cleanup, which comes after the tests that run alone, and deletes every one.
    const cleanup = inProject('view-orders-cleanup')[0];
    expect(span(alone).end).toBeLessThanOrEqual(cleanup.start + CLOCK_SLACK_MS);
    const touchedBefore = writes.filter((w) => w.touched && viewOrders.has(w.touched) && w.at < cleanup.start - CLOCK_SLACK_MS);
    expect(touchedBefore, 'writes to the orders made for the views before their cleanup').toEqual([]);
    const deleted = new Set(writes.filter((w) => w.touched && w.at >= cleanup.start - CLOCK_SLACK_MS).map((w) => w.touched));
    expect([...viewOrders].filter((id) => !deleted.has(id)), 'orders made for the views left behind').toEqual([]);
    expect(ordersLeftBehind(run)).toBe(0);
  } finally {
    await server.close();
  }
});

test('a run of one worker runs every test in one phase, one at a time', async () => {
  const { server } = await serverRecordingWrites();
  const results = join(temporaryDirectory('oms-phases-'), 'results.json');
  try {
    const run = await runSuite({ OMS_BASE_URL: server.url, OMS_TOKEN: DEV_TOKEN_A, OMS_WORKERS: '1', PLAYWRIGHT_JSON_OUTPUT_NAME: results }, ['--reporter', 'json', '--grep', SELECTION]);
    expect(run.exitCode, run.output).toBe(0);
    const ran = testsRan(results);
    expect(new Set(ran.map((t) => t.project))).toEqual(new Set(['alone']));
    expect(ran.length).toBeGreaterThanOrEqual(13);
    expect(ordersLeftBehind(run)).toBe(0);
  } finally {
    await server.close();
  }
});

test('when the orders for the list views cannot be made, the views are reported blocked by that failure, never passed', async () => {
  // Creates succeed until the account holds a few orders, then answer 500: the step that makes 101 fails.
  let creates = 0;
  const { server } = await serverRecordingWrites([
    {
      name: 'selftest-creates-refused-after-five',
      rewriteReply: (request: ApiRequest, reply: ApiReply): ApiReply =>
        request.method === 'POST' && request.path === '/orders' && ++creates > 5 ? { status: 500, headers: { 'content-type': 'application/json' }, body: { success: false, meta: { status: 500, code: 'full', message: 'full', details: [] } } } : reply,
    },
  ]);
  try {
    const run = await runSuite({ OMS_BASE_URL: server.url, OMS_TOKEN: DEV_TOKEN_A, OMS_WORKERS: '2' }, ['--grep', '@ORD-LIST-003']);
    expect(run.report, run.output).toBeDefined();
    const list003 = run.report!.requirements.find((r) => r.id === 'ORD-LIST-003');
    expect(list003?.status, run.output).toBe('skipped');
    expect(list003?.skips, run.output).toEqual([expect.objectContaining({ kind: 'blocked', blockedBy: 'ORD-CREATE-002' })]);
    expect(run.report!.verdict).toBe('not-conformant');
    expect(run.exitCode).toBe(1);
  } finally {
    await server.close();
  }
});

test('a list view or a write after a delete in a test that runs beside the others stops the test, as a defect of the suite', () => {
  expect(() => mustRunAlone('a list view')).toThrow(/a list view in a test that runs beside the run's other tests: declare it with runsAlone/);
});

test('in a test that runs alone the same call goes ahead', { tag: ALONE_TAG }, () => {
  expect(() => mustRunAlone('a list view')).not.toThrow();
});

test('a worker of the views phase refuses every write, as a defect of the suite', async () => {
  const api = new OmsApi('A', {} as OmsClient, new CreatedOrders(), { readOnly: false, listSettleMs: 0, writesHeld: VIEWS_HOLD_WRITES });
  await expect(api.create({})).rejects.toThrow(/The suite refuses to send POST \/orders here: the list views of this phase read the account while no test of the run writes/);
  await expect(api.send({ method: 'DELETE', path: '/orders/x' })).rejects.toThrow(/refuses to send DELETE/);
  expect(() => api.createAhead({})).toThrow(/refuses to create an order ahead/);
});
