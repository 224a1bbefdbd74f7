import { relative } from 'node:path';
import { test } from '@playwright/test';
import fc from 'fast-check';
import type { OmsApi } from './api';
import { clip, type Exchange } from './http/exchange';
import { ensure, type Finding, type Replay as FindingReplay } from './findings';
import { knownViolated, recordViolated } from './run-knowledge';
import { skipTest } from './skips';
import type { Settings } from '../config/settings';

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
  /** What the generated runs of one test may take, in time and in requests, before any failure. */
  timeLimitMs: number;
  maxRequests: number;
  /** What shrinking one failure may take; a requirement another test already failed is not shrunk at all. */
  shrink: { timeLimitMs: number; maxRequests: number };
}

/** quick gates CI against the embedded server in seconds; thorough is for certification. */
export const EFFORT: Record<Settings['effort'], EffortProfile> = {
  quick: { numRuns: 8, sequences: 5, maxCommands: 10, timeLimitMs: 30_000, maxRequests: 1_500, shrink: { timeLimitMs: 1_000, maxRequests: 100 } },
  thorough: {
    numRuns: 200,
    sequences: 60,
    maxCommands: 30,
    timeLimitMs: 10 * 60_000,
    maxRequests: 50_000,
    shrink: { timeLimitMs: 60_000, maxRequests: 5_000 },
  },
};

export interface Replay {
  seed?: number;
  /** fast-check's counterexample path: with the seed, runs that counterexample only. */
  path?: string;
  /** For model-based tests: which generated commands actually ran (fast-check's replayPath). */
  commandsPath?: string;
}

/** OMS_PATH, as a failure prints it: "<path>" or, for a model-based test, "<path>@<replayPath>". */
export function readReplay(settings: Settings): Replay {
  const raw = settings.replayPath;
  if (!raw) return { seed: settings.seed };
  const [path, commandsPath] = raw.split('@');
  if (!/^\d+(:\d+)*$/.test(path)) throw new Error(`OMS_PATH must look like 3:0:1 (as a failure prints it), got ${JSON.stringify(raw)}`);
  if (settings.seed === undefined) throw new Error('OMS_PATH replays a counterexample of one seed: set OMS_SEED too');
  return { seed: settings.seed, path, commandsPath };
}

/** The requests of one run, in order, for the counterexample. */
export class Trail {
  readonly exchanges: Exchange[] = [];

  /** The same api, every exchange it makes recorded here. */
  api(api: OmsApi): OmsApi {
    return api.recording((exchange) => this.exchanges.push(exchange));
  }
}

/** A broken requirement inside a run: fast-check shrinks the input while it keeps happening. */
export class Violation extends Error {
  constructor(readonly finding: Finding) {
    super(`[${finding.requirementId}] ${finding.expected}; received ${finding.received.split('\n')[0]}`);
  }
}

/** Ends the run when a check found a violation. */
export function stopOn(finding: Finding | undefined): void {
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
  /** One run: requests through trail.api(…); a broken requirement is returned, or thrown with stopOn. */
  run(input: T, trail: Trail): Promise<Finding | undefined>;
  /** Runs relative to the profile's numRuns (cheap properties take more). */
  runsFactor?: number;
  /** How many runs, instead of the profile's numRuns (model-based tests: EFFORT[…].sequences). */
  numRuns?: number;
  /** Why a run may prove nothing (it calls fc.pre(false)); the test is skipped with it when most runs do. */
  inconclusive?: string;
  /** A line printed under the counterexample's requests, where their pattern needs a word. */
  requestsNote?: string;
  /** Inputs run first, every time, before the generated ones: the cases a subtle defect hides in. */
  examples?: T[];
}

/** Runs that prove nothing, per run asked for, before the test is skipped. */
const MAX_SKIPS_PER_RUN = 5;

/**
 * What a generated test may still spend, in requests and time: first on generated runs, then, from the
 * first failure on, on shrinking it. A spent budget ends the test with what it has (a pass so far, or the
 * smallest counterexample found): fast-check cannot stop a run in flight, so no run starts past the budget.
 */
class Budget {
  requests = 0;
  private shrinkFrom?: { at: number; requests: number; allowance: EffortProfile['shrink'] };
  private readonly started = Date.now();

  constructor(private readonly profile: EffortProfile) {}

  /** Shrinking starts: with the profile's allowance, or none when the requirement is already known failed. */
  shrinking(alreadyKnown: boolean): void {
    this.shrinkFrom ??= { at: Date.now(), requests: this.requests, allowance: alreadyKnown ? { timeLimitMs: 0, maxRequests: 0 } : this.profile.shrink };
  }

  get isShrinking(): boolean {
    return this.shrinkFrom !== undefined;
  }

  /** Why no further run may start, or undefined while the budget lasts. */
  spent(): string | undefined {
    const from = this.shrinkFrom;
    if (from) {
      if (from.allowance.maxRequests === 0) return 'not shrunk: another test of this run already failed the requirement';
      if (this.requests - from.requests >= from.allowance.maxRequests) return `shrinking stopped at its budget of ${from.allowance.maxRequests} requests`;
      if (Date.now() - from.at >= from.allowance.timeLimitMs) return `shrinking stopped at its budget of ${from.allowance.timeLimitMs / 1000} s`;
      return undefined;
    }
    if (this.requests >= this.profile.maxRequests) return `budget of ${this.profile.maxRequests} requests reached`;
    if (Date.now() - this.started >= this.profile.timeLimitMs) return `time limit of ${this.profile.timeLimitMs / 1000} s reached`;
    return undefined;
  }
}

/**
 * Runs a generated test with fast-check in the current Playwright test. On a failure, stops the test
 * with the requirement's finding, the shrunk counterexample as the list of requests, and how to replay it.
 */
export async function forAll<T>(settings: Settings, generated: GeneratedTest<T>): Promise<void> {
  const profile = EFFORT[settings.effort];
  const replay = readReplay(settings);
  const seed = replay.seed ?? Math.floor(Math.random() * 0x7fffffff);
  const info = test.info();
  info.setTimeout(profile.timeLimitMs + profile.shrink.timeLimitMs + 60_000);
  info.annotations.push({ type: 'seed', description: `OMS_SEED=${seed} (effort ${settings.effort})` });

  const budget = new Budget(profile);
  let stopped: unknown;
  let budgetNote: string | undefined;
  const predicate = async (input: T): Promise<boolean> => {
    // After a skip (rate limit, read-only), no run sends anything more.
    if (stopped) return true;
    // A spent budget: the remaining runs and shrink candidates pass without a request.
    budgetNote ??= budget.spent();
    if (budgetNote) return true;
    const trail = new Trail();
    try {
      const finding = await generated.run(input, trail);
      if (finding) throw new Violation(finding);
      return true;
    } catch (error) {
      // fc.pre(false): the run proves nothing (an allowed refusal, a view changed by another client).
      if (fc.PreconditionFailure.isFailure(error)) throw error;
      if (info.expectedStatus === 'skipped') {
        stopped = error;
        return true;
      }
      if (!budget.isShrinking) {
        const requirementId = error instanceof Violation ? error.finding.requirementId : undefined;
        budget.shrinking(requirementId !== undefined && knownViolated(requirementId));
        if (requirementId) recordViolated([requirementId]);
      }
      throw new FailedRun(error, trail.exchanges);
    } finally {
      budget.requests += trail.exchanges.length;
    }
  };

  const numRuns = generated.numRuns ?? Math.max(1, Math.round(profile.numRuns * (generated.runsFactor ?? 1)));
  const details = (await fc.check(fc.asyncProperty(generated.input, predicate), {
    seed,
    path: replay.path,
    endOnFailure: replay.path !== undefined,
    numRuns,
    maxSkipsPerRun: MAX_SKIPS_PER_RUN,
    // Also when a path is replayed: fast-check counts the examples in the path it reports.
    examples: (generated.examples ?? []).map((example): [T] => [example]),
  })) as fc.RunDetails<[T]>;
  if (stopped) throw stopped;
  if (budgetNote) info.annotations.push({ type: 'generated', description: `${budgetNote} (${budget.requests} requests)` });
  if (!details.failed) return;
  if (details.counterexample === null) {
    // Too many runs proved nothing: an unmet precondition, never a pass or a fail.
    skipTest({ kind: 'precondition', reason: `${details.numSkips} of the generated runs proved nothing (seed ${seed}): ${generated.inconclusive ?? 'fc.pre failed'}` }, info);
  }

  const failure = details.errorInstance;
  const requests = failure instanceof FailedRun ? failure.requests : [];
  const cause = failure instanceof FailedRun ? failure.cause : failure;
  const parts: ReportParts = {
    seed,
    path: details.counterexamplePath,
    input: details.counterexample[0],
    numShrinks: details.numShrinks,
    numRuns: details.numRuns,
    requests,
    note: generated.requestsNote,
    shrinkNote: budget.isShrinking ? budgetNote : undefined,
  };
  const report = counterexampleReport(parts);
  if (cause instanceof Violation) {
    const { finding } = cause;
    ensure({
      requirementId: finding.requirementId,
      expected: finding.expected,
      received: finding.received,
      exchange: finding.exchange,
      counterexample: report,
      replay: replayOf(parts),
    });
  }
  throw new Error(`${cause instanceof Error ? cause.message : String(cause)}\n\n${report}`);
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
  const info = test.info();
  // fast-check prints a model-based run's commands with the replayPath of those that ran.
  const commandsPath = isCommands(parts.input) ? /replayPath="([^"]+)"/.exec(String(parts.input))?.[1] : undefined;
  return { seed: parts.seed, path: commandsPath ? `${parts.path}@${commandsPath}` : parts.path, location: `${relative(process.cwd(), info.file)}:${info.line}` };
}

/** The counterexample as the requests it made, the generated input, and the replay line. */
export function counterexampleReport(parts: ReportParts): string {
  const { path, location: where } = replayOf(parts);
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
    `Seed ${parts.seed}, path ${path}. Replay this counterexample: OMS_SEED=${parts.seed} OMS_PATH='${path}' npx playwright test ${where}`,
    `(OMS_SEED=${parts.seed} alone re-runs the whole generation and shrinking.)`,
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
