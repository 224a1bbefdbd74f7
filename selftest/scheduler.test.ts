import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test, type TestInfo } from '@playwright/test';
import { ALONE_TAG, QUIET_TAG } from '../config/phases';
import { refuseWriteInQuiet, scheduleWith, Scheduler, untilNothingWrites } from '../harness/schedule/scheduler';
import { testKey, type PlannedTest } from '../harness/schedule/plan';
import type { TestBody } from '../harness/schedule/declarations';
import { observe } from '../harness/record/observe';
import { skipTest } from '../harness/record/skips';
import { currentTest } from '../harness/record/current-test';
import { RAN_ANNOTATION } from '../harness/record/verifies';

/** A test of a made-up plan: its kind by its tags, as verifies(), whileNothingWrites() and runsAlone() tag them. */
function planned(name: string, kind: 'together' | 'quiet' | 'alone'): PlannedTest {
  return { titlePath: ['made-up.spec.ts', name], file: '/made-up.spec.ts', line: 1, tags: kind === 'together' ? ['@MUST'] : [kind === 'quiet' ? QUIET_TAG : ALONE_TAG] };
}

/** What Playwright's TestInfo gives the scheduler, for a planned test, its time limits kept to be read. */
function infoOf(test: PlannedTest) {
  const limits: number[] = [];
  const skips: string[] = [];
  const info = {
    title: test.titlePath[test.titlePath.length - 1],
    titlePath: test.titlePath,
    file: test.file,
    line: test.line,
    tags: test.tags,
    project: { timeout: 120_000 },
    annotations: [] as Array<{ type: string; description?: string }>,
    attachments: [],
    setTimeout: (ms: number) => limits.push(ms),
    skip: (_condition: boolean, reason: string) => {
      skips.push(reason);
      throw new Error(`skipped: ${reason}`);
    },
  };
  return { info: info as unknown as TestInfo, limits, skips, annotations: info.annotations };
}

/**
 * Bodies that note when they ran, each waiting a few milliseconds as a request would. A quiet one writes first, then
 * waits for the quiet (untilNothingWrites) and reads its view: its span is its view's, `wrote` when it wrote.
 */
function timedBodies(tests: PlannedTest[]) {
  const spans = new Map<string, { from: number; to: number }>();
  const wrote = new Map<string, { from: number; to: number }>();
  const refusals = new Map<string, { before: boolean; after: boolean }>();
  const request = (t: PlannedTest) => sleep(15 + (t.titlePath[1].length % 4) * 5);
  const refused = (what: string) => {
    try {
      refuseWriteInQuiet(what);
      return false;
    } catch {
      return true;
    }
  };
  const bodies = new Map<string, TestBody>(
    tests.map((t) => [
      testKey(t.titlePath),
      async () => {
        if (t.tags.includes(QUIET_TAG)) {
          const from = performance.now();
          await request(t);
          wrote.set(t.titlePath[1], { from, to: performance.now() });
          const before = refused('create an order');
          await untilNothingWrites();
          refusals.set(t.titlePath[1], { before, after: refused('create an order') });
        }
        const from = performance.now();
        await request(t);
        spans.set(t.titlePath[1], { from, to: performance.now() });
      },
    ]),
  );
  return { spans, wrote, refusals, bodyOf: () => (key: string) => bodies.get(key) };
}

const overlap = (a: { from: number; to: number }, b: { from: number; to: number }) => a.from < b.to && b.from < a.to;

test.afterEach(() => scheduleWith(undefined));

test('runs the bodies of the tests side by side, the quiet ones\' views together once nothing writes, then each alone one by itself, whatever order Playwright reaches them in', async () => {
  // Playwright's order: the kinds mixed, as tests/ declares them.
  const plan = [planned('t1', 'together'), planned('q1', 'quiet'), planned('t2', 'together'), planned('a1', 'alone'), planned('t3', 'together'), planned('q2', 'quiet'), planned('t4', 'together'), planned('a2', 'alone')];
  const { spans, wrote, refusals, bodyOf } = timedBodies(plan);
  const scheduler = new Scheduler(plan, { fixtures: () => ({}), testsAhead: 8, bodies: bodyOf });
  scheduleWith(scheduler);
  for (const t of plan) await scheduler.take(async () => undefined, {}, infoOf(t).info);
  const kinds = Object.fromEntries(plan.map((t) => [t.titlePath[1], t.tags[0] === QUIET_TAG ? 'quiet' : t.tags[0] === ALONE_TAG ? 'alone' : 'together']));
  const names = (kind: string) => Object.keys(kinds).filter((name) => kinds[name] === kind);
  const span = (name: string) => spans.get(name) as { from: number; to: number };
  // Every body ran, once.
  expect([...spans.keys()].sort()).toEqual(plan.map((t) => t.titlePath[1]).sort());
  // Side by side: the together bodies overlapped one another (sent ahead of Playwright).
  expect(names('together').some((a) => names('together').some((b) => a !== b && overlap(span(a), span(b))))).toBe(true);
  // A quiet test's writes go out beside the together ones; its view after every together one ended, beside the other views.
  expect(names('quiet').every((q) => names('together').some((t) => overlap(wrote.get(q) as { from: number; to: number }, span(t))))).toBe(true);
  for (const q of names('quiet')) for (const t of names('together')) expect(span(q).from, `${q} began its view before ${t} ended`).toBeGreaterThanOrEqual(span(t).to);
  expect(overlap(span('q1'), span('q2'))).toBe(true);
  // A write of a quiet test is refused once its views began (a defect of the suite), not before.
  for (const q of names('quiet')) expect(refusals.get(q)).toEqual({ before: false, after: true });
  // Alone: beside nothing.
  for (const a of names('alone')) for (const other of Object.keys(kinds)) if (other !== a) expect(overlap(span(a), span(other)), `${a} ran beside ${other}`).toBe(false);
});

test('starts the test Playwright waits for first, and runs no more bodies at once than it may', async () => {
  const plan = Array.from({ length: 12 }, (_, index) => planned(`t${index}`, 'together'));
  let running = 0;
  let most = 0;
  const order: string[] = [];
  const bodies = new Map<string, TestBody>(
    plan.map((t) => [
      testKey(t.titlePath),
      async () => {
        order.push(t.titlePath[1]);
        most = Math.max(most, ++running);
        await sleep(10);
        running--;
      },
    ]),
  );
  const scheduler = new Scheduler(plan, { fixtures: () => ({}), testsAhead: 3, bodies: () => (key) => bodies.get(key) });
  // Playwright reaches the sixth test first (a worker started again after a failure begins mid-plan): the plan from there is this worker's.
  for (const t of plan.slice(5)) await scheduler.take(async () => undefined, {}, infoOf(t).info);
  expect(order[0]).toBe('t5');
  expect(order.sort()).toEqual(plan.slice(5).map((t) => t.titlePath[1]).sort());
  expect(most).toBeLessThanOrEqual(3);
  expect(most).toBeGreaterThan(1);
});

test('replays what a body run ahead recorded into its test, when Playwright reaches it: observations, skips, errors, and when it ran', async () => {
  const plan = [planned('observes', 'together'), planned('skips', 'together'), planned('throws', 'together')];
  const bodies = new Map<string, TestBody>([
    [testKey(plan[0].titlePath), async () => observe('ORD-OBS-001', 'seen ahead')],
    [testKey(plan[1].titlePath), async () => skipTest({ kind: 'precondition', reason: 'nothing to judge' })],
    [
      testKey(plan[2].titlePath),
      async () => {
        throw new Error('a defect of the suite');
      },
    ],
  ]);
  const scheduler = new Scheduler(plan, { fixtures: () => ({}), testsAhead: 4, bodies: () => (key) => bodies.get(key) });
  const [observing, skipping, throwing] = plan.map(infoOf);
  await scheduler.take(async () => undefined, {}, observing.info);
  expect(observing.annotations).toContainEqual({ type: 'observed', description: 'ORD-OBS-001: seen ahead' });
  const ran = JSON.parse(observing.annotations.find((a) => a.type === RAN_ANNOTATION)?.description ?? '{}') as { startedAt?: number; endedAt?: number };
  expect(ran.endedAt).toBeGreaterThanOrEqual(ran.startedAt ?? Infinity);
  await expect(scheduler.take(async () => undefined, {}, skipping.info)).rejects.toThrow('skipped: nothing to judge');
  expect(skipping.skips).toEqual(['nothing to judge']);
  expect(skipping.annotations.some((a) => a.type === 'oms-skip')).toBe(true);
  await expect(scheduler.take(async () => undefined, {}, throwing.info)).rejects.toThrow('a defect of the suite');
});

test('counts a test\'s time limit from its body\'s start, and not the time it waits for its turn', async () => {
  const plan = [planned('slow', 'together'), planned('apart', 'alone')];
  const bodies = new Map<string, TestBody>([
    [testKey(plan[0].titlePath), () => sleep(200)],
    [testKey(plan[1].titlePath), async () => currentTest()?.setTimeout(5_000)],
  ]);
  const scheduler = new Scheduler(plan, { fixtures: () => ({}), testsAhead: 4, bodies: () => (key) => bodies.get(key) });
  // Playwright reaches the test that runs alone while the side-by-side one runs: it waits, without a limit, for it to end.
  const slow = infoOf(plan[0]);
  const apart = infoOf(plan[1]);
  await Promise.all([scheduler.take(async () => undefined, {}, slow.info), scheduler.take(async () => undefined, {}, apart.info)]);
  expect(apart.limits[0]).toBe(0);
  // Then the limit the body set, from its start: what it asked for, and the ~200 ms it waited on top.
  expect(apart.limits[apart.limits.length - 1]).toBeGreaterThan(5_000 + 150);
  expect(apart.limits[apart.limits.length - 1]).toBeLessThan(5_000 + 200 + 5_000);
});

test('leaves the time a quiet test waits for the quiet out of its time limit', async () => {
  const plan = [planned('view', 'quiet'), planned('slow', 'together')];
  const bodies = new Map<string, TestBody>([
    [
      testKey(plan[0].titlePath),
      async () => {
        currentTest()?.setTimeout(5_000);
        await untilNothingWrites();
      },
    ],
    [testKey(plan[1].titlePath), () => sleep(400)],
  ]);
  const scheduler = new Scheduler(plan, { fixtures: () => ({}), testsAhead: 4, bodies: () => (key) => bodies.get(key) });
  scheduleWith(scheduler);
  const view = infoOf(plan[0]);
  const slow = infoOf(plan[1]);
  await Promise.all([scheduler.take(async () => undefined, {}, view.info), scheduler.take(async () => undefined, {}, slow.info)]);
  // The body asked for 5 s; it waited about 400 ms for the side-by-side test, which its limit gives back.
  expect(view.limits[view.limits.length - 1]).toBeGreaterThan(5_000 + 300);
});

test('holds every view of a quiet test until the quiet, its views read side by side (generated runs in flight at once) too', async () => {
  const plan = [planned('views', 'quiet'), planned('writer', 'together')];
  const seen: string[] = [];
  const bodies = new Map<string, TestBody>([
    [testKey(plan[0].titlePath), () => Promise.all([1, 2, 3].map(async (view) => {
      await untilNothingWrites();
      seen.push(`view ${view}`);
    })).then(() => undefined)],
    [testKey(plan[1].titlePath), async () => {
      await sleep(200);
      seen.push('write');
    }],
  ]);
  const scheduler = new Scheduler(plan, { fixtures: () => ({}), testsAhead: 4, bodies: () => (key) => bodies.get(key) });
  scheduleWith(scheduler);
  await Promise.all([scheduler.take(async () => undefined, {}, infoOf(plan[0]).info), scheduler.take(async () => undefined, {}, infoOf(plan[1]).info)]);
  expect(seen).toEqual(['write', 'view 1', 'view 2', 'view 3']);
});

test('leaves the time the run pauses for the server\'s rate limit out of the time limits of the bodies running', async () => {
  const plan = [planned('limited', 'together')];
  let scheduler: Scheduler | undefined;
  const bodies = new Map<string, TestBody>([
    [
      testKey(plan[0].titlePath),
      async () => {
        currentTest()?.setTimeout(5_000);
        // A 429's Retry-After of 3 s, met while the body runs (the gate's onPause).
        scheduler?.holdRunning(3_000);
      },
    ],
  ]);
  scheduler = new Scheduler(plan, { fixtures: () => ({}), testsAhead: 4, bodies: () => (key) => bodies.get(key) });
  const limited = infoOf(plan[0]);
  await scheduler.take(async () => undefined, {}, limited.info);
  expect(limited.limits[limited.limits.length - 1]).toBeGreaterThan(5_000 + 3_000 - 100);
});

test('ranks a request of the test Playwright waits for before the others, and the others by the plan', async () => {
  const plan = [planned('first', 'together'), planned('second', 'together'), planned('third', 'together')];
  const ranks = new Map<string, number>();
  let scheduler: Scheduler | undefined;
  const bodies = new Map<string, TestBody>(plan.map((t) => [testKey(t.titlePath), async () => void ranks.set(t.titlePath[1], scheduler?.rank() ?? NaN)]));
  scheduler = new Scheduler(plan, { fixtures: () => ({}), testsAhead: 4, bodies: () => (key) => bodies.get(key) });
  for (const t of plan) await scheduler.take(async () => undefined, {}, infoOf(t).info);
  expect(ranks.get('first')).toBe(-1);
  expect([ranks.get('second'), ranks.get('third')]).toEqual([1, 2]);
  // Outside any test's body: last.
  expect(scheduler.rank()).toBe(Number.MAX_SAFE_INTEGER);
});
