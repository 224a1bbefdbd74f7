import { existsSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { join, relative, resolve } from 'node:path';
import type { KeyObject } from 'node:crypto';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { endWithExitCode, exitOnConfigurationError } from '../config/exit-codes';
import { isPhaseProject } from '../config/phases';
import { readSetting, readSettings, registerSettingsSecrets, writeSettings } from '../config/settings';
import { RATE_LIMIT_ANNOTATION } from '../harness/record/requests';
import { inFlight, ledgerFile, leftovers, newRunId, readLedger } from '../harness/http/ledger';
import { redact } from '../config/redaction';
import { catalogue, mayNeverBeAnswered, requirement } from '../requirements/catalogue';
import { OBSERVATION_ANNOTATION, REQUESTS_ANNOTATION, REQUIREMENT_ANNOTATION } from '../harness/record/verifies';
import { Progress } from './progress';
import { CHECKED_ON_ANNOTATION } from '../harness/record/checked-on';
import { REACHED_ANNOTATION, recordOf, STOPPED_BY_ANNOTATION } from '../harness/record/findings';
import { cutOf, generatedRunsOf } from '../harness/record/cuts';
import { skipOf, type Skip } from '../harness/record/skips';
import { evidenceOf, evidenceOfError, type Evidence } from './evidence';
import { summaryLines } from './terminal';
import { seedLabel } from './display';
import { commandText, visible, visibleControls } from '../config/safe-text';
import { shellWord } from '../harness/http/shell';
import { suiteCommand, targetArguments } from '../harness/replay-command';
import { loadExpectations, type Expectations } from './expectations';
import { loadPrivateKey } from './integrity';
import { buildReport, skipOfCut, type ConformanceReport, type CutEntry, type GeneratedEntry, type RequirementResult, type RequirementStatus } from './report';
import { runInfoAtStart, suiteIdentity } from './run-info';
import type { RunInfo } from '../config/run-info';
import { clearReport, writeReport } from './write-report';
import { serverWentSilent } from '../harness/http/silence';
import { keepOutsideFindings, OUTSIDE_FINDINGS_FILE, takeOutsideFindings } from '../harness/record/outside-tests';
import { forgetPlan, writePlan } from '../harness/schedule/plan';

export type { RequirementResult, RequirementStatus } from './report';

/** Evidence kept per requirement: enough to act on, not a dump of every repetition. */
const MAX_EVIDENCE = 10;

interface Options {
  /** Where the report goes; default OMS_REPORT_DIR, else conformance-report. */
  outputDir?: string;
  /** Kept for configs that pass it; the profile is read from OMS_PROFILE like every other setting (config/settings.ts). */
  profile?: 'core' | 'strict';
  /** Set by `oms-conformance merge`: what the shards ran (they agree on it), instead of this process's settings. */
  mergedRun?: RunInfo;
  /** The run's id, where it is not this process's OMS_RUN_ID: one Playwright run reporting several suite runs (a project each). */
  runId?: string;
  /** Writes the report and prints nothing, leaving the exit code alone: another reporter speaks for the whole Playwright run. */
  silent?: boolean;
}

/** Requirement ids a test verifies, from its verifies() annotations. */
export function verifiedRequirements(test: TestCase): string[] {
  return test.annotations.filter((a) => a.type === REQUIREMENT_ANNOTATION).map((a) => (a.description ?? '').split(' ')[0]);
}

/**
 * The failures of a result, by requirement: the finding records its tests attached (data, never parsed
 * from messages). A failed test that attached none (a crash, a timeout) fails the requirements it verifies,
 * with its error text as evidence.
 */
export function violations(test: TestCase, result: TestResult, title: string): Map<string, Evidence[]> {
  const byRequirement = new Map<string, Evidence[]>();
  for (const record of result.attachments.map(recordOf)) {
    if (record) byRequirement.set(record.requirementId, [...(byRequirement.get(record.requirementId) ?? []), evidenceOf(title, record)]);
  }
  // An interrupted test judges nothing (onTestEnd): only a crash or a timeout fails what it verifies.
  const failed = result.status === 'failed' || result.status === 'timedOut';
  if (failed && byRequirement.size === 0) {
    const error = result.errors.map((e) => e.message ?? e.value ?? '').find(Boolean) ?? `test ${result.status}`;
    for (const id of verifiedRequirements(test)) byRequirement.set(id, [evidenceOfError(title, id, error)]);
  }
  return byRequirement;
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
  /** --har: the failures' exchanges as failures.har. */
  private readonly har: boolean;
  private readonly results = new Map<string, RequirementResult>();
  private readonly unattributed: string[] = [];
  private rateLimitRetries = 0;
  private readonly tests = { passed: 0, failed: 0, skipped: 0, interrupted: 0 };
  private readonly cuts: CutEntry[] = [];
  private readonly generated: GeneratedEntry[] = [];
  private requests = 0;
  private shard = false;
  /** The projects whose plan this reporter wrote (harness/schedule/plan.ts), removed at the end. */
  private planned: string[] = [];
  private run?: RunInfo;
  private progress?: Progress;
  /** Read before the global setup sets OMS_BASE_URL to the embedded server's address. */
  private readonly embedded = !readSettings().baseUrl;

  constructor(private readonly options: Options = {}) {
    const settings = readSettings();
    this.outputDir = resolve(options.outputDir ?? settings.reportDir);
    this.har = settings.har;
    try {
      if (settings.expectationsFile) {
        this.expectations = { file: relative(process.cwd(), resolve(settings.expectationsFile)), known: loadExpectations(settings.expectationsFile) };
      }
      if (settings.signingKeyFile) this.signingKey = loadPrivateKey(settings.signingKeyFile);
    } catch (error) {
      exitOnConfigurationError(error);
    }
    // Fixed before the workers start, so every worker writes the same ledger.
    if (!options.runId && !settings.runId) writeSettings({ runId: newRunId() });
    for (const r of catalogue().values()) {
      this.results.set(r.id, {
        id: r.id,
        section: r.section,
        level: r.level,
        statement: r.statement,
        status: r.not_tested ? 'not-testable' : 'not-reached',
        tests: [],
        skipReasons: r.not_tested ? [r.not_tested] : [],
        skips: [],
        observed: [],
        evidence: [],
        findings: [],
        occurrences: 0,
        checkedOn: [],
        gating: false,
      });
    }
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.shard = config.shard !== null;
    const settings = readSettings();
    this.run = this.options.mergedRun ?? runInfoAtStart(config, settings, this.options.runId ?? (settings.runId as string));
    clearReport(this.outputDir);
    // The tests each project will run, for its worker to send their requests before Playwright reaches them.
    if (!this.options.mergedRun) {
      writePlan(suite);
      this.planned = suite.type === 'project' ? [suite.title] : suite.suites.map((project) => project.title);
    }
    if (!this.options.mergedRun && !this.options.silent) {
      console.log(`oms-conformance: ${suite.allTests().length} tests, profile ${this.run.profile}, effort ${this.run.effort}, seed ${seedLabel(this.run)}`);
      // The live line goes to stderr: stdout stays the report's, whatever a CI job pipes it to.
      this.progress = new Progress(suite.allTests().length, process.stderr);
    }
  }

  /** This reporter is the terminal output: a block per failed requirement at the end, not a line per test. */
  printsToStdio(): boolean {
    return true;
  }

  /** What tests print (cleanup warnings) is passed on, line by line, each made visible: it may quote the server. */
  onStdOut(chunk: string | Buffer): void {
    this.progress?.clear();
    forward(process.stdout, chunk);
  }

  onStdErr(chunk: string | Buffer): void {
    this.progress?.clear();
    forward(process.stderr, chunk);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.record(test, result);
    const requests = result.annotations.filter((a) => a.type === REQUESTS_ANNOTATION).reduce((sum, a) => sum + (Number(a.description) || 0), 0);
    this.requests += requests;
    this.progress?.testEnded(requests, [...this.results.values()].filter((r) => r.status === 'failed').map((r) => r.id));
  }

  private record(test: TestCase, result: TestResult): void {
    // The run's phases (config/phases.ts) are no part of a test's name: the same test has the same name in every run.
    const [, project, ...path] = test.titlePath();
    const title = [isPhaseProject(project) ? '' : project, ...path].filter(Boolean).join(' › ');
    const verified = verifiedRequirements(test);
    for (const annotation of result.annotations.filter((a) => a.type === RATE_LIMIT_ANNOTATION)) {
      this.rateLimitRetries += Number.parseInt(annotation.description ?? '', 10) || 0;
    }
    const cuts = result.annotations.flatMap((annotation) => cutOf(annotation) ?? []);
    for (const cut of cuts) this.cuts.push({ ...cut, test: title, requirements: verified });
    for (const runs of result.annotations.flatMap((annotation) => generatedRunsOf(annotation) ?? [])) this.generated.push({ ...runs, test: title, requirements: verified });
    if (result.status === 'skipped') {
      this.tests.skipped++;
      for (const id of verified) this.skip(id, title, skipOfTest(test, result));
      return;
    }
    if (result.status === 'interrupted') {
      // Cut short by Ctrl-C or a global timeout: nothing it did is judged, neither a pass nor a failure.
      this.tests.interrupted++;
      for (const id of verified) this.skip(id, title, { kind: 'interrupted', reason: 'the run was interrupted before this test finished' });
      return;
    }
    const observedHere = new Set<string>();
    for (const annotation of result.annotations.filter((a) => a.type === OBSERVATION_ANNOTATION)) {
      const [id, ...value] = (annotation.description ?? '').split(': ');
      observedHere.add(id);
      this.mark(id, 'observed', title, (r) => r.observed.includes(value.join(': ')) || r.observed.push(value.join(': ')));
    }
    const failed = result.status === 'failed' || result.status === 'timedOut';
    const found = violations(test, result, title);
    this.tests[failed || found.size > 0 ? 'failed' : 'passed']++;
    if (failed && found.size === 0) this.unattributed.push(title);
    const violated = [...found.keys()];
    for (const [id, evidence] of found) {
      this.mark(id, 'failed', title, (r) => {
        r.occurrences += evidence.reduce((sum, e) => sum + 1 + (e.repeats ?? 0), 0);
        const kept = evidence.slice(0, Math.max(0, MAX_EVIDENCE - r.findings.length));
        r.findings.push(...kept);
        r.evidence.push(...kept.map((e) => e.message));
      });
    }
    // A requirement passes only where a test judged it and found nothing: verifying it is not enough (a
    // generated run may never get to it). OBSERVED ones are marked by their observations above.
    const judged = new Set(result.annotations.filter((a) => a.type === REACHED_ANNOTATION).map((a) => a.description));
    // Where each requirement was judged: the responses of a test in which it was reached (harness/record/checked-on.ts).
    for (const annotation of result.annotations.filter((a) => a.type === CHECKED_ON_ANNOTATION)) {
      const [id, cell] = (annotation.description ?? '').split(' ');
      const entry = this.results.get(id);
      if (entry && cell && (judged.has(id) || violated.includes(id)) && !entry.checkedOn.includes(cell)) entry.checkedOn = [...entry.checkedOn, cell].sort();
    }
    // A test cut below its floor checked too little to pass anything; what it found failed stands.
    const floorCut = cuts.find((cut) => cut.belowFloor);
    // The requirement whose violation stopped the test: what it had not judged yet is blocked by it.
    const stoppedBy = result.annotations.find((a) => a.type === STOPPED_BY_ANNOTATION)?.description;
    for (const id of verified) {
      if (violated.includes(id)) continue;
      if (floorCut) {
        this.skip(id, title, skipOfCut(floorCut, this.run?.effort ?? 'quick'));
        continue;
      }
      if (observedHere.has(id)) continue;
      // A statement about answers a correct server may never give (a 5xx, the refusal of an oversized request it takes) holds when none came.
      if (requirement(id).level !== 'OBSERVED' && (judged.has(id) || mayNeverBeAnswered(requirement(id)))) this.mark(id, 'passed', title);
      else if (stoppedBy && !judged.has(id)) {
        this.skip(id, title, { kind: 'blocked', blockedBy: stoppedBy, reason: `blocked by ${stoppedBy}: the test stopped at its failure, before it could judge this` });
      }
    }
  }

  /** An error outside any test (a crash in global setup, a worker that died): the run proves nothing. */
  onError(error: TestError): void {
    this.unattributed.push(`run error: ${visible(redact(stripVTControlCharacters(error.message ?? error.value ?? 'unknown error').split('\n')[0]))}`);
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    for (const project of this.planned) forgetPlan(project);
    this.progress?.end();
    const settings = readSettings();
    registerSettingsSecrets(settings);
    const run = this.run as RunInfo;
    // The global setup has set OMS_BASE_URL by now, also for the embedded server.
    const target = this.options.mergedRun
      ? run.target
      : { baseUrl: settings.baseUrl ?? null, embedded: this.embedded, ...(settings.tokenAuth && { tokenAuth: settings.tokenAuth }) };
    const interrupted = result.status === 'interrupted' || result.status === 'timedout';
    // A server that went silent stopped the run: the rest was skipped, so the verdict cannot be CONFORMANT.
    const silence = serverWentSilent(this.options.runId ?? (settings.runId as string));
    this.recordOutsideTests(this.options.runId ?? (settings.runId as string));
    const report = redactStrings(
      buildReport(
        {
          requirements: [...this.results.values()],
          unattributedFailures: this.unattributed,
          rateLimitRetries: this.rateLimitRetries,
          tests: this.tests,
          interrupted,
          cuts: this.cuts,
          generated: this.generated,
          requests: this.requests,
          stopReasons: silence ? [`run stopped: ${silence}`] : [],
          startedAt: new Date(result.startTime),
          finishedAt: new Date(new Date(result.startTime).getTime() + result.duration),
        },
        suiteIdentity(),
        { ...run, target },
        this.expectations,
      ),
    );
    const written = writeReport(this.outputDir, report, this.signingKey, { har: this.har });
    if (this.options.silent) return { status: written.gate.passed ? 'passed' : 'failed' };
    this.print(written);
    // Playwright's runner knows only 0, 1 and 130: the report's own code (3 for inconclusive) is made the process's.
    endWithExitCode(written.exitCode);
    if (interrupted) return undefined;
    return { status: written.gate.passed ? 'passed' : 'failed' };
  }

  /**
   * What the exchanges made outside any test violated (harness/record/outside-tests.ts): each fails its
   * requirement, named by where it was met in place of a test, and counts in the verdict like any failure.
   */
  private recordOutsideTests(runId: string): void {
    const findings = takeOutsideFindings(runId);
    // A shard's blob report carries its tests only: its outside findings go beside it, for `merge` (cli/merge.ts).
    const blobs = process.env.PLAYWRIGHT_BLOB_OUTPUT_DIR;
    if (this.shard && blobs) keepOutsideFindings(findings, join(blobs, OUTSIDE_FINDINGS_FILE));
    for (const { where, record } of findings) {
      const title = `outside the tests: ${where}`;
      this.mark(record.requirementId, 'failed', title, (r) => {
        r.occurrences++;
        if (r.findings.length < MAX_EVIDENCE) {
          const evidence = evidenceOf(title, record);
          r.findings.push(evidence);
          r.evidence.push(evidence.message);
        }
      });
    }
  }

  /** A requirement a test verified and did not judge, and why (a skip's cause, a cut, an interruption, a blocking failure). */
  private skip(id: string, test: string, skip: Skip): void {
    this.mark(id, 'skipped', test, (r) => {
      if (!r.skipReasons.includes(skip.reason)) r.skipReasons.push(skip.reason);
      if (!r.skips.some((known) => known.kind === skip.kind && known.reason === skip.reason)) r.skips.push(skip);
    });
  }

  /** Failed beats passed beats observed beats skipped: one violation anywhere fails the requirement. */
  private mark(id: string, status: RequirementStatus, test: string, extra?: (r: RequirementResult) => unknown): void {
    const entry = this.results.get(id) ?? this.results.get(requirement(id).id);
    if (!entry) return;
    const rank: Record<RequirementStatus, number> = { failed: 5, passed: 4, observed: 3, skipped: 2, 'not-reached': 1, 'not-testable': 0 };
    if (rank[status] > rank[entry.status] || entry.status === 'not-testable') entry.status = status;
    if (!entry.tests.includes(test)) entry.tests.push(test);
    extra?.(entry);
  }

  private print(report: ConformanceReport): void {
    const notes: string[] = [];
    const { left, unanswered } = this.leftoverOrders(report.runId);
    if (left || unanswered) {
      const baseUrl = report.target.baseUrl ? ` --base-url ${commandText(shellWord(report.target.baseUrl))}` : '';
      const what = [left && `${left} order(s) this run created are still there`, unanswered && `${unanswered} create(s) got no answer and may have made orders`].filter(Boolean).join('; ');
      notes.push(`${what}; delete them with: ${suiteCommand(`cleanup --run-id ${report.runId}${baseUrl}`)}`);
    }
    const shown = relative(process.cwd(), this.outputDir);
    const directory = shown.startsWith('..') ? this.outputDir : shown || '.';
    notes.push(`Report: ${directory}/index.html (report.json, report.md, junit.xml, badge.svg): every failure in full`);
    if (report.requirements.some((r) => r.status === 'failed')) notes.push(`Run the failed requirements again: ${suiteCommand(['replay', visible(shellWord(`${directory}/report.json`)), ...targetArguments()].join(' '))}`);
    console.log(summaryLines(report, notes).join('\n'));
  }

  /** Orders the run's ledger records as created and not deleted, and creates it sent that got no answer. */
  private leftoverOrders(runId: string): { left: number; unanswered: number } {
    const file = ledgerFile(readSetting('ledgerDir'), runId);
    if (this.options.mergedRun || !existsSync(file)) return { left: 0, unanswered: 0 };
    const entries = readLedger(file);
    return { left: leftovers(entries).length, unanswered: inFlight(entries).length };
  }
}

/**
 * Why a skipped test judged nothing: its structured skip (harness/record/skips.ts), never its wording. A skip
 * made some other way (a plain test.skip) is a precondition: not checked, and so not complete.
 */
function skipOfTest(test: TestCase, result: TestResult): Skip {
  const annotations = [...result.annotations, ...test.annotations];
  const structured = annotations.map(skipOf).find(Boolean);
  if (structured) return structured;
  return { kind: 'precondition', reason: annotations.find((a) => a.type === 'skip')?.description ?? 'skipped' };
}

/** A worker's output, each line indented and any control character made visible (what it quotes of the server, it made visible itself). */
function forward(stream: NodeJS.WriteStream, chunk: string | Buffer): void {
  const lines = redact(chunk.toString()).replace(/\n$/, '').split('\n');
  stream.write(`${lines.map((line) => `  ${visibleControls(line)}`).join('\n')}\n`);
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
