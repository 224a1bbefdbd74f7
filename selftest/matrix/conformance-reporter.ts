import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import ConformanceReporter from '../../reporter/conformance-reporter';
import type { ConformanceReport } from '../../reporter/report';
import type { SuiteRun } from '../support/run-suite';
import { judgeFault, judgeVariant, type RowResult } from './judge';
import { renderMarkdown, renderText } from './render';
import { ALL_ROWS, rowName, rowRunId, type Row } from './rows';

const ROOT = join(__dirname, '..', '..');
const MATRIX_DOCUMENT = join(ROOT, 'docs', 'conformance-matrix.md');
const PARTIAL_MATRIX = join(ROOT, 'test-results', 'matrix', 'conformance-matrix.md');
const REPORTS = join(ROOT, 'test-results', 'matrix', 'reports');

/** One row as the run goes: its project's own conformance reporter, what its tests printed, when they ran. */
interface RowRun {
  row: Row;
  reporter: ConformanceReporter;
  reportDir: string;
  tests: number;
  ended: number;
  output: string;
  startedAt?: number;
  finishedAt?: number;
  result?: RowResult;
}

/**
 * The conformance reporter keyed by project: each row of the matrix (a project of selftest/matrix/playwright.config.ts)
 * gets the suite's own reporter, silent, writing that row's report.json; when a row's tests have all ended its report
 * is judged (judge.ts: a fault caught by what it declares and nothing unrelated, a variant passing) and one line
 * printed. At the end: the table, docs/conformance-matrix.md when every row ran, "N passed, M failed", and the
 * run fails when a row did.
 */
export default class MatrixReporter implements Reporter {
  private readonly rows = new Map<string, RowRun>();
  private startedAt = Date.now();

  constructor(private readonly options: { full?: boolean } = {}) {}

  printsToStdio(): boolean {
    return true;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.startedAt = Date.now();
    rmSync(REPORTS, { recursive: true, force: true });
    for (const project of suite.suites) {
      const row = ALL_ROWS.find((candidate) => rowName(candidate) === project.title);
      if (!row) continue;
      const reportDir = join(REPORTS, project.title);
      const reporter = new ConformanceReporter({ outputDir: reportDir, runId: rowRunId(row), silent: true });
      reporter.onBegin(config, project);
      this.rows.set(project.title, { row, reporter, reportDir, tests: project.allTests().length, ended: 0, output: '' });
    }
    console.log(`matrix: ${this.rows.size} rows, each the whole suite (${suite.suites[0]?.allTests().length ?? 0} tests) under the strict profile, ${config.workers} workers`);
  }

  onTestBegin(test: TestCase, result: TestResult): void {
    const run = this.rowOf(test);
    if (run) run.startedAt = Math.min(run.startedAt ?? Infinity, result.startTime.getTime());
  }

  onStdOut(chunk: string | Buffer, test?: TestCase): void {
    const run = test && this.rowOf(test);
    if (run) run.output += chunk.toString();
  }

  onStdErr(chunk: string | Buffer, test?: TestCase): void {
    this.onStdOut(chunk, test);
  }

  async onTestEnd(test: TestCase, result: TestResult): Promise<void> {
    const run = this.rowOf(test);
    if (!run) return;
    run.reporter.onTestEnd(test, result);
    run.finishedAt = Math.max(run.finishedAt ?? 0, result.startTime.getTime() + result.duration);
    run.ended++;
    if (run.ended === run.tests) await this.finish(run, { status: 'passed', startTime: new Date(run.startedAt ?? Date.now()), duration: (run.finishedAt ?? 0) - (run.startedAt ?? 0) });
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] }> {
    // Rows the run stopped before their end (an interruption, a global timeout) are judged on what they ran.
    for (const run of this.rows.values()) if (!run.result) await this.finish(run, result);
    const rows = [...this.rows.values()].map((run) => run.result as RowResult);
    const timing = { wallMs: Date.now() - this.startedAt, totalMs: rows.reduce((sum, row) => sum + row.durationMs, 0) };
    const target = this.options.full ? MATRIX_DOCUMENT : PARTIAL_MATRIX;
    mkdirSync(join(target, '..'), { recursive: true });
    writeFileSync(target, `${renderMarkdown(rows, timing)}\n`);
    const failed = rows.filter((row) => !row.passed);
    for (const row of failed) console.log(`\n${row.reason}`);
    console.log(`\n${renderText(rows, timing)}\nmatrix written to ${target}\n`);
    // The plain line CI reads and adds to the self-tests' (.ci/run): one per row.
    console.log(`${rows.length - failed.length} passed, ${failed.length} failed`);
    if (result.status === 'interrupted') return { status: 'interrupted' };
    return { status: failed.length === 0 && result.status !== 'timedout' ? 'passed' : 'failed' };
  }

  private rowOf(test: TestCase): RowRun | undefined {
    const project = test.parent.project()?.name;
    return project === undefined ? undefined : this.rows.get(project);
  }

  /** Writes the row's report, judges it and prints its line. */
  private async finish(run: RowRun, result: FullResult): Promise<void> {
    await run.reporter.onEnd(result);
    let report: ConformanceReport | undefined;
    try {
      report = JSON.parse(readFileSync(join(run.reportDir, 'report.json'), 'utf8')) as ConformanceReport;
    } catch {
      report = undefined;
    }
    const suiteRun: SuiteRun = { exitCode: report?.exitCode ?? -1, output: run.output, reportDir: run.reportDir, report };
    const judged = run.row.kind === 'fault' ? judgeFault(run.row.fault, suiteRun) : judgeVariant(run.row.variant, suiteRun);
    run.result = { ...judged, durationMs: (run.finishedAt ?? 0) - (run.startedAt ?? 0) };
    console.log(`${run.result.passed ? 'ok  ' : 'FAIL'} ${run.row.kind} ${rowName(run.row)} (${(run.result.durationMs / 1000).toFixed(1)} s)`);
  }
}
