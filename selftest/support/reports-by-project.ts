import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import ConformanceReporter from '../../reporter/conformance-reporter';
import type { ConformanceReport } from '../../reporter/report';
import type { SuiteRun } from './run-suite';
import { cleanedUp } from '../../harness/record/outside-tests';

/** How long a project's end waits for its worker's cleanup (deletes of the orders it made), at most. */
const CLEANUP_WAIT_MS = 15_000;

/** One project's suite run as it goes: its own conformance reporter, what its tests printed, when they ran. */
export interface ProjectRun {
  name: string;
  reporter: ConformanceReporter;
  reportDir: string;
  tests: number;
  ended: number;
  output: string;
  startedAt?: number;
  finishedAt?: number;
  done: boolean;
}

/**
 * The conformance reporter keyed by project, for a Playwright run whose projects are each a suite run (the
 * matrix's rows, the knobs of the conformant space): each project gets the suite's own reporter, silent,
 * writing its report under `reportsDir/<project>/`; when a project's tests have all ended its run is handed
 * to `projectEnded` (as runSuite would give it: exit code, report, output), once.
 */
export class ReportsByProject implements Reporter {
  protected readonly projects = new Map<string, ProjectRun>();
  protected startedAt = Date.now();
  /** Projects ending: each waits for its worker's cleanup first (onEnd waits for them all). */
  private readonly ending: Promise<void>[] = [];

  constructor(
    protected readonly reportsDir: string,
    private readonly runIdOf: (project: string) => string,
  ) {}

  printsToStdio(): boolean {
    return true;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.startedAt = Date.now();
    rmSync(this.reportsDir, { recursive: true, force: true });
    for (const project of suite.suites) {
      const reportDir = join(this.reportsDir, project.title);
      const reporter = new ConformanceReporter({ outputDir: reportDir, runId: this.runIdOf(project.title), silent: true });
      reporter.onBegin(config, project);
      this.projects.set(project.title, { name: project.title, reporter, reportDir, tests: project.allTests().length, ended: 0, output: '', done: false });
    }
  }

  onTestBegin(test: TestCase, result: TestResult): void {
    const run = this.projectOf(test);
    if (run) run.startedAt = Math.min(run.startedAt ?? Infinity, result.startTime.getTime());
  }

  onStdOut(chunk: string | Buffer, test?: TestCase): void {
    const run = test && this.projectOf(test);
    if (run) run.output += chunk.toString();
  }

  onStdErr(chunk: string | Buffer, test?: TestCase): void {
    this.onStdOut(chunk, test);
  }

  async onTestEnd(test: TestCase, result: TestResult): Promise<void> {
    const run = this.projectOf(test);
    if (!run) return;
    run.reporter.onTestEnd(test, result);
    run.finishedAt = Math.max(run.finishedAt ?? 0, result.startTime.getTime() + result.duration);
    run.ended++;
    if (run.ended === run.tests) this.ending.push(this.end(run, { status: 'passed', startTime: new Date(run.startedAt ?? Date.now()), duration: this.durationOf(run) }));
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    // Projects the run stopped before their end (an interruption, a global timeout) are reported on what they ran.
    for (const run of this.projects.values()) if (!run.done) await this.end(run, result);
    await Promise.all(this.ending);
    return undefined;
  }

  /** A project's suite run, ended: its report written and read back. */
  protected projectEnded(_run: ProjectRun, _suiteRun: SuiteRun): void {}

  protected durationOf(run: ProjectRun): number {
    return (run.finishedAt ?? 0) - (run.startedAt ?? 0);
  }

  private projectOf(test: TestCase): ProjectRun | undefined {
    const project = test.parent.project()?.name;
    return project === undefined ? undefined : this.projects.get(project);
  }

  private async end(run: ProjectRun, result: FullResult): Promise<void> {
    run.done = true;
    // The worker cleans up after its last test: what its deletes and leftover creates found belongs to the report too.
    await cleanedUp(this.runIdOf(run.name), CLEANUP_WAIT_MS);
    await run.reporter.onEnd(result);
    this.projectEnded(run, readProjectRun(run.reportDir, run.output));
  }
}

/** A project's suite run from what its reporter wrote, as runSuite gives a run (exit code, report, output). */
export function readProjectRun(reportDir: string, output = ''): SuiteRun {
  let report: ConformanceReport | undefined;
  try {
    report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as ConformanceReport;
  } catch {
    report = undefined;
  }
  return { exitCode: report?.exitCode ?? -1, output, reportDir, report };
}
