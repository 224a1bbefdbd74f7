import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { JSONReport, JSONReportSuite, JSONReportTest } from '@playwright/test/reporter';
import type { ApiReply, ApiRequest } from '../reference/http';
import { ALONE_TAG, kindOf, NO_OTHER_CREATES_TAG, QUIET_TAG, runsInSecondPhase } from '../config/phases';
import { mustRunApart } from '../harness/record/verifies';
import { HELD_CREATES_ANNOTATION, QUIET_ANNOTATION, RAN_ANNOTATION } from '../harness/record/annotations';
import { DEV_TOKEN_A, startServer, temporaryDirectory } from './support/cli';
import { ordersLeftBehind, runSuite } from './support/run-suite';

/** Tests of both phases: list views (quiet), writes after a delete and a delete among neighbours (no other creates), creates, updates and deletes (together). */
const SELECTION = '@ORD-LIST-00[37]|@ORD-DELETE-00[145]|@ORD-CREATE-00[1-4]|@ORD-UPDATE-00[1-3]';
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

test('in a run of several workers, tests that read a view or need no other create beside them run in a phase of their own: after every other test, one at a time, no other write of the run meanwhile', async () => {
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
        return { title, alone: runsInSecondPhase(tags.map((tag) => `@${tag}`)), project: test.projectName, worker: result.workerIndex, start, end: start + result.duration };
      }),
    );
    const alone = ran.filter((t) => t.alone);
    const together = ran.filter((t) => !t.alone);
    // The --grep chose both kinds, and only those: each phase is filtered like the run.
    expect(alone.map((t) => t.title).sort()).toEqual([
      'answers a second delete of an order without a 5xx, and the order stays deleted',
      'answers an update of a deleted order without a 5xx, and the order stays deleted',
      'answers the first page when no page is given',
      'deletes only the order named',
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
    expect(ran.length).toBeGreaterThanOrEqual(14);
    expect(new Set(ran.map((t) => t.project))).toEqual(new Set(['alone']));
    expect(new Set(ran.map((t) => t.worker)).size).toBe(1);
    expect(ordersLeftBehind(run)).toBe(0);
  } finally {
    await server.close();
  }
});

test('across a network one worker runs many tests at once, and keeps them apart where they must: a view meets no write of the run, no create comes into a window a test holds', async () => {
  const writes: Array<{ at: number; create: boolean }> = [];
  const server = await startServer([
    {
      name: 'selftest-write-times',
      rewriteReply(request: ApiRequest, reply: ApiReply): ApiReply {
        if (request.method !== 'GET' && request.path.startsWith('/orders')) writes.push({ at: Date.now(), create: request.method === 'POST' && request.path === '/orders' });
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
    const spanOf = <T>(annotations: Array<{ type: string; description?: string }>, type: string) => annotations.filter((a) => a.type === type).map((a) => JSON.parse(a.description ?? 'null') as T);
    const bodies = report.suites.flatMap(testsOf).flatMap(({ title, tags, test }) =>
      test.results.map((result) => {
        const ran = spanOf<{ startedAt: number; endedAt: number }>(result.annotations, RAN_ANNOTATION)[0];
        const tagged = tags.map((tag) => `@${tag}`);
        return {
          title,
          kind: kindOf(tagged),
          holds: tagged.includes(NO_OTHER_CREATES_TAG),
          worker: result.workerIndex,
          ran,
          views: spanOf<{ from: number }>(result.annotations, QUIET_ANNOTATION)[0],
          held: spanOf<{ from: number; to: number }>(result.annotations, HELD_CREATES_ANNOTATION),
        };
      }),
    );
    expect(bodies.every((b) => b.ran !== undefined), 'every body says when it ran').toBe(true);
    expect(new Set(bodies.map((b) => b.worker)).size).toBe(1);
    const meet = (a: { from: number; to: number }, b: { from: number; to: number }) => a.from < b.to && b.from < a.to;
    const body = (b: (typeof bodies)[number]) => ({ from: b.ran.startedAt, to: b.ran.endedAt });
    const quiet = bodies.filter((b) => b.kind === 'quiet');
    const holding = bodies.filter((b) => b.holds);
    const others = bodies.filter((b) => b.kind === 'together' && !b.holds);
    expect(quiet.length).toBeGreaterThan(0);
    expect(holding.length).toBe(3);
    // Many at once: tests side by side overlapped, those that hold creates back among them.
    expect(others.some((a) => others.some((b) => a !== b && meet(body(a), body(b))))).toBe(true);
    expect(holding.some((h) => others.some((b) => meet(body(h), body(b))))).toBe(true);
    // A quiet test's views: after every other test, and no write of the run meanwhile.
    for (const q of quiet) {
      expect(q.views, `${q.title} says when its views began`).toBeDefined();
      const views = { from: q.views.from, to: q.ran.endedAt };
      for (const b of [...others, ...holding]) expect(meet(views, body(b)), `${q.title} read its views beside ${b.title}`).toBe(false);
      expect(writes.filter(({ at }) => at > views.from + CLOCK_SLACK_MS && at < views.to - CLOCK_SLACK_MS), `writes while ${q.title} read its views`).toEqual([]);
    }
    // A window held: no create but the holder's own (ORD-DELETE-005 makes none in it, ORD-DELETE-004 its three).
    for (const h of holding) {
      expect(h.held.length, `${h.title} held creates back`).toBe(1);
      const creates = writes.filter(({ at, create }) => create && at > h.held[0].from + CLOCK_SLACK_MS && at < h.held[0].to - CLOCK_SLACK_MS).length;
      expect(creates, `creates while ${h.title} held them back`).toBeLessThanOrEqual(/deletes only the order named/.test(h.title) ? 3 : 0);
    }
    expect(ordersLeftBehind(run)).toBe(0);
  } finally {
    await server.close();
  }
});

test('a list view, or a write no other create may meet, in a test that runs beside the others stops the test, as a defect of the suite', () => {
  expect(() => mustRunApart('a list view', 'quiet')).toThrow(/a list view in a test that runs beside the run's other tests: declare it with whileNothingWrites/);
  expect(() => mustRunApart('a write after a delete', 'no-other-creates')).toThrow(/a write after a delete in a test that runs beside the run's other tests: declare it with whileNoOtherTestCreates/);
  expect(() => mustRunApart('a whole-server probe', 'alone')).toThrow(/declare it with runsAlone/);
});

test('in a test that reads while nothing writes a list view goes ahead, a write no other create may meet does not', { tag: QUIET_TAG }, () => {
  expect(() => mustRunApart('a list view', 'quiet')).not.toThrow();
  expect(() => mustRunApart('a write after a delete', 'no-other-creates')).toThrow(/declare it with whileNoOtherTestCreates/);
});

test('in a test that holds other creates back a write after a delete goes ahead, a list view does not', { tag: NO_OTHER_CREATES_TAG }, () => {
  expect(() => mustRunApart('a write after a delete', 'no-other-creates')).not.toThrow();
  expect(() => mustRunApart('a list view', 'quiet')).toThrow(/declare it with whileNothingWrites/);
});

test('in a test that runs alone all go ahead', { tag: ALONE_TAG }, () => {
  expect(() => mustRunApart('a list view', 'quiet')).not.toThrow();
  expect(() => mustRunApart('a write after a delete', 'no-other-creates')).not.toThrow();
  expect(() => mustRunApart('a whole-server probe', 'alone')).not.toThrow();
});
