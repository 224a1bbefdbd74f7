import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { KeyObject } from 'node:crypto';
import type { FullConfig, FullResult, Reporter, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { RATE_LIMIT_ANNOTATION } from '../harness/api';
import { ledgerDirectory, ledgerFile, leftovers, newRunId, readLedger } from '../harness/ledger';
import { registerSettingsSecrets, redact } from '../harness/redaction';
import { catalogue, requirement } from '../harness/requirements';
import { readSettings } from '../harness/settings';
import { OBSERVATION_ANNOTATION, REQUIREMENT_ANNOTATION } from '../harness/verifies';
import { parseEvidence } from './evidence';
import { ExpectationsError, loadExpectations, type Expectations } from './expectations';
import { KeyError, loadPrivateKey } from './integrity';
import { buildReport, verdictLine, type ConformanceReport, type RequirementResult, type RequirementStatus } from './report';
import { runInfoAtStart, suiteIdentity, type RunInfo } from './run-info';
import { readReportSettings } from './settings';
import { clearReport, writeReport } from './write-report';

export type { RequirementResult, RequirementStatus } from './report';

const VIOLATION = /^(?:Error: )?\[(ORD-[A-Z]+-\d{3})\]/;
/** Evidence kept per requirement: enough to act on, not a dump of every repetition. */
const MAX_EVIDENCE = 10;

interface Options {
  /** Where the report goes; default OMS_REPORT_DIR, else conformance-report. */
  outputDir?: string;
  /** Kept for configs that pass it; the profile is read from OMS_PROFILE like every other setting. */
  profile?: 'core' | 'strict';
  /** Set by `oms-conformance merge`: what the shards ran (they agree on it), instead of this process's settings. */
  mergedRun?: RunInfo;
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
 * Writes the report (reporter/README.md) and makes Playwright's exit code the gate: 0 conformant
 * (known failures from OMS_EXPECT aside), 1 not.
 */
export default class ConformanceReporter implements Reporter {
  private readonly outputDir: string;
  private readonly expectations?: { file: string; known: Expectations };
  private readonly signingKey?: KeyObject;
  private readonly results = new Map<string, RequirementResult>();
  private readonly unattributed: string[] = [];
  private rateLimitRetries = 0;
  private run?: RunInfo;
  /** Read before the global setup sets OMS_BASE_URL to the embedded server's address. */
  private readonly embedded = !readSettings().baseUrl;

  constructor(private readonly options: Options = {}) {
    const settings = readReportSettings();
    this.outputDir = resolve(options.outputDir ?? settings.outputDir);
    try {
      if (settings.expectationsFile) {
        this.expectations = { file: relative(process.cwd(), resolve(settings.expectationsFile)), known: loadExpectations(settings.expectationsFile) };
      }
      if (settings.signingKeyFile) this.signingKey = loadPrivateKey(settings.signingKeyFile);
    } catch (error) {
      if (!(error instanceof ExpectationsError || error instanceof KeyError)) throw error;
      console.error(`\noms-conformance: ${error.message}\n`);
      process.exit(2);
    }
    // Fixed before the workers start, so every worker writes the same ledger.
    process.env.OMS_RUN_ID ||= newRunId();
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
        findings: [],
        gating: false,
      });
    }
  }

  onBegin(config: FullConfig): void {
    this.run = this.options.mergedRun ?? runInfoAtStart(config, readSettings(), process.env.OMS_RUN_ID as string);
    clearReport(this.outputDir);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const title = test.titlePath().slice(1).filter(Boolean).join(' › ');
    const verified = verifiedRequirements(test);
    for (const annotation of result.annotations.filter((a) => a.type === RATE_LIMIT_ANNOTATION)) {
      this.rateLimitRetries += Number.parseInt(annotation.description ?? '', 10) || 0;
    }
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
      const messages = result.errors
        .map((e) => e.message ?? '')
        .filter((m) => !VIOLATION.test(m.trim()) || VIOLATION.exec(m.trim())?.[1] === id)
        .slice(0, 3);
      this.mark(id, 'failed', title, (r) => {
        const room = Math.max(0, MAX_EVIDENCE - r.findings.length);
        const kept = messages.slice(0, room).map((m) => parseEvidence(title, m));
        r.findings.push(...kept);
        r.evidence.push(...kept.map((e) => e.message));
      });
    }
    // A passing test of an OBSERVED requirement observed something: that is its status.
    for (const id of verified) if (!violated.includes(id)) this.mark(id, requirement(id).level === 'OBSERVED' ? 'observed' : 'passed', title);
  }

  /** An error outside any test (a crash in global setup, a worker that died): the run proves nothing. */
  onError(error: TestError): void {
    this.unattributed.push(`run error: ${redact((error.message ?? error.value ?? 'unknown error').split('\n')[0])}`);
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    const settings = readSettings();
    registerSettingsSecrets(settings);
    const run = this.run as RunInfo;
    // The global setup has set OMS_BASE_URL by now, also for the embedded server.
    const target = this.options.mergedRun
      ? run.target
      : { baseUrl: settings.baseUrl ?? null, embedded: this.embedded, ...(settings.tokenAuth && { tokenAuth: settings.tokenAuth }) };
    const interrupted = result.status === 'interrupted' || result.status === 'timedout';
    const report = redactStrings(
      buildReport(
        {
          requirements: [...this.results.values()],
          unattributedFailures: this.unattributed,
          rateLimitRetries: this.rateLimitRetries,
          interrupted,
          startedAt: new Date(result.startTime),
          finishedAt: new Date(new Date(result.startTime).getTime() + result.duration),
        },
        suiteIdentity(),
        { ...run, target },
        this.expectations,
      ),
    );
    const written = writeReport(this.outputDir, report, this.signingKey);
    this.print(written);
    if (interrupted) return undefined;
    return { status: written.gate.passed ? 'passed' : 'failed' };
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

  private print(report: ConformanceReport): void {
    const failed = report.requirements.filter((r) => r.status === 'failed');
    if (failed.length) {
      console.log(`\nRequirements violated (profile ${report.profile}):`);
      for (const r of failed) {
        const tag = r.knownFailure ? 'known' : r.gating ? 'FAIL' : 'warn';
        console.log(`  ${tag} ${r.id} (${r.level}, section ${r.section}): ${r.statement}`);
      }
    }
    for (const title of report.unattributedFailures) console.log(`  FAIL (no requirement) ${title}`);
    for (const id of report.gate.fixed) console.log(`  fixed ${id}: listed as a known failure in ${report.gate.expectationsFile}, and it passes now; remove it from there`);
    const left = this.leftoverOrders(report.runId);
    if (left) console.log(`\n${left} order(s) this run created are still there; delete them with: oms-conformance cleanup --run-id ${report.runId}`);
    console.log(`\n${verdictLine(report)}`);
    const shown = relative(process.cwd(), this.outputDir);
    console.log(`Report: ${shown.startsWith('..') ? this.outputDir : shown || '.'}/index.html (report.json, report.md, junit.xml, badge.svg)`);
  }

  private leftoverOrders(runId: string): number {
    if (this.options.mergedRun) return 0;
    const file = ledgerFile(ledgerDirectory(), runId);
    return existsSync(file) ? leftovers(readLedger(file)).length : 0;
  }
}

/** Every string of the report with the known secrets replaced by their placeholders: nothing written can carry a token. */
function redactStrings<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map(redactStrings) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v)])) as T;
  }
  return value;
}
