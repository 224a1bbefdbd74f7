import { EXIT_CODE, VERDICT_EXIT_CODE } from '../config/exit-codes';
import type { Cut, GeneratedRuns } from '../harness/record/cuts';
import type { Skip, SkipKind } from '../harness/record/skips';
import { gatingLevels, LEVELS, type Level } from '../requirements/catalogue';
import type { Evidence } from './evidence';
import type { Expectations, ExpiredExpectation } from './expectations';
import type { SuiteIdentity } from './run-info';
import type { RunInfo } from '../config/run-info';

/** The files of a report directory; report.json lists the SHA-256 of every other one. */
export const REPORT_FILES = {
  json: 'report.json',
  markdown: 'report.md',
  html: 'index.html',
  badge: 'badge.svg',
  junit: 'junit.xml',
  /** Only with --har (OMS_HAR): the exchanges of the failures, as HAR 1.2. */
  har: 'failures.har',
} as const;

export const REPORT_SCHEMA_VERSION = 3;

export type RequirementStatus = 'passed' | 'failed' | 'skipped' | 'observed' | 'not-reached' | 'not-testable';
export const STATUSES: readonly RequirementStatus[] = ['passed', 'failed', 'skipped', 'observed', 'not-reached', 'not-testable'];

/** A requirement listed in the expectations file, and what became of it in this run. */
export interface KnownFailure {
  reason: string;
  /** still-failing: as expected; now-passing: fixed, drop it from the file; not-checked: no test ran it. */
  outcome: 'still-failing' | 'now-passing' | 'not-checked';
}

export interface RequirementResult {
  id: string;
  section: string;
  level: Level;
  statement: string;
  status: RequirementStatus;
  /** Titles of the tests that checked it. */
  tests: string[];
  /** Why it was skipped (every distinct reason), or why it cannot be tested. */
  skipReasons: string[];
  /** The same skips with their cause (harness/record/skips.ts): what the verdict weighs, never the wording. */
  skips: Skip[];
  /** Values seen, for OBSERVED requirements. */
  observed: string[];
  /** The failures kept (the first ten), each as plain text. */
  evidence: string[];
  /** The same failures as data: expected, received, request, response, curl line, counterexample, replay. */
  findings: Evidence[];
  /** How many violations were seen in all, kept or not. */
  occurrences: number;
  /** The operations and response kinds a test judged it on ("createOrder/2xx"), sorted. */
  checkedOn: string[];
  /** Whether a failure of this requirement fails the run in the report's profile. */
  gating: boolean;
  /** Present when the expectations file lists it. */
  knownFailure?: KnownFailure;
}

export interface Signature {
  algorithm: 'ed25519';
  /** SHA-256 (hex) of the public key (DER, SPKI) that checks it. */
  publicKeySha256: string;
  /** Base64 signature over the canonical JSON of report.json without this signature field. */
  value: string;
}

export interface Integrity {
  algorithm: 'sha256';
  /** SHA-256 (hex) of every other file of the report, by file name. */
  files: Record<string, string>;
  signature?: Signature;
}

/** A cut (harness/record/cuts.ts) as the report lists it: the test it cut short and the requirements that test verifies. */
export interface CutEntry extends Cut {
  test: string;
  requirements: string[];
}

/** What one generated test ran (harness/record/cuts.ts), listed for every generated test, cut or not. */
export interface GeneratedEntry extends GeneratedRuns {
  test: string;
  requirements: string[];
}

/**
 * Gating requirements the run did not judge, grouped by why. `cause` decides the verdict: server and
 * blocked make it inconclusive, interrupted makes it interrupted, the others leave it conformant but
 * incomplete (not a certification).
 */
export interface Gap {
  cause: 'selection' | 'not-reached' | SkipKind;
  /** One line: what was left undone, and why. */
  what: string;
  /** The gating requirements it left without a verdict (empty for a whole-run cause: a filter, a stop). */
  requirements: string[];
  /** What would complete it: the settings to give or change. */
  settings: string[];
  /** blocked: the requirements whose failures stopped the tests. */
  blockedBy?: string[];
}

/** The verdicts of a run (what each means: ConformanceReport.verdict); the exit code of each is in config/exit-codes.ts. */
export type Verdict = keyof typeof VERDICT_EXIT_CODE;

export interface ConformanceReport extends RunInfo {
  schemaVersion: number;
  suite: SuiteIdentity;
  /**
   * True when the run checked every gating requirement it could: no filter, shard or interruption, no
   * requirement of a gating level skipped or left unreached, no gating test cut below its floor. Only a
   * complete run certifies a server.
   */
  complete: boolean;
  /** Why the run is not complete, one line per gap; empty when it is. */
  incompleteReasons: string[];
  /** The same gaps as data: cause, requirements and the settings that would close them. */
  gaps: Gap[];
  /** Tests a budget, the server or an interruption cut short (harness/record/cuts.ts); each cut below its floor is a gap. */
  cuts: CutEntry[];
  /** Every generated test: the runs it made of the runs it planned, and the requests it sent. */
  generated: GeneratedEntry[];
  /** Requests the tests sent, retries included (the start-up's and the cleanup's aside). */
  requests: number;
  startedAt: string;
  finishedAt: string;
  /**
   * not-conformant: a requirement of a gating level failed (known failures included), or a test failed
   * naming none; interrupted: none failed in the tests that finished, but the run was stopped (Ctrl-C, a
   * global timeout): nothing is judged from a test it cut; inconclusive: none failed, but the server left a
   * gating requirement without evidence (no answer in time, a reset, a rate limit that outlasted the retries,
   * an account that never held still, a requirement blocked by another's failure, a run stopped because the
   * server went silent); conformant: none of these (`complete` says whether it certifies).
   */
  verdict: Verdict;
  /** The exit code of the run (config/exit-codes.ts): the gate below, and the verdict where the gate passes nothing. */
  exitCode: number;
  /** What the exit code follows: with an expectations file, known failures do not fail the run. */
  gate: {
    passed: boolean;
    expectationsFile: string | null;
    newFailures: string[];
    knownFailures: string[];
    fixed: string[];
    /** Expectations past their until day: each fails the run by itself. */
    expired: ExpiredExpectation[];
  };
  /** Share of the profile's gating requirements (those that can be tested) that passed. */
  score: { gating: number; passed: number; percent: number };
  counts: Record<Level, Record<RequirementStatus, number>>;
  /** Failed tests that name no requirement: they fail the run, since nothing says they may not. */
  unattributedFailures: string[];
  /** True when the run was interrupted or hit its global timeout: the result is incomplete. */
  interrupted: boolean;
  /** 429/503 answers waited out (Retry-After) and retried: never evidence, but worth knowing. */
  rateLimitRetries: number;
  /** The tests of the run by outcome (a test that found violations counts as failed). */
  tests: TestCounts;
  requirements: RequirementResult[];
  integrity?: Integrity;
}

export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
  /** Tests an interruption stopped before they finished: they judge nothing. */
  interrupted: number;
}

export interface Collected {
  tests: TestCounts;
  requirements: RequirementResult[];
  unattributedFailures: string[];
  rateLimitRetries: number;
  interrupted: boolean;
  cuts: CutEntry[];
  generated: GeneratedEntry[];
  requests: number;
  /** Why the run stopped early without being interrupted (a server that went silent). */
  stopReasons?: string[];
  startedAt: Date;
  finishedAt: Date;
}

/** Verdict, gate, exit code, gaps, counts and score, from what the reporter collected. */
export function buildReport(
  collected: Collected,
  suite: SuiteIdentity,
  run: RunInfo,
  expectations: { file: string; known: Expectations } | undefined,
): ConformanceReport {
  const gating = gatingLevels(run.profile);
  const requirements = collected.requirements.map((r) => {
    const reason = expectations?.known.get(r.id);
    const result: RequirementResult = { ...r, gating: gating.includes(r.level) };
    if (reason !== undefined) result.knownFailure = { reason, outcome: outcomeOf(r.status) };
    return result;
  });
  const violations = requirements.filter((r) => r.status === 'failed' && r.gating);
  const newFailures = violations.filter((r) => !r.knownFailure).map((r) => r.id);
  const gaps = gapsOf(run, collected, requirements);
  const expired = expectations?.known.expired ?? [];
  const scored = requirements.filter((r) => r.gating && r.status !== 'not-testable');
  const passed = scored.filter((r) => r.status === 'passed').length;
  const unattributed = collected.unattributedFailures.length > 0;
  // What the run established, worst first: a violation found stands even in a run cut short.
  const interrupted = collected.interrupted || gaps.some((gap) => gap.cause === 'interrupted');
  const verdictFrom = (failures: number, inconclusive: (gap: Gap) => boolean): Verdict =>
    failures > 0 || unattributed ? 'not-conformant' : interrupted ? 'interrupted' : gaps.some(inconclusive) ? 'inconclusive' : 'conformant';
  const verdict = verdictFrom(violations.length, leavesInconclusive);
  // The gate excuses the known failures of an expectations file, and what they block; expired entries fail it by themselves.
  const known = new Set(requirements.filter((r) => r.knownFailure).map((r) => r.id));
  const excused = (gap: Gap) => gap.cause === 'blocked' && (gap.blockedBy ?? []).every((id) => known.has(id));
  const gated = verdictFrom(newFailures.length, (gap) => leavesInconclusive(gap) && !excused(gap));
  const exitCode = gated === 'conformant' && expired.length ? EXIT_CODE.violations : VERDICT_EXIT_CODE[gated];
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    suite,
    runId: run.runId,
    target: run.target,
    profile: run.profile,
    effort: run.effort,
    seed: run.seed,
    seedFrom: run.seedFrom,
    readOnly: run.readOnly,
    grep: run.grep,
    shard: run.shard,
    mergedShards: run.mergedShards,
    complete: gaps.length === 0,
    incompleteReasons: gaps.map((gap) => gap.what),
    gaps,
    cuts: collected.cuts,
    generated: collected.generated,
    requests: collected.requests,
    startedAt: collected.startedAt.toISOString(),
    finishedAt: collected.finishedAt.toISOString(),
    verdict,
    exitCode,
    gate: {
      passed: exitCode === EXIT_CODE.conformant,
      expectationsFile: expectations?.file ?? null,
      newFailures,
      knownFailures: requirements.filter((r) => r.knownFailure?.outcome === 'still-failing').map((r) => r.id),
      fixed: requirements.filter((r) => r.knownFailure?.outcome === 'now-passing').map((r) => r.id),
      expired,
    },
    score: { gating: scored.length, passed, percent: scored.length ? Math.floor((passed * 100) / scored.length) : 100 },
    counts: countByLevel(requirements),
    unattributedFailures: collected.unattributedFailures,
    interrupted: collected.interrupted,
    rateLimitRetries: collected.rateLimitRetries,
    tests: collected.tests,
    requirements,
  };
}

/** A gap the server caused (or another requirement's failure did): nothing can be certified either way. */
export function leavesInconclusive(gap: Gap): boolean {
  return gap.cause === 'server' || gap.cause === 'blocked';
}

/** Which cause of a skipped requirement weighs most: a server-caused gap makes the run inconclusive whatever else kept it. */
const SKIP_WEIGHT: Record<SkipKind, number> = { interrupted: 5, server: 4, blocked: 3, precondition: 2, configuration: 1 };

/** What keeps a run from certifying: a narrowed selection, an interruption, a stop, gating requirements not judged, cuts below the floor. */
function gapsOf(run: RunInfo, collected: Collected, requirements: RequirementResult[]): Gap[] {
  const gaps: Gap[] = [];
  if (run.grep !== null) gaps.push({ cause: 'selection', what: `filtered run (${run.grep})`, requirements: [], settings: ['no filter'] });
  if (run.shard !== null) gaps.push({ cause: 'selection', what: `shard ${run.shard} of a sharded run`, requirements: [], settings: ['oms-conformance merge of every shard'] });
  if (collected.interrupted) gaps.push({ cause: 'interrupted', what: 'the run was interrupted: no requirement is judged from a test it cut short', requirements: [], settings: [] });
  for (const reason of collected.stopReasons ?? []) gaps.push({ cause: 'server', what: reason, requirements: [], settings: [] });
  const unjudged = requirements.filter((r) => r.gating && r.status === 'skipped');
  const byCause = new Map<SkipKind, RequirementResult[]>();
  for (const r of unjudged) {
    const cause = [...r.skips].sort((a, b) => SKIP_WEIGHT[b.kind] - SKIP_WEIGHT[a.kind])[0]?.kind ?? 'precondition';
    byCause.set(cause, [...(byCause.get(cause) ?? []), r]);
  }
  for (const [cause, skipped] of [...byCause].sort(([a], [b]) => SKIP_WEIGHT[b] - SKIP_WEIGHT[a])) {
    const skips = skipped.flatMap((r) => r.skips.filter((skip) => skip.kind === cause));
    const settings = [...new Set(skips.flatMap((skip) => skip.settings ?? []))];
    const blockedBy = [...new Set(skips.flatMap((skip) => skip.blockedBy ?? []))];
    const reasons = cause === 'blocked' ? [`the tests that check them stopped at the failure of ${blockedBy.join(', ')}`] : [...new Set(skips.map((skip) => skip.reason))];
    const ids = skipped.map((r) => r.id);
    const why = `${reasons.slice(0, 3).join('; ')}${reasons.length > 3 ? '; …' : ''}`;
    gaps.push({
      cause,
      what: `${skipped.length} gating requirement(s) ${SKIPPED_BECAUSE[cause]}: ${ids.join(', ')} (${why})${settings.length ? `; set ${settings.join(', ')} to complete it` : ''}`,
      requirements: ids,
      settings,
      ...(cause === 'blocked' && { blockedBy }),
    });
  }
  const unreached = requirements.filter((r) => r.gating && r.status === 'not-reached');
  if (unreached.length) gaps.push({ cause: 'not-reached', what: `${unreached.length} gating requirement(s) not reached by any test: ${unreached.map((r) => r.id).join(', ')}`, requirements: unreached.map((r) => r.id), settings: [] });
  for (const cut of collected.cuts.filter((c) => c.belowFloor)) {
    // A failure the cut test found stands; what it verified and another test passed is still short of the cut test's
    // coverage (a requirement it alone verified is skipped, and listed above with the cut's cause).
    const ids = cut.requirements.filter((id) => requirements.find((r) => r.id === id && r.gating && (r.status === 'passed' || r.status === 'observed')));
    if (!ids.length) continue;
    const { kind, reason, settings = [] } = skipOfCut(cut, run.effort);
    gaps.push({ cause: kind, what: `${cut.test} was ${reason}: ${ids.join(', ')} not checked by it${settings.length ? `; ${settings.join(', ')} would complete it` : ''}`, requirements: ids, settings });
  }
  return gaps;
}

/** What a cut below its floor leaves of the requirements its test verifies: not checked by it, for the cut's cause. */
export function skipOfCut(cut: Cut, effort: RunInfo['effort']): Skip {
  if (cut.cause === 'configuration') return { kind: 'configuration', reason: `held back at ${cut.made} of ${cut.planned} ${cut.unit} (${cut.reason})`, settings: cut.settings ?? [] };
  const reason = `cut short at ${cut.made} of ${cut.planned} ${cut.unit} (${cut.reason}), below the effort's floor`;
  if (cut.cause !== 'budget') return { kind: cut.cause, reason };
  // Only the effort's budget is a setting today: a thorough run's budget cut short has no larger one to offer.
  return { kind: 'configuration', reason, settings: effort === 'quick' ? ['OMS_EFFORT=thorough'] : [] };
}

const SKIPPED_BECAUSE: Record<SkipKind, string> = {
  server: 'left without evidence by the server',
  blocked: 'blocked: what would judge them was never sent',
  interrupted: 'cut short by the interruption',
  precondition: 'skipped: the server offered no way to check them',
  configuration: 'skipped because of the configuration',
};

function outcomeOf(status: RequirementStatus): KnownFailure['outcome'] {
  if (status === 'failed') return 'still-failing';
  if (status === 'passed' || status === 'observed') return 'now-passing';
  return 'not-checked';
}

function countByLevel(requirements: RequirementResult[]): ConformanceReport['counts'] {
  const counts = Object.fromEntries(
    LEVELS.map((level) => [level, Object.fromEntries(STATUSES.map((status) => [status, 0]))]),
  ) as ConformanceReport['counts'];
  for (const r of requirements) counts[r.level][r.status]++;
  return counts;
}

/** Requirements in document order: by section number, then id. */
export function bySection(requirements: RequirementResult[]): Array<[string, RequirementResult[]]> {
  const sections = new Map<string, RequirementResult[]>();
  for (const r of requirements) sections.set(r.section, [...(sections.get(r.section) ?? []), r]);
  return [...sections].sort(([a], [b]) => compareSections(a, b));
}

function compareSections(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const difference = (x[i] ?? -1) - (y[i] ?? -1);
    if (difference !== 0) return difference;
  }
  return 0;
}

export const VERDICT_WORDS: Record<Verdict, string> = {
  conformant: 'CONFORMANT',
  'not-conformant': 'NOT CONFORMANT',
  inconclusive: 'INCONCLUSIVE',
  interrupted: 'INTERRUPTED',
};
