import { testRunningNow, type TestRecord } from './record/current-test';
import { relative } from 'node:path';
import fc from 'fast-check';
import type { OmsApi } from './requests/api';
import { clip } from './http/exchange';
import type { Exchange } from '../contract/exchange';
import { ensure, judged } from './record/findings';
import type { Judgement, Judgements } from '../checks/check';
import type { Finding, Replay as FindingReplay } from '../checks/finding';
import { knownViolated, recordViolated } from './record/run-knowledge';
import { recordCut, recordGeneratedRuns, type Cut } from './record/cuts';
import { defaultConcurrency } from '../config/network';
import { skipTest } from './record/skips';
import type { Settings } from '../config/settings';
import { runSeed } from '../config/seed';
import { FailureStore, type StoredEntry } from './failure-store';
import { PACKAGE_ROOT } from '../config/package-root';
import { replayCommand } from './replay-command';

/**
 * How generated tests run: how many cases an effort buys, which seed they use, and what a failure
 * prints: the requirement, the shrunk counterexample as the requests it made, and the seed and
 * path that replay it (OMS_SEED, OMS_PATH).
 */

export interface EffortProfile {
  /** Generated cases per property. */
  numRuns: number;
  /** Command sequences per model-based test, and the longest sequence. */
  sequences: number;
  maxCommands: number;
  /**
   * Requests the generated runs of one test may send before any failure. Counted in requests, never in
   * seconds: a slow server gets the same runs as a fast one, later. A run that would start past it is cut,
   * and the cut is reported (harness/record/cuts.ts).
   */
  maxRequests: number;
  /** Below this share of the planned runs, a cut test leaves its requirements not checked (the run is incomplete). */
  floor: number;
  /** Requests shrinking one failure may send; a requirement another test already failed is not shrunk at all. */
  shrink: { maxRequests: number };
  /**
   * The backstop, in time, of one generated test: no run or shrink candidate starts past it (a server so slow
   * that the request budgets would take longer), and the cut is reported. Far above what the budgets take at
   * any usual latency; Playwright's timeout is set above it, so a test is never stopped with requests in flight.
   */
  backstopMs: number;
}

/** quick gates CI in seconds; thorough is for certification. */
export const EFFORT: Record<Settings['effort'], EffortProfile> = {
  quick: { numRuns: 8, sequences: 5, maxCommands: 10, maxRequests: 1_500, floor: 0.5, shrink: { maxRequests: 100 }, backstopMs: 5 * 60_000 },
  thorough: { numRuns: 200, sequences: 60, maxCommands: 30, maxRequests: 50_000, floor: 0.5, shrink: { maxRequests: 5_000 }, backstopMs: 60 * 60_000 },
};

export interface Replay {
  /** The run's seed (config/seed.ts): one for every generated test of the run. */
  seed: number;
  /** fast-check's counterexample path: with the seed, runs that counterexample only. */
  path?: string;
  /** For model-based tests: which generated commands actually ran (fast-check's replayPath). */
  commandsPath?: string;
}

/** OMS_PATH, as a failure prints it: "<path>" or, for a model-based test, "<path>@<replayPath>". */
export function readReplay(settings: Settings): Replay {
  const raw = settings.replayPath;
  if (!raw) return { seed: runSeed(settings).seed };
  const [path, commandsPath] = raw.split('@');
  if (!/^\d+(:\d+)*$/.test(path)) throw new Error(`OMS_PATH must look like 3:0:1 (as a failure prints it), got ${JSON.stringify(raw)}`);
  if (typeof settings.seed !== 'number') throw new Error('OMS_PATH replays a counterexample of one seed: set OMS_SEED too');
  return { seed: settings.seed, path, commandsPath };
}

/** The requests of one run, in order, for the counterexample. */
export class Trail {
  readonly exchanges: Exchange[] = [];

  /** `listSettleMs`: how long its list reads wait for a write to show, when not the setting's (shrinking waits for none). */
  constructor(private readonly listSettleMs?: number) {}

  /** The same api, every exchange it makes recorded here. */
  api(api: OmsApi): OmsApi {
    return api.recording((exchange) => this.exchanges.push(exchange), this.listSettleMs);
  }
}

/** A broken requirement inside a run: fast-check shrinks the input while it keeps happening. */
export class Violation extends Error {
  constructor(readonly finding: Finding) {
    super(`[${finding.requirementId}] ${finding.expected}; received ${finding.received.split('\n')[0]}`);
  }
}

/** Records a judgement of a run, and ends the run when it found a violation. */
export function stopOn(judgement: Judgement | Judgements | undefined): void {
  const finding = judged(judgement);
  if (finding) throw new Violation(finding);
}

/** A run that failed: its error and the requests it made. */
class FailedRun extends Error {
  constructor(
    override readonly cause: unknown,
    readonly requests: Exchange[],
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

export interface GeneratedTest<T> {
  /** The generated input of one run. */
  input: fc.Arbitrary<T>;
  /** One run: requests through trail.api(…); its last judgement is returned, or a broken requirement thrown with stopOn. */
  run(input: T, trail: Trail): Promise<Judgement | Judgements | undefined>;
  /** Runs relative to the profile's numRuns (cheap properties take more). */
  runsFactor?: number;
  /** How many runs, instead of the profile's numRuns (model-based tests: EFFORT[…].sequences). */
  numRuns?: number;
  /** What one run is, in the report's words where a budget cuts runs ("command sequences"). */
  unit?: Cut['unit'];
  /** Why a run may prove nothing (it calls fc.pre(false)); the test is skipped with it when most runs do. */
  inconclusive?: string;
  /** A line printed under the counterexample's requests, where their pattern needs a word. */
  requestsNote?: string;
  /** Inputs run first, every time, before the generated ones: the cases a subtle defect hides in. */
  examples?: T[];
  /** The input with fast-check's replayPath of a model-based counterexample (the commands that ran), to replay one from the failure store. */
  replayInput?: (commandsPath: string | undefined) => fc.Arbitrary<T>;
}

/** Runs that prove nothing, per run asked for, before the test is skipped (fast-check's maxSkipsPerRun). */
const MAX_SKIPS_PER_RUN = 5;

/** What a failed run left: where it stands in fast-check's order of inputs, its input and its failure. */
interface LaneFailure<T> {
  index: number;
  input: T;
  failure: FailedRun;
}

/**
 * Runs a generated test with fast-check in the current Playwright test. The runs go out side by side, up to
 * the worker's concurrency (config/network.ts), on the inputs fast-check would run one after another for the
 * seed, in its order: the first failure in that order is the one shrunk and reported, whatever finished
 * first, so the same seed gives the same verdict at any concurrency. Shrinking runs one candidate at a time.
 * On a failure, stops the test with the requirement's finding, the shrunk counterexample as the list of
 * requests, and how to replay it (OMS_SEED, OMS_PATH), and keeps the counterexample in the failure store
 * (harness/failure-store.ts), whose entries for the test run before any new input of every later run.
 */
export async function forAll<T>(settings: Settings, generated: GeneratedTest<T>): Promise<void> {
  const profile = EFFORT[settings.effort];
  const replay = readReplay(settings);
  const seed = replay.seed;
  const info = testRunningNow();
  const lanes = concurrencyOf(settings);
  // Past the backstop no run starts; the runs in flight then end within a request's deadline or two (a retry).
  info.setTimeout(profile.backstopMs + 2 * settings.requestTimeoutMs + 60_000);
  info.annotations.push({ type: 'seed', description: `OMS_SEED=${seed} (effort ${settings.effort})` });
  const numRuns = generated.numRuns ?? Math.max(1, Math.round(profile.numRuns * (generated.runsFactor ?? 1)));
  const examples = (generated.examples ?? []).map((example): [T] => [example]);
  const property = (predicate: (input: T) => Promise<boolean>, input = generated.input) => fc.asyncProperty(input, predicate);
  const store = FailureStore.of(settings);
  const runner = new Runner(generated, profile, store && { store, test: testIdentity(info) });

  if (replay.path !== undefined) {
    // One counterexample, replayed exactly as fast-check walks its path.
    const details = (await fc.check(property((input) => runner.predicate(input)), { seed, path: replay.path, endOnFailure: true, numRuns, examples })) as fc.RunDetails<[T]>;
    runner.rethrowStop();
    if (!details.failed || details.counterexample === null) return;
    return runner.report(details, seed);
  }

  /** A stored counterexample run again: its input as it is, or else fast-check's seed and path; undefined when it passes. */
  const replayStored = async (entry: StoredEntry): Promise<fc.RunDetails<[T]> | undefined> => {
    if (entry.input !== undefined) {
      const result = await runner.once(entry.input as T);
      return result instanceof FailedRun ? unshrunk(entry.input as T, entry.path, 1, result) : undefined;
    }
    const [path, commandsPath] = entry.path.split('@');
    const input = generated.replayInput?.(commandsPath) ?? generated.input;
    const details = (await fc.check(property((value) => runner.predicate(value), input), { seed: entry.seed, path, endOnFailure: true, numRuns, examples })) as fc.RunDetails<[T]>;
    return details.failed && details.counterexample !== null ? details : undefined;
  };

  let stored = 0;
  /** What the test ran, for the report: its runs, requests and the stored counterexamples it replayed first. */
  const ran = (runs: { made: number; failed?: true }) =>
    recordGeneratedRuns({ unit: generated.unit ?? 'generated runs', planned: numRuns, requests: runner.budget.requests, ...runs, ...(stored > 0 && { stored }) });

  // The counterexamples earlier runs found come first (Hypothesis' example database): a failure found once is never lost to a new draw.
  for (const entry of store?.entriesOf(testIdentity(info)) ?? []) {
    stored++;
    const details = await replayStored(entry);
    runner.rethrowStop();
    if (!details) continue;
    const cause = details.errorInstance instanceof FailedRun ? details.errorInstance.cause : undefined;
    if (cause instanceof Violation) recordViolated([cause.finding.requirementId]);
    ran({ made: 0, failed: true });
    return runner.report(details, entry.seed, `replayed from the failure store (${entry.file}), as an earlier run found it`, entry.file);
  }

  // The inputs fast-check would try, in its order (examples first), with spares for runs that prove nothing.
  const inputs = new Inputs(generated.input, { seed, examples, first: numRuns, most: numRuns * (1 + MAX_SKIPS_PER_RUN) + examples.length });
  const outcome = await runner.inLanes(inputs, numRuns, lanes);
  runner.rethrowStop();
  if (outcome.failed) {
    const first = outcome.failed;
    const alreadyKnown = first.failure.cause instanceof Violation && knownViolated(first.failure.cause.finding.requirementId);
    if (first.failure.cause instanceof Violation) recordViolated([first.failure.cause.finding.requirementId]);
    runner.budget.shrinking(alreadyKnown);
    // Shrinking starts from the failed input, found again by its place in fast-check's order.
    const details = alreadyKnown
      ? undefined
      : ((await fc.check(property((input) => runner.predicate(input)), { seed, path: String(first.index), numRuns: first.index + 1, examples })) as fc.RunDetails<[T]>);
    runner.rethrowStop();
    ran({ made: outcome.made, failed: true });
    if (details?.failed && details.counterexample !== null) return runner.report(details, seed);
    // Not shrunk (already known failed), or the failure did not come again on a second try: the first one, as it was.
    return runner.report(
      unshrunk(first.input, String(first.index), first.index + 1, first.failure),
      seed,
      details ? 'it did not fail again when run a second time, to shrink it' : undefined,
    );
  }
  ran({ made: outcome.made });
  if (outcome.sparesRanOut && outcome.made < numRuns * profile.floor) {
    // Too many runs proved nothing: an unmet precondition, never a pass or a fail.
    skipTest({ kind: 'precondition', reason: `${outcome.skipped} of the generated runs proved nothing (seed ${seed}): ${generated.inconclusive ?? 'fc.pre failed'}` }, info);
    return;
  }
  if (outcome.made < numRuns) {
    recordCut({
      unit: generated.unit ?? 'generated runs',
      made: outcome.made,
      planned: numRuns,
      requests: runner.budget.requests,
      cause: outcome.cutBy ?? 'server',
      reason: outcome.cutReason ?? `${outcome.skipped} runs proved nothing and no spare input was left`,
      belowFloor: outcome.made < numRuns * profile.floor,
    });
  }
}

/** A failed run reported as it was, not shrunk: in the shape of fast-check's details of a failure. */
function unshrunk<T>(input: T, path: string, numRuns: number, failure: FailedRun): fc.RunDetails<[T]> {
  return { failed: true, counterexample: [input], counterexamplePath: path, numShrinks: 0, numRuns, errorInstance: failure } as unknown as fc.RunDetails<[T]>;
}

/** A test as the failure store names it: its file and titles, which stay when lines move. */
function testIdentity(info: TestRecord): string {
  return info.titlePath.join(' › ');
}

/** Requests of one worker in flight at once (config/network.ts): also how many generated runs go out together. */
function concurrencyOf(settings: Settings): number {
  return settings.concurrency ?? defaultConcurrency(settings.roundTripMs);
}

/**
 * The inputs fast-check generates for a seed, in the order it would run them (examples first); nothing is
 * sent. Made in batches as runs ask for them (spares only when runs prove nothing), and each is let go once
 * taken: a thorough run holds the inputs of its runs in flight, not six times its plan.
 */
class Inputs<T> {
  private readonly values: Array<T | undefined> = [];
  private made = 0;

  constructor(
    private readonly arbitrary: fc.Arbitrary<T>,
    private readonly options: { seed: number; examples: Array<[T]>; first: number; most: number },
  ) {}

  /** The input at `index`, or undefined past the most there may be. */
  take(index: number): T | undefined {
    if (index >= this.options.most) return undefined;
    if (index >= this.made) this.makeUpTo(Math.min(this.options.most, Math.max(index + 1, this.made ? 2 * this.made : this.options.first)));
    const value = this.values[index];
    this.values[index] = undefined;
    return value;
  }

  /** fast-check's first `count` inputs, from the start again (the same seed gives the same ones); those not made before are kept. */
  private makeUpTo(count: number): void {
    let index = 0;
    // A synchronous property that only keeps what it is given: fast-check hands each run a clone of values that need one (commands).
    fc.check(
      fc.property(this.arbitrary, (input) => {
        if (index >= this.made) this.values[index] = input;
        index++;
        return true;
      }),
      { seed: this.options.seed, examples: this.options.examples, numRuns: count },
    );
    this.made = count;
  }
}

interface LanesOutcome<T> {
  /** Runs that proved something (passed or failed). */
  made: number;
  skipped: number;
  /** The failed run first in fast-check's order, if any run failed. */
  failed?: LaneFailure<T>;
  cutBy?: 'budget' | 'server';
  cutReason?: string;
  sparesRanOut: boolean;
}

/** The runs of one generated test: its budget, a stop (a skip of the whole test) and the report of a failure. */
class Runner<T> {
  readonly budget: Budget;
  private stopped: unknown;
  private shrinkNote?: string;

  constructor(
    private readonly generated: GeneratedTest<T>,
    profile: EffortProfile,
    /** Where a counterexample found is kept, under the test's identity (harness/failure-store.ts); none when the store is off. */
    private readonly keeping?: { store: FailureStore; test: string },
  ) {
    this.budget = new Budget(profile);
  }

  /** One run as fast-check's predicate (replay and shrinking): true passes, a thrown FailedRun fails. */
  async predicate(input: T): Promise<boolean> {
    // After a skip (rate limit, read-only), no run sends anything more.
    if (this.stopped) return true;
    // A spent budget: the remaining shrink candidates pass without a request.
    this.shrinkNote ??= this.budget.spent();
    if (this.shrinkNote) return true;
    const result = await this.once(input);
    if (result === 'passed' || result === 'stopped') return true;
    if (result === 'skipped') fc.pre(false);
    throw result;
  }

  /** Runs `planned` of the inputs, `lanes` at a time, taking the next input in order for a run that proved nothing. */
  async inLanes(inputs: Inputs<T>, planned: number, lanes: number): Promise<LanesOutcome<T>> {
    const outcome: LanesOutcome<T> = { made: 0, skipped: 0, sparesRanOut: false };
    let next = 0;
    let started = 0;
    const lane = async (): Promise<void> => {
      // A run starts only while fewer than `planned` have started or proved nothing, no run failed and the budget lasts.
      while (!outcome.failed && !this.stopped && started < planned + outcome.skipped) {
        const spent = this.budget.spent();
        if (spent) {
          outcome.cutBy = this.budget.pastBackstop() ? 'server' : 'budget';
          outcome.cutReason = spent;
          return;
        }
        const index = next;
        const input = inputs.take(index);
        if (input === undefined) {
          outcome.sparesRanOut = true;
          return;
        }
        next++;
        started++;
        const result = await this.once(input);
        if (result === 'skipped') outcome.skipped++;
        else if (result === 'stopped') return;
        else {
          outcome.made++;
          // The first in fast-check's order wins, not the first to finish: the verdict does not depend on timing.
          // Read again: another lane may have set it since the loop's condition (which narrowed it to undefined).
          const earlier = outcome.failed as LaneFailure<T> | undefined;
          if (result !== 'passed' && (!earlier || index < earlier.index)) outcome.failed = { index, input, failure: result };
        }
      }
    };
    // Runs start in order, so when one fails every run before it has started; all are waited for, and the
    // first failure in order is the one a run one at a time would have met.
    await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, planned)) }, lane));
    return outcome;
  }

  /** One run: passed, proved nothing (fc.pre), stopped (the test is being skipped), or the failed run. */
  async once(input: T): Promise<'passed' | 'skipped' | 'stopped' | FailedRun> {
    // Shrinking reruns a failure already found and judged: a list is not given time to settle on every candidate.
    const trail = new Trail(this.budget.isShrinking ? 0 : undefined);
    try {
      stopOn(await this.generated.run(input, trail));
      return 'passed';
    } catch (error) {
      // fc.pre(false): the run proves nothing (an allowed refusal, a view changed by another client).
      if (fc.PreconditionFailure.isFailure(error)) return 'skipped';
      if (testRunningNow().expectedStatus === 'skipped') {
        this.stopped ??= error;
        return 'stopped';
      }
      return new FailedRun(error, trail.exchanges);
    } finally {
      this.budget.requests += trail.exchanges.length;
    }
  }

  /** The skip a run asked for (rate limit, read-only), thrown on once every run has ended. */
  rethrowStop(): void {
    if (this.stopped) throw this.stopped;
  }

  /** Stops the test with the failure's finding and counterexample, kept in the failure store unless it came from there (`fromStore`: its file). */
  report(details: fc.RunDetails<[T]>, seed: number, note?: string, fromStore?: string): never {
    const failure = details.errorInstance;
    const requests = failure instanceof FailedRun ? failure.requests : [];
    const cause = failure instanceof FailedRun ? failure.cause : failure;
    const parts: ReportParts = {
      seed,
      path: details.counterexamplePath as string,
      input: (details.counterexample as [T])[0],
      numShrinks: details.numShrinks,
      numRuns: details.numRuns,
      requests,
      note: this.generated.requestsNote,
      shrinkNote: note ?? this.budget.shrinkNote(),
    };
    const report = counterexampleReport(parts);
    if (cause instanceof Violation) {
      const { finding } = cause;
      const replay = replayOf(parts);
      const kept = fromStore ?? this.keeping?.store.keep({ test: this.keeping.test, requirement: finding.requirementId, input: parts.input, seed, path: replay.path });
      // The responses were judged in the runs; this judgement only carries the shrunk counterexample to the report.
      ensure({
        requirementId: finding.requirementId,
        on: [],
        finding: {
          requirementId: finding.requirementId,
          expected: finding.expected,
          received: finding.received,
          exchange: finding.exchange,
          counterexample: report,
          replay,
          ...(kept && { store: { file: kept, replayed: fromStore !== undefined } }),
        },
      });
    }
    throw new Error(`${cause instanceof Error ? cause.message : String(cause)}\n\n${report}`);
  }
}

/**
 * What a generated test may still send: first on generated runs, then, from the first failure on, on
 * shrinking it. A spent budget ends the test with what it has (a pass so far, or the smallest
 * counterexample found): no run starts past it.
 */
class Budget {
  requests = 0;
  private shrinkFrom?: { requests: number; allowance: number };
  private readonly backstop: number;

  constructor(private readonly profile: EffortProfile) {
    this.backstop = Date.now() + profile.backstopMs;
  }

  get isShrinking(): boolean {
    return this.shrinkFrom !== undefined;
  }

  /** Shrinking starts: with the profile's allowance, or none when the requirement is already known failed. */
  shrinking(alreadyKnown: boolean): void {
    this.shrinkFrom ??= { requests: this.requests, allowance: alreadyKnown ? 0 : this.profile.shrink.maxRequests };
  }

  /** Whether the test's time ran out before its requests: the server's slowness, not the effort, cut it. */
  pastBackstop(): boolean {
    return Date.now() >= this.backstop;
  }

  /** Why no further run may start, or undefined while the budget lasts. */
  spent(): string | undefined {
    if (this.pastBackstop()) return `the backstop of ${this.profile.backstopMs / 60_000} min reached: the server answers too slowly for the budgets`;
    const from = this.shrinkFrom;
    if (from) {
      if (from.allowance === 0) return 'not shrunk: another test of this run already failed the requirement';
      if (this.requests - from.requests >= from.allowance) return `shrinking stopped at its budget of ${from.allowance} requests`;
      return undefined;
    }
    if (this.requests >= this.profile.maxRequests) return `budget of ${this.profile.maxRequests} requests reached`;
    return undefined;
  }

  /** Why shrinking stopped before it was done, if it did. */
  shrinkNote(): string | undefined {
    return this.shrinkFrom ? this.spent() : undefined;
  }
}

interface ReportParts {
  seed: number;
  path: string;
  input: unknown;
  numShrinks: number;
  numRuns: number;
  requests: Exchange[];
  note?: string;
  /** Why shrinking stopped before it was done, if it did. */
  shrinkNote?: string;
}

/** OMS_SEED, OMS_PATH (with the commands that ran, for a model-based test) and the test's file:line. */
function replayOf(parts: ReportParts): FindingReplay {
  const info = testRunningNow();
  // fast-check prints a model-based run's commands with the replayPath of those that ran.
  const commandsPath = isCommands(parts.input) ? /replayPath="([^"]+)"/.exec(String(parts.input))?.[1] : undefined;
  const target = { seed: parts.seed, path: commandsPath ? `${parts.path}@${commandsPath}` : parts.path, location: `${relative(PACKAGE_ROOT, info.file)}:${info.line}` };
  return { ...target, command: replayCommand(target) };
}

/** The counterexample as the requests it made, the generated input, and the replay line. */
export function counterexampleReport(parts: ReportParts): string {
  const { path, command } = replayOf(parts);
  const requests = parts.requests.map((exchange, index) => {
    // Which account sent it, where it was not account A: the redacted token names it ($OMS_TOKEN_B).
    const token = /\$OMS_[A-Z_]+/.exec(exchange.request.headers.Authorization ?? '')?.[0];
    const as = token && token !== '$OMS_TOKEN' ? ` (with ${token})` : '';
    const body = exchange.request.body === undefined ? '' : ` ${clip(exchange.request.body, 1500)}`;
    return `  ${index + 1}. ${exchange.request.method} ${exchange.request.path}${as}${body}\n     → ${exchange.status}`;
  });
  return [
    `Counterexample (shrunk ${parts.numShrinks} times from the failure of run ${parts.numRuns}${parts.shrinkNote ? `; ${parts.shrinkNote}` : ''}), as the requests it made:`,
    ...(requests.length ? requests : ['  (no request completed)']),
    ...(parts.note ? [`  (${parts.note})`] : []),
    `Generated input: ${clip(describeInput(parts.input), 3000)}`,
    `Seed ${parts.seed}, path ${path}. Replay this counterexample: ${command}`,
    `(The seed alone re-runs the whole generation and shrinking.)`,
  ].join('\n');
}

/** A model-based test's commands one per line (those that ran); any other input as fast-check prints it. */
function describeInput(input: unknown): string {
  if (!isCommands(input)) return fc.stringify(input);
  const ran = [...(input as Iterable<{ hasRan?: boolean }>)].filter((command) => command.hasRan !== false);
  return ['commands:', ...ran.map((command, index) => `  ${index + 1}. ${String(command)}`)].join('\n');
}

/** fast-check's commands of a model-based run (iterable, not an array); fc.record values may have no prototype to print. */
function isCommands(input: unknown): input is Iterable<unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) && Symbol.iterator in input;
}
