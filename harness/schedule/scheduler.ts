import type { TestInfo } from '@playwright/test';
import { kindOf, type TestKind } from '../../config/phases';
import { runInRecord, currentTest, type TestRecord } from '../record/current-test';
import { deferredRecord, replayRecord, settledBody, type BodyOutcome, type DeferredRecord } from '../record/deferred';
import { trafficOfTest } from '../record/requests';
import { CHAIN_ANNOTATION, RAN_ANNOTATION, REQUESTS_ANNOTATION } from '../record/verifies';
import { collectGarbage } from '../memory';
import { declaredBody, loadDeclarations, type TestBody } from './declarations';
import { testKey, type PlannedTest } from './plan';

/** How often a test Playwright waits for, whose turn has not come, says so. */
const WAITING_NOTE_MS = 10_000;

const TURN_WORDS: Record<TestKind, string> = { together: 'side by side', quiet: 'while nothing writes', alone: 'alone' };
const KIND_WORDS: Record<TestKind, string> = { together: 'it runs side by side with them', quiet: 'a list view read while nothing of the run writes', alone: 'it runs beside no other test' };

/** Requests from which a test counts as heavy, its garbage collected once Playwright has its record (harness/memory.ts). */
const HEAVY_TEST_REQUESTS = 100;

/** One test of the worker's plan, and its body's run once started. */
interface Entry {
  key: string;
  test: { title: string; titlePath: string[]; file: string; line: number; tags: string[] };
  kind: TestKind;
  /** Its place in the plan: the lower, the sooner its body starts and its requests take a free slot. */
  rank: number;
  body?: TestBody;
  /** Fixtures of its own (Playwright's, for a test it reached before the scheduler started the body). */
  fixtures?: Record<string, unknown>;
  run?: { record: DeferredRecord; startedAt: number; endedAt?: number; outcome: Promise<BodyOutcome> };
  /** Playwright waits for this test now. */
  awaited: boolean;
  /** Told when the run starts, for a test Playwright waits for. */
  started?: () => void;
  /** Sets the time limit of the test Playwright waits for, from its body's start: again whenever the body sets its own. */
  limit?: () => void;
}

export interface SchedulerOptions {
  /** The fixtures a body run ahead of its test gets ({ api, apiB, accounts, settings }), resolved in its record. */
  fixtures: () => Record<string, unknown>;
  /** Bodies running at once, at most (their requests are bounded by the rate gate besides). */
  testsAhead: number;
  /** The bodies of the planned tests, by test key: read from their spec files (harness/schedule/declarations.ts) unless given. */
  bodies?: (planned: readonly PlannedTest[]) => (key: string) => TestBody | undefined;
}

/** The bodies of planned tests, read from the files that declare them. */
function declaredBodies(planned: readonly PlannedTest[]): (key: string) => TestBody | undefined {
  const files = new Map(planned.map((test) => [test.file, test.titlePath[0]]));
  for (const [file, fileTitle] of files) loadDeclarations(file, fileTitle);
  return declaredBody;
}

/**
 * Runs the bodies of the tests a worker will run before Playwright reaches them, many at once, so a worker waits
 * a round trip for many tests, not one: across a network the run then takes about its critical path, not its
 * requests times the round trip. Each body runs in a record of its own (harness/record/deferred.ts) that the
 * test replays when Playwright reaches it: its judgements, observations, skips and failures, as if it had run
 * there. Tests of the three kinds (config/phases.ts) never meet: a quiet test starts only while no other kind
 * runs, an alone test only while nothing runs, and none starts beside one of them. Playwright's own order leads:
 * the test it waits for starts first (the others wait until it can), then the others in the order of the plan,
 * and the rate gate gives the waiting test's requests the next free slots (`rank`).
 *
 * The plan (harness/schedule/plan.ts) names the worker's tests; their bodies come from their spec files
 * (harness/schedule/declarations.ts). Without a plan every test runs when Playwright reaches it, through the
 * same record, one at a time.
 */
export class Scheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly running = new Set<Entry>();
  /** Entries not started yet, in plan order, from the first test Playwright gave this worker on. */
  private queue: Entry[] = [];
  private begun = false;
  private closed = false;

  constructor(
    private readonly plan: readonly PlannedTest[],
    private readonly options: SchedulerOptions,
  ) {}

  /** The rate gate's rank of the request being sent now: the test Playwright waits for first, then by the plan. */
  readonly rank = (): number => {
    const entry = this.entryOf(currentTest());
    if (!entry) return Number.MAX_SAFE_INTEGER;
    return entry.awaited ? -1 : entry.rank;
  };

  /**
   * The body of the test Playwright reached: its run (started ahead, or now), waited for, and its record replayed
   * into the test. The test's time limit counts from its body's start, as if it had run here; the time it waits
   * for its turn is no part of it.
   */
  async take(body: TestBody, fixtures: Record<string, unknown>, info: TestInfo): Promise<void> {
    const reached = Date.now();
    this.begin(info);
    const entry = this.entries.get(testKey(info.titlePath)) ?? this.unplanned(info, body);
    entry.awaited = true;
    entry.fixtures ??= fixtures;
    entry.body ??= body;
    if (!entry.run) {
      info.setTimeout(0);
      await new Promise<void>((started) => {
        entry.started = started;
        this.pump();
        if (!entry.run) this.sayWhileWaiting(entry);
      });
    }
    const run = entry.run as NonNullable<Entry['run']>;
    entry.limit = () => info.setTimeout(Math.max(1, run.startedAt + (run.record.timeoutMs ?? info.project.timeout) - reached));
    entry.limit();
    const outcome = await run.outcome;
    entry.awaited = false;
    this.entries.delete(entry.key);
    const { requests, chain } = trafficOfTest(run.record);
    run.record.annotations.push(
      { type: REQUESTS_ANNOTATION, description: String(requests) },
      { type: CHAIN_ANNOTATION, description: String(chain) },
      { type: RAN_ANNOTATION, description: JSON.stringify({ startedAt: run.startedAt, endedAt: run.endedAt ?? Date.now() }) },
    );
    try {
      replayRecord(run.record, outcome, info);
    } finally {
      // A test of many requests (generated runs) leaves much behind: collected now, the worker's memory stays near its floor.
      if (requests >= HEAVY_TEST_REQUESTS) collectGarbage();
    }
  }

  /** While Playwright waits for a test whose kind's turn has not come, a line now and then says what it waits for: the run goes on meanwhile. */
  private sayWhileWaiting(entry: Entry): void {
    const say = () => {
      const turn = this.turn();
      const waitingFor = [...this.running].filter((running) => running.kind === turn).length + this.queue.filter((queued) => queued.kind === turn && !queued.run).length;
      console.warn(`oms-conformance: ${waitingFor} test(s) that run ${TURN_WORDS[turn]} go first; "${entry.test.title}" (${KIND_WORDS[entry.kind]}) waits for them`);
    };
    const timer = setInterval(say, WAITING_NOTE_MS);
    const started = entry.started;
    entry.started = () => {
      clearInterval(timer);
      started?.();
    };
  }

  /** No body starts after this (the worker's teardown): those still running end on their own, each request within its deadline. */
  close(): void {
    this.closed = true;
  }

  /** At the first test Playwright gives this worker: the plan from that test on is the worker's, their bodies read from their files. */
  private begin(info: TestInfo): void {
    if (this.begun) return;
    this.begun = true;
    const from = this.plan.findIndex((test) => testKey(test.titlePath) === testKey(info.titlePath));
    if (from < 0) return;
    const planned = this.plan.slice(from);
    const bodyOf = (this.options.bodies ?? declaredBodies)(planned);
    this.queue = planned.map((test, index) => {
      const key = testKey(test.titlePath);
      const entry: Entry = {
        key,
        test: { title: test.titlePath[test.titlePath.length - 1], titlePath: test.titlePath, file: test.file, line: test.line, tags: test.tags },
        kind: kindOf(test.tags),
        rank: index,
        body: bodyOf(key),
        awaited: false,
      };
      this.entries.set(key, entry);
      return entry;
    });
  }

  /** A test the plan does not name (no plan, or another order than Playwright's): it runs when Playwright reaches it. */
  private unplanned(info: TestInfo, body: TestBody): Entry {
    const entry: Entry = {
      key: testKey(info.titlePath),
      test: { title: info.title, titlePath: info.titlePath, file: info.file, line: info.line, tags: info.tags },
      kind: kindOf(info.tags),
      rank: -1,
      body,
      awaited: true,
    };
    this.entries.set(entry.key, entry);
    return entry;
  }

  /**
   * Starts what may start now. The kinds take turns, in the order that keeps them apart the fewest times: every
   * test that runs side by side first, then the quiet ones together, then the alone ones one at a time. The test
   * Playwright waits for starts first once its kind's turn has come; the others follow in the order of the plan.
   */
  private pump(): void {
    const turn = this.turn();
    const awaited = [...this.entries.values()].find((entry) => entry.awaited && !entry.run);
    if (awaited && (awaited.kind === turn || !this.aheadOf(turn)) && this.mayStart(awaited)) this.start(awaited);
    if (this.closed) return;
    this.queue = this.queue.filter((entry) => !entry.run && entry.body);
    for (const entry of this.queue) {
      if (this.running.size >= this.options.testsAhead) break;
      if (entry.kind === turn && this.mayStart(entry)) this.start(entry);
    }
  }

  /** The kind whose turn it is: the first, in together, quiet, alone, with a test not run yet (one without a body to run ahead waits for Playwright, and holds no turn). */
  private turn(): TestKind {
    return (['together', 'quiet'] as const).find((kind) => this.aheadOf(kind)) ?? 'alone';
  }

  /** Whether a test of this kind is still running, or waits to be run ahead. */
  private aheadOf(kind: TestKind): boolean {
    return [...this.running].some((entry) => entry.kind === kind) || this.queue.some((entry) => entry.kind === kind && !entry.run && entry.body !== undefined);
  }

  private mayStart(entry: Entry): boolean {
    const kinds = new Set([...this.running].map((running) => running.kind));
    if (kinds.size === 0) return true;
    if (entry.kind === 'alone' || kinds.has('alone')) return false;
    return kinds.size === 1 && kinds.has(entry.kind);
  }

  private start(entry: Entry): void {
    const record = deferredRecord(entry.test, () => entry.limit?.());
    const body = entry.body as TestBody;
    const fixtures = entry.fixtures ?? this.options.fixtures();
    recordsOfEntries.set(record, entry);
    const outcome = settledBody(() => runInRecord(record, async () => body(fixtures, NO_TEST_INFO)));
    entry.run = { record, startedAt: Date.now(), outcome };
    this.running.add(entry);
    entry.started?.();
    void outcome.then(() => {
      if (entry.run) entry.run.endedAt = Date.now();
      this.running.delete(entry);
      this.pump();
    });
  }

  private entryOf(record: TestRecord | undefined): Entry | undefined {
    return record && recordsOfEntries.get(record);
  }
}

/** A body runs ahead of its test: Playwright's TestInfo is not its to write to (the harness records through currentTest()). */
const NO_TEST_INFO = new Proxy({} as TestInfo, {
  get(_target, property) {
    throw new Error(`a test body read testInfo.${String(property)}: the scheduler may run a body ahead of its test (harness/schedule/scheduler.ts), so a body records through the harness (check, ensure, observe, skipTest), never through testInfo`);
  },
});

/** The entry a record runs for, so the rate gate can rank a request by the test that sends it. */
const recordsOfEntries = new WeakMap<TestRecord, Entry>();
