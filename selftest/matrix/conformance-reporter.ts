import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig, FullResult, Suite } from '@playwright/test/reporter';
import { ReportsByProject, type ProjectRun } from '../support/reports-by-project';
import type { SuiteRun } from '../support/run-suite';
import { judgeRow, type RowResult } from './judge';
import { renderMarkdown, renderText } from './render';
import { ALL_ROWS, MATRIX_REPORTS, rowName, rowRunId, runsWholeSuite } from './rows';

const ROOT = join(__dirname, '..', '..');
const MATRIX_DOCUMENT = join(ROOT, 'docs', 'conformance-matrix.md');
const PARTIAL_MATRIX = join(ROOT, 'test-results', 'matrix', 'conformance-matrix.md');

const rowNamed = (name: string) => ALL_ROWS.find((row) => rowName(row) === name);

/**
 * The matrix's reporter: the suite's conformance report per project (ReportsByProject), each row judged when its
 * tests have all ended (judge.ts: a fault caught by what it declares and nothing unrelated, a variant passing)
 * with one line printed; at the end the table, docs/conformance-matrix.md when every row ran, the plain line
 * "N passed, M failed" (a row each), and the run fails when a row did.
 */
export default class MatrixReporter extends ReportsByProject {
  private readonly results = new Map<string, RowResult>();
  private workers = 2;

  constructor(private readonly options: { full?: boolean } = {}) {
    super(MATRIX_REPORTS, (name) => rowRunId(rowNamed(name)!));
  }

  override onBegin(config: FullConfig, suite: Suite): void {
    super.onBegin(config, suite);
    this.workers = config.workers;
    const rows = [...this.projects.keys()].flatMap((name) => rowNamed(name) ?? []);
    const whole = rows.filter(runsWholeSuite).length;
    const tests = Math.max(0, ...suite.suites.map((project) => project.allTests().length));
    console.log(
      `matrix: ${rows.length} rows under the strict profile, ${config.workers} workers: ${whole} the whole suite (${tests} tests), ${rows.length - whole} faults the tests of their requirements`,
    );
  }

  protected override projectEnded(run: ProjectRun, suiteRun: SuiteRun): void {
    const row = rowNamed(run.name);
    if (!row) return;
    const judged = judgeRow(row, suiteRun);
    const result = { ...judged, durationMs: this.durationOf(run) };
    this.results.set(run.name, result);
    console.log(`${result.passed ? 'ok  ' : 'FAIL'} ${row.kind} ${run.name} (${(result.durationMs / 1000).toFixed(1)} s)`);
  }

  override async onEnd(result: FullResult): Promise<{ status: FullResult['status'] }> {
    await super.onEnd(result);
    const rows = [...this.projects.keys()].flatMap((name) => this.results.get(name) ?? []);
    const timing = { wallMs: Date.now() - this.startedAt, totalMs: rows.reduce((sum, row) => sum + row.durationMs, 0), workers: this.workers };
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
}
