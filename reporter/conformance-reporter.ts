import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { catalogue, gatingLevels, requirement, type Level } from '../harness/requirements';
import { OBSERVATION_ANNOTATION, REQUIREMENT_ANNOTATION } from '../harness/verifies';

const VIOLATION = /^(?:Error: )?\[(ORD-[A-Z]+-\d{3})\]/;

interface Options {
  outputDir: string;
  profile: 'core' | 'strict';
}

export type RequirementStatus = 'passed' | 'failed' | 'skipped' | 'observed' | 'untested' | 'not-testable';

export interface RequirementResult {
  id: string;
  section: string;
  level: Level;
  statement: string;
  status: RequirementStatus;
  /** Titles of the tests that checked it. */
  tests: string[];
  /** Why it was skipped (every distinct reason). */
  skipReasons: string[];
  /** Values seen, for OBSERVED requirements. */
  observed: string[];
  /** Failure messages naming it (request, response excerpt, expectation, curl line). */
  evidence: string[];
}

/** Requirement ids a test verifies, from its verifies() annotations. */
export function verifiedRequirements(test: TestCase): string[] {
  return test.annotations.filter((a) => a.type === REQUIREMENT_ANNOTATION).map((a) => (a.description ?? '').split(' ')[0]);
}

/** Requirement ids a failed result violated: those named by its failures, else those it verifies. */
export function violatedRequirements(test: TestCase, result: TestResult): string[] {
  const named = result.errors
    .map((error) => VIOLATION.exec((error.message ?? '').trim())?.[1])
    .filter((id): id is string => Boolean(id));
  return named.length ? [...new Set(named)] : verifiedRequirements(test);
}

/**
 * Collects a result per requirement and decides the verdict by the profile: a failure gates the
 * run only when a requirement it violated is of a gating level (core: MUST; strict: MUST and SHOULD).
 */
export default class ConformanceReporter implements Reporter {
  private readonly gating: Level[];
  private readonly results = new Map<string, RequirementResult>();
  private readonly unattributed: string[] = [];
  private readonly startedAt = new Date();

  constructor(private readonly options: Options) {
    this.gating = gatingLevels(options.profile);
    for (const r of catalogue().values()) {
      this.results.set(r.id, {
        id: r.id,
        section: r.section,
        level: r.level,
        statement: r.statement,
        status: r.not_tested ? 'not-testable' : 'untested',
        tests: [],
        skipReasons: r.not_tested ? [r.not_tested] : [],
        observed: [],
        evidence: [],
      });
    }
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const title = test.titlePath().slice(1).filter(Boolean).join(' › ');
    const verified = verifiedRequirements(test);
    if (result.status === 'skipped') {
      const reason = result.annotations.find((a) => a.type === 'skip')?.description ?? test.annotations.find((a) => a.type === 'skip')?.description ?? 'skipped';
      for (const id of verified) this.mark(id, 'skipped', title, (r) => r.skipReasons.includes(reason) || r.skipReasons.push(reason));
      return;
    }
    for (const annotation of result.annotations.filter((a) => a.type === OBSERVATION_ANNOTATION)) {
      const [id, ...value] = (annotation.description ?? '').split(': ');
      this.mark(id, 'observed', title, (r) => r.observed.includes(value.join(': ')) || r.observed.push(value.join(': ')));
    }
    const failed = result.status === 'failed' || result.status === 'timedOut' || result.status === 'interrupted';
    const violated = failed ? violatedRequirements(test, result) : [];
    if (failed && violated.length === 0) this.unattributed.push(title);
    for (const id of violated) {
      const messages = result.errors.map((e) => e.message ?? '').filter((m) => !VIOLATION.test(m.trim()) || VIOLATION.exec(m.trim())?.[1] === id);
      this.mark(id, 'failed', title, (r) => r.evidence.push(...messages.slice(0, 3)));
    }
    // An OBSERVED requirement is never passed or failed: its test records what was seen.
    for (const id of verified) if (!violated.includes(id)) this.mark(id, requirement(id).level === 'OBSERVED' ? 'observed' : 'passed', title);
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    const requirements = [...this.results.values()];
    const failing = requirements.filter((r) => r.status === 'failed' && this.gating.includes(r.level));
    const conformant = failing.length === 0 && this.unattributed.length === 0 && result.status !== 'interrupted';
    this.print(requirements);
    mkdirSync(this.options.outputDir, { recursive: true });
    const report = {
      profile: this.options.profile,
      verdict: conformant ? 'conformant' : 'not-conformant',
      startedAt: this.startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      unattributedFailures: this.unattributed,
      requirements,
    };
    writeFileSync(join(this.options.outputDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
    if (result.status === 'interrupted' || result.status === 'timedout') return undefined;
    return { status: conformant ? 'passed' : 'failed' };
  }

  /** Failed beats passed beats observed beats skipped: one violation anywhere fails the requirement. */
  private mark(id: string, status: RequirementStatus, test: string, extra?: (r: RequirementResult) => unknown): void {
    const entry = this.results.get(id) ?? this.results.get(requirement(id).id);
    if (!entry) return;
    const rank: Record<RequirementStatus, number> = { failed: 5, passed: 4, observed: 3, skipped: 2, untested: 1, 'not-testable': 0 };
    if (rank[status] > rank[entry.status] || entry.status === 'not-testable') entry.status = status;
    if (!entry.tests.includes(test)) entry.tests.push(test);
    extra?.(entry);
  }

  private print(requirements: RequirementResult[]): void {
    const failed = requirements.filter((r) => r.status === 'failed');
    if (failed.length) {
      console.log(`\nRequirements violated (profile ${this.options.profile}):`);
      for (const r of failed) {
        console.log(`  ${this.gating.includes(r.level) ? 'FAIL' : 'warn'} ${r.id} (${r.level}, section ${r.section}): ${r.statement}`);
      }
    }
    for (const title of this.unattributed) console.log(`  FAIL (no requirement) ${title}`);
    const verdict = failed.some((r) => this.gating.includes(r.level)) || this.unattributed.length ? 'NOT CONFORMANT' : 'CONFORMANT';
    console.log(`\nOMS conformance (${this.options.profile}): ${verdict}`);
  }
}
