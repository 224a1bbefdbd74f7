import type { TestInfo } from '@playwright/test';
import { kindOf, type TestKind } from '../../config/phases';
import { runInRecord, currentTest, type TestRecord } from '../record/current-test';
import { deferredRecord, replayRecord, settledBody, type BodyOutcome, type DeferredRecord } from '../record/deferred';
import { trafficOfTest } from '../record/requests';
import { CHAIN_ANNOTATION, QUIET_ANNOTATION, RAN_ANNOTATION, REQUESTS_ANNOTATION } from '../record/annotations';
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
  /** `heldMs`: how long the body waited for the quiet or for the server's rate limit, no part of its time limit. */
  run?: { record: DeferredRecord; startedAt: number; heldMs: number; endedAt?: number; outcome: Promise<BodyOutcome> };
  /** Playwright waits for this test now. */
  awaited: boolean;
  /** Told when the run starts, for a test Playwright waits for. */
  started?: () => void;
  /** Sets the time limit of the test Playwright waits for, from its body's start: again whenever the body sets its own. */
  limit?: () => void;
  /** A quiet test's wait for the quiet (untilNothingWrites): what lets it go on, and whether it has gone on. */
  quiet?: { resume?: () => void; resumed: boolean; since: number; resuming: Promise<void> };
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
   * for its turn, or a quiet test for the quiet, is no part of it.
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
        const stopNotes = this.noteWhileWaiting(entry);
        entry.started = () => {
          stopNotes();
          started();
        };
        this.pump();
      });
    }
    const run = entry.run as NonNullable<Entry['run']>;
    entry.limit = () => info.setTimeout(Math.max(1, run.startedAt + run.heldMs + (run.record.timeoutMs ?? info.project.timeout) - reached));
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

  /**
   * While Playwright waits for a test whose turn has not come (or a quiet test waits for the quiet), a line now and
   * then says what it waits for: the run goes on meanwhile. Returns what stops the lines.
   */
  private noteWhileWaiting(entry: Entry): () => void {
    const timer = setInterval(() => {
      if (!entry.awaited) return;
      const turn = this.turn();
      const waitingFor = this.active().filter((running) => this.stageOf(running) === turn).length + this.queue.filter((queued) => this.stageOf(queued) === turn && !queued.run).length;
      console.warn(`oms-conformance: ${waitingFor} test(s) that run ${TURN_WORDS[turn]} go first; "${entry.test.title}" (${KIND_WORDS[entry.kind]}) waits for them`);
    }, WAITING_NOTE_MS);
    return () => clearInterval(timer);
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
   * Starts what may start now. The kinds take turns, in the order that keeps them apart the fewest times: every test
   * that runs side by side first, the quiet ones among them up to their first view (what they write first is written
   * beside the others), then the quiet ones' views together, then the alone ones one at a time. The test Playwright
   * waits for starts first once its turn has come; the others follow in the order of the plan.
   */
  private pump(): void {
    const turn = this.turn();
    if (turn !== 'together') this.resumeQuiet();
    const awaited = [...this.entries.values()].find((entry) => entry.awaited && !entry.run);
    if (awaited && (this.stageOf(awaited) === turn || !this.aheadOf(turn)) && this.mayStart(awaited)) this.start(awaited);
    if (this.closed) return;
    this.queue = this.queue.filter((entry) => !entry.run && entry.body);
    for (const entry of this.queue) {
      if (this.active().length >= this.options.testsAhead) break;
      if (this.stageOf(entry) === turn && this.mayStart(entry)) this.start(entry);
    }
  }

  /** What a test is doing now, as the turns see it: a quiet test is one of the side-by-side ones until its views go on. */
  private stageOf(entry: Entry): TestKind {
    return entry.kind === 'quiet' && !entry.quiet?.resumed ? 'together' : entry.kind;
  }

  /** The tests running now that are not waiting for the quiet. */
  private active(): Entry[] {
    return [...this.running].filter((entry) => !(entry.quiet && !entry.quiet.resumed));
  }

  /** The turn: the first, in together, quiet, alone, with a test not run yet or running (one without a body to run ahead waits for Playwright, and holds no turn). */
  private turn(): TestKind {
    return (['together', 'quiet'] as const).find((kind) => this.aheadOf(kind)) ?? 'alone';
  }

  /** Whether a test in this stage is running (a quiet one waiting for the quiet counts for the quiet), or waits to be run ahead. */
  private aheadOf(stage: TestKind): boolean {
    const waitingForQuiet = (entry: Entry) => entry.quiet !== undefined && !entry.quiet.resumed;
    const running = [...this.running].some((entry) => (waitingForQuiet(entry) ? stage === 'quiet' : this.stageOf(entry) === stage));
    return running || this.queue.some((entry) => !entry.run && entry.body !== undefined && this.stageOf(entry) === stage);
  }

  private mayStart(entry: Entry): boolean {
    const stages = new Set(this.active().map((running) => this.stageOf(running)));
    if (stages.size === 0) return true;
    const stage = this.stageOf(entry);
    if (stage === 'alone' || stages.has('alone')) return false;
    return stages.size === 1 && stages.has(stage);
  }

  /**
   * The run pauses `ms` longer for the server (a 429's Retry-After): every body running now waits that much more,
   * no part of its time limit (a quiet one waiting for the quiet has it counted there already).
   */
  holdRunning(ms: number): void {
    for (const entry of this.running) {
      if (!entry.run || (entry.quiet && !entry.quiet.resumed)) continue;
      entry.run.heldMs += ms;
      entry.limit?.();
    }
  }

  /** Lets every quiet test waiting for the quiet go on to its views: nothing of the run writes from here. */
  private resumeQuiet(): void {
    for (const entry of this.running) {
      if (!entry.quiet || entry.quiet.resumed) continue;
      entry.quiet.resumed = true;
      const from = Date.now();
      if (entry.run) {
        entry.run.heldMs += from - entry.quiet.since;
        entry.run.record.annotations.push({ type: QUIET_ANNOTATION, description: JSON.stringify({ from }) });
      }
      entry.limit?.();
      entry.quiet.resume?.();
    }
  }

  /** A quiet test about to read its first view waits here until nothing of the run writes (untilNothingWrites); any other goes on. */
  async quietFor(record: TestRecord | undefined): Promise<void> {
    const entry = this.entryOf(record);
    if (!entry || entry.kind !== 'quiet') return;
    // Views of one test read side by side (its generated runs in flight at once) each wait for the one quiet.
    if (entry.quiet) return entry.quiet.resuming;
    let resume = () => {};
    const resuming = new Promise<void>((resolve) => (resume = resolve));
    const stopNotes = this.noteWhileWaiting(entry);
    entry.quiet = {
      resume: () => {
        stopNotes();
        resume();
      },
      resumed: false,
      since: Date.now(),
      resuming,
    };
    this.pump();
    return resuming;
  }

  /** Whether a test reads its views now, while nothing of the run may write: a write of its own would be one. */
  readsInQuiet(record: TestRecord | undefined): boolean {
    return this.entryOf(record)?.quiet?.resumed === true;
  }

  private start(entry: Entry): void {
    const record = deferredRecord(entry.test, () => entry.limit?.());
    const body = entry.body as TestBody;
    const fixtures = entry.fixtures ?? this.options.fixtures();
    recordsOfEntries.set(record, entry);
    // The body begins once its run is entered here: what it asks of the scheduler at once (the quiet) finds it running.
    const outcome = settledBody(() =>
      runInRecord(record, async () => {
        await undefined;
        return body(fixtures, NO_TEST_INFO);
      }),
    );
    entry.run = { record, startedAt: Date.now(), heldMs: 0, outcome };
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

/** The worker's scheduler, once its fixture is set up: every test body Playwright reaches is handed to it, and a body asks it what it must wait for. */
let current: Scheduler | undefined;

export function scheduleWith(scheduler: Scheduler | undefined): void {
  current = scheduler;
}

export function currentScheduler(): Scheduler | undefined {
  return current;
}

/**
 * Waits, in a quiet test (whileNothingWrites), until nothing of the run writes: what it wrote before it was written
 * beside the other tests, what it reads after is read while only the other quiet tests read beside it. In any other
 * test, or where no scheduler runs the worker's tests, it goes on at once.
 */
export async function untilNothingWrites(): Promise<void> {
  await current?.quietFor(currentTest());
}

/** Throws (a defect of the suite) where a quiet test writes after its views began: nothing of the run may write then. */
export function refuseWriteInQuiet(what: string): void {
  if (current?.readsInQuiet(currentTest())) throw new Error(`${what} in a test reading its views while nothing of the run writes (whileNothingWrites): write before the first view (config/phases.ts)`);
}

/** A body runs ahead of its test: Playwright's TestInfo is not its to write to (the harness records through currentTest()). */
const NO_TEST_INFO = new Proxy({} as TestInfo, {
  get(_target, property) {
    throw new Error(`a test body read testInfo.${String(property)}: the scheduler may run a body ahead of its test (harness/schedule/scheduler.ts), so a body records through the harness (check, ensure, observe, skipTest), never through testInfo`);
  },
});

/** The entry a record runs for, so the rate gate can rank a request by the test that sends it. */
const recordsOfEntries = new WeakMap<TestRecord, Entry>();
