import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { JSONReport, JSONReportSuite, JSONReportTest } from '@playwright/test/reporter';
import type { ApiReply, ApiRequest } from '../reference/http';
import { ALONE_TAG, kindOf, QUIET_TAG } from '../config/phases';
import { mustRunApart, RAN_ANNOTATION } from '../harness/record/verifies';
import { DEV_TOKEN_A, startServer, temporaryDirectory } from './support/cli';
import { ordersLeftBehind, runSuite } from './support/run-suite';

/** Tests of both phases: list views and writes after a delete (alone), creates, updates and deletes (together). */
const SELECTION = '@ORD-LIST-00[37]|@ORD-DELETE-00[15]|@ORD-CREATE-00[1-4]|@ORD-UPDATE-00[1-3]';
/** Timestamps of the runner and of the server's process are read from one clock, to the millisecond. */
const CLOCK_SLACK_MS = 5;

interface Ran {
  title: string;
  alone: boolean;
  project: string;
  worker: number;
  start: number;
  end: number;
}

function testsOf(suite: JSONReportSuite): Array<{ title: string; tags: string[]; test: JSONReportTest }> {
  return [...suite.specs.flatMap((spec) => spec.tests.map((test) => ({ title: spec.title, tags: spec.tags, test }))), ...(suite.suites ?? []).flatMap(testsOf)];
}

test('in a run of several workers, tests that read a view or write after a delete run in a phase of their own: after every other test, one at a time, no other write of the run meanwhile', async () => {
  // Every write the server took, with the order it made or touched, and when.
  const writes: Array<{ at: number; created?: string; touched?: string }> = [];
  const server = await startServer([
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
  const results = join(temporaryDirectory('oms-phases-'), 'results.json');
  try {
    const run = await runSuite(
      { OMS_BASE_URL: server.url, OMS_TOKEN: DEV_TOKEN_A, OMS_WORKERS: '2', PLAYWRIGHT_JSON_OUTPUT_NAME: results },
      ['--reporter', 'json', '--grep', SELECTION],
    );
    expect(run.exitCode, run.output).toBe(0);
    const report = JSON.parse(readFileSync(results, 'utf8')) as JSONReport;
    const ran: Ran[] = report.suites.flatMap(testsOf).flatMap(({ title, tags, test }) =>
      test.results.map((result) => {
        const start = Date.parse(result.startTime);
        return { title, alone: tags.includes(ALONE_TAG.slice(1)) || tags.includes(QUIET_TAG.slice(1)), project: test.projectName, worker: result.workerIndex, start, end: start + result.duration };
      }),
    );
    const alone = ran.filter((t) => t.alone);
    const together = ran.filter((t) => !t.alone);
    // The --grep chose both kinds, and only those: each phase is filtered like the run.
    expect(alone.map((t) => t.title).sort()).toEqual([
      'answers a second delete of an order without a 5xx, and the order stays deleted',
      'answers an update of a deleted order without a 5xx, and the order stays deleted',
      'answers the first page when no page is given',
      'ends, at any limit, on the last page meta.total implies',
      'reports the total count in meta.total, also after a delete and while another account holds orders',
    ]);
    expect(together.length).toBeGreaterThanOrEqual(8);
    expect(new Set(alone.map((t) => t.project))).toEqual(new Set(['alone']));
    expect(new Set(together.map((t) => t.project))).toEqual(new Set(['together']));
    // One worker of its own, one test at a time.
    expect(new Set(alone.map((t) => t.worker)).size).toBe(1);
    expect(together.some((t) => t.worker === alone[0].worker)).toBe(false);
    const inTurn = [...alone].sort((a, b) => a.start - b.start);
    inTurn.slice(1).forEach((t, i) => expect(t.start, `${t.title} began before ${inTurn[i].title} ended`).toBeGreaterThanOrEqual(inTurn[i].end - CLOCK_SLACK_MS));
    // Every other test ended first, and its worker deleted what it made before the first test that runs alone began.
    const phaseStart = inTurn[0].start;
    expect(Math.max(...together.map((t) => t.end))).toBeLessThanOrEqual(phaseStart + CLOCK_SLACK_MS);
    const firstPhaseOrders = new Set(writes.filter((w) => w.created && w.at < phaseStart).map((w) => w.created));
    expect(firstPhaseOrders.size).toBeGreaterThan(0);
    const lateWrites = writes.filter((w) => w.at >= phaseStart - CLOCK_SLACK_MS && firstPhaseOrders.has(w.touched));
    expect(lateWrites, 'writes to orders of the first phase once the second began').toEqual([]);
    const deleted = new Set(writes.filter((w) => w.touched && w.at < phaseStart).map((w) => w.touched));
    expect([...firstPhaseOrders].filter((id) => !deleted.has(id)), 'orders of the first phase still there when the second began').toEqual([]);
  } finally {
    await server.close();
  }
});

test('a run of one worker runs every test in one phase, and leaves no order behind', async () => {
  const server = await startServer([]);
  const results = join(temporaryDirectory('oms-phases-'), 'results.json');
  try {
    const run = await runSuite({ OMS_BASE_URL: server.url, OMS_TOKEN: DEV_TOKEN_A, OMS_WORKERS: '1', PLAYWRIGHT_JSON_OUTPUT_NAME: results }, ['--reporter', 'json', '--grep', SELECTION]);
    expect(run.exitCode, run.output).toBe(0);
    const report = JSON.parse(readFileSync(results, 'utf8')) as JSONReport;
    const ran = report.suites.flatMap(testsOf).flatMap(({ test }) => test.results.map((result) => ({ project: test.projectName, worker: result.workerIndex })));
    expect(ran.length).toBeGreaterThanOrEqual(13);
    expect(new Set(ran.map((t) => t.project))).toEqual(new Set(['alone']));
    expect(new Set(ran.map((t) => t.worker)).size).toBe(1);
    expect(ordersLeftBehind(run)).toBe(0);
  } finally {
    await server.close();
  }
});

test('across a network one worker runs many tests at once, and keeps the kinds apart: a view meets no write of the run, a test that runs alone meets no other test', async () => {
  const writes: number[] = [];
  const server = await startServer([
    {
      name: 'selftest-write-times',
      rewriteReply(request: ApiRequest, reply: ApiReply): ApiReply {
        if (request.method !== 'GET' && request.path.startsWith('/orders')) writes.push(Date.now());
        return reply;
      },
    },
  ]);
  const results = join(temporaryDirectory('oms-phases-'), 'results.json');
  try {
    // ORD-LIST-001's test makes the account's orders among the tests side by side, so the views that follow need none made.
    const run = await runSuite(
      { OMS_BASE_URL: server.url, OMS_TOKEN: DEV_TOKEN_A, OMS_ROUND_TRIP_MS: '20', OMS_WORKERS: '1', PLAYWRIGHT_JSON_OUTPUT_NAME: results },
      ['--reporter', `${require.resolve('../reporter/conformance-reporter')},json`, '--grep', `${SELECTION}|@ORD-LIST-001`],
    );
    expect(run.exitCode, run.output.slice(-3000)).toBe(0);
    const report = JSON.parse(readFileSync(results, 'utf8')) as JSONReport;
    const bodies = report.suites.flatMap(testsOf).flatMap(({ title, tags, test }) =>
      test.results.map((result) => {
        const ran = JSON.parse(result.annotations.find((a) => a.type === RAN_ANNOTATION)?.description ?? 'null') as { startedAt: number; endedAt: number } | null;
        return { title, kind: kindOf(tags.map((tag) => `@${tag}`)), worker: result.workerIndex, ran };
      }),
    );
    expect(bodies.every((b) => b.ran !== null), 'every body says when it ran').toBe(true);
    expect(new Set(bodies.map((b) => b.worker)).size).toBe(1);
    const span = (b: (typeof bodies)[number]) => b.ran as { startedAt: number; endedAt: number };
    const meet = (a: (typeof bodies)[number], b: (typeof bodies)[number]) => span(a).startedAt < span(b).endedAt && span(b).startedAt < span(a).endedAt;
    const of = (kind: string) => bodies.filter((b) => b.kind === kind);
    expect(of('quiet').length).toBeGreaterThan(0);
    expect(of('alone').length).toBeGreaterThan(0);
    // Many at once: some tests side by side overlapped.
    expect(of('together').some((a) => of('together').some((b) => a !== b && meet(a, b)))).toBe(true);
    for (const a of of('alone')) for (const b of bodies) if (a !== b) expect(meet(a, b), `${a.title} ran beside ${b.title}`).toBe(false);
    for (const q of of('quiet')) {
      for (const b of [...of('together'), ...of('alone')]) expect(meet(q, b), `${q.title} ran beside ${b.title}`).toBe(false);
      expect(writes.filter((at) => at > span(q).startedAt + CLOCK_SLACK_MS && at < span(q).endedAt - CLOCK_SLACK_MS), `writes while ${q.title} read its views`).toEqual([]);
    }
    expect(ordersLeftBehind(run)).toBe(0);
  } finally {
    await server.close();
  }
});

test('a list view or a write after a delete in a test that runs beside the others stops the test, as a defect of the suite', () => {
  expect(() => mustRunApart('a list view', 'quiet')).toThrow(/a list view in a test that runs beside the run's other tests: declare it with whileNothingWrites/);
  expect(() => mustRunApart('a write after a delete', 'alone')).toThrow(/a write after a delete in a test that runs beside the run's other tests: declare it with runsAlone/);
});

test('in a test that runs while nothing writes a list view goes ahead, a write after a delete does not', { tag: QUIET_TAG }, () => {
  expect(() => mustRunApart('a list view', 'quiet')).not.toThrow();
  expect(() => mustRunApart('a write after a delete', 'alone')).toThrow(/declare it with runsAlone/);
});

test('in a test that runs alone both go ahead', { tag: ALONE_TAG }, () => {
  expect(() => mustRunApart('a list view', 'quiet')).not.toThrow();
  expect(() => mustRunApart('a write after a delete', 'alone')).not.toThrow();
});
