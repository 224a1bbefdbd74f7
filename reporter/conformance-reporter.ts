import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { gatingLevels, requirement, type Level } from '../harness/requirements';
import { REQUIREMENT_ANNOTATION } from '../harness/verifies';

const VIOLATION = /^(?:Error: )?\[(ORD-[A-Z]+-\d{3})\]/;

interface Options {
  outputDir: string;
  profile: 'core' | 'strict';
}

/** Requirement ids a failed test result violated: those named by its failures, else those it verifies. */
export function violatedRequirements(test: TestCase, result: TestResult): string[] {
  const named = result.errors
    .map((error) => VIOLATION.exec((error.message ?? '').trim())?.[1])
    .filter((id): id is string => Boolean(id));
  if (named.length) return [...new Set(named)];
  return test.annotations.filter((a) => a.type === REQUIREMENT_ANNOTATION).map((a) => (a.description ?? '').split(' ')[0]);
}

/**
 * Decides the verdict by the profile: a failure gates the run only when a requirement it violated
 * is of a gating level (core: MUST; strict: MUST and SHOULD).
 */
export default class ConformanceReporter implements Reporter {
  private readonly gating: Level[];
  private readonly violations = new Map<string, number>();
  private otherFailures = 0;

  constructor(private readonly options: Options) {
    this.gating = gatingLevels(options.profile);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status !== 'failed' && result.status !== 'timedOut') return;
    const ids = violatedRequirements(test, result);
    if (ids.length === 0) this.otherFailures++;
    for (const id of ids) this.violations.set(id, (this.violations.get(id) ?? 0) + 1);
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    const gatingIds = [...this.violations.keys()].filter((id) => this.gating.includes(requirement(id).level));
    const lines = [...this.violations.keys()].sort().map((id) => {
      const r = requirement(id);
      return `  ${this.gating.includes(r.level) ? 'FAIL' : 'warn'} ${id} (${r.level}, section ${r.section}): ${r.statement}`;
    });
    if (lines.length) console.log(`\nRequirements violated (profile ${this.options.profile}):\n${lines.join('\n')}`);
    if (result.status === 'interrupted' || result.status === 'timedout') return undefined;
    const conformant = gatingIds.length === 0 && this.otherFailures === 0;
    console.log(`\nOMS conformance (${this.options.profile}): ${conformant ? 'CONFORMANT' : 'NOT CONFORMANT'}`);
    return { status: conformant ? 'passed' : 'failed' };
  }
}
