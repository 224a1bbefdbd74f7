import { INCONCLUSIVE } from '../harness/http/silence';
import { gatingLevels, LEVELS, type Level } from '../requirements/catalogue';
import type { Evidence } from './evidence';
import type { Expectations, ExpiredExpectation } from './expectations';
import type { RunInfo, SuiteIdentity } from './run-info';

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

export const REPORT_SCHEMA_VERSION = 2;

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

export interface ConformanceReport extends RunInfo {
  schemaVersion: number;
  suite: SuiteIdentity;
  /**
   * True when the run checked every gating requirement it could: no filter, shard or interruption, and no
   * requirement of a gating level skipped or left unreached. Only a complete run certifies a server.
   */
  complete: boolean;
  /** Why the run is not complete, one reason each; empty when it is. */
  incompleteReasons: string[];
  startedAt: string;
  finishedAt: string;
  /**
   * conformant: no requirement of a gating level failed (known failures included); not-conformant: one
   * did, or a test failed naming none; inconclusive: none failed, but the server left a gating requirement
   * without evidence (no answer in time, a reset connection, a rate limit that outlasted the retries, a
   * run stopped because the server went silent), so nothing can be certified either way.
   */
  verdict: 'conformant' | 'not-conformant' | 'inconclusive';
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
  /** True when the run was interrupted or timed out: the result is incomplete. */
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
}

export interface Collected {
  tests: TestCounts;
  requirements: RequirementResult[];
  unattributedFailures: string[];
  rateLimitRetries: number;
  interrupted: boolean;
  /** Why the run stopped early without being interrupted (a server that went silent). */
  stopReasons?: string[];
  startedAt: Date;
  finishedAt: Date;
}

/** Verdict, gate, counts and score, from what the reporter collected. */
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
  // A gating requirement the server left without evidence (no answer, reset, rate limit): nothing can be certified.
  const unanswered = requirements.filter((r) => r.gating && r.status === 'skipped' && r.skipReasons.some((reason) => reason.startsWith(INCONCLUSIVE)));
  const stopped = (collected.stopReasons ?? []).length > 0 || unanswered.length > 0;
  const clean = collected.unattributedFailures.length === 0 && !collected.interrupted && !stopped;
  const expired = expectations?.known.expired ?? [];
  const scored = requirements.filter((r) => r.gating && r.status !== 'not-testable');
  const passed = scored.filter((r) => r.status === 'passed').length;
  const incompleteReasons = whyIncomplete(run, collected, requirements);
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    suite,
    runId: run.runId,
    target: run.target,
    profile: run.profile,
    effort: run.effort,
    seed: run.seed,
    readOnly: run.readOnly,
    grep: run.grep,
    shard: run.shard,
    mergedShards: run.mergedShards,
    complete: incompleteReasons.length === 0,
    incompleteReasons,
    startedAt: collected.startedAt.toISOString(),
    finishedAt: collected.finishedAt.toISOString(),
    verdict: violations.length > 0 || collected.unattributedFailures.length > 0 ? 'not-conformant' : stopped ? 'inconclusive' : clean ? 'conformant' : 'not-conformant',
    gate: {
      passed: newFailures.length === 0 && clean && expired.length === 0,
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

/** What keeps a run from certifying: a narrowed selection, an interruption, gating requirements not checked. */
function whyIncomplete(run: RunInfo, collected: Collected, requirements: RequirementResult[]): string[] {
  const reasons: string[] = [];
  if (run.grep !== null) reasons.push(`filtered run (${run.grep})`);
  if (run.shard !== null) reasons.push(`shard ${run.shard} of a sharded run`);
  if (collected.interrupted) reasons.push('the run was interrupted');
  reasons.push(...(collected.stopReasons ?? []));
  for (const status of ['skipped', 'not-reached'] as const) {
    const unchecked = requirements.filter((r) => r.gating && r.status === status);
    if (unchecked.length) {
      const what = status === 'skipped' ? 'skipped' : 'not reached by any test';
      reasons.push(`${unchecked.length} gating requirement(s) ${what}: ${unchecked.map((r) => r.id).join(', ')}`);
    }
  }
  return reasons;
}

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

/** One line for the verdict, as the console, the Markdown and the HTML say it. */
export function verdictLine(report: ConformanceReport): string {
  const verdict = { conformant: 'CONFORMANT', 'not-conformant': 'NOT CONFORMANT', inconclusive: 'INCONCLUSIVE' }[report.verdict];
  const known = report.gate.knownFailures.length ? ` (${report.gate.knownFailures.length} known failure(s) from ${report.gate.expectationsFile})` : '';
  const partial = report.complete ? '' : ` (incomplete: ${report.incompleteReasons[0] ?? 'partial run'}${report.incompleteReasons.length > 1 ? `, and ${report.incompleteReasons.length - 1} more reason(s)` : ''}; not a certification)`;
  return `OMS conformance (${report.profile}): ${verdict}${known}${partial}${expiredNote(report)}`;
}

/** Expired expectations fail the run even when the verdict is conformant: the line names each one. */
function expiredNote(report: ConformanceReport): string {
  const expired = report.gate.expired ?? [];
  if (expired.length === 0) return '';
  const entries = expired.map((e) => `${e.id} (until ${e.until})`).join(', ');
  return `; expired in ${report.gate.expectationsFile}, renew or remove: ${entries}`;
}
