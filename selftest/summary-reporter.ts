import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Ends the run with the plain line CI reads: "N passed, N failed, N skipped". */
export default class SummaryReporter implements Reporter {
  private passed = 0;
  private failed = 0;
  private skipped = 0;

  onTestEnd(_test: TestCase, result: TestResult): void {
    if (result.status === 'passed') this.passed++;
    else if (result.status === 'skipped') this.skipped++;
    else this.failed++;
  }

  onEnd(_result: FullResult): void {
    console.log(`${this.passed} passed, ${this.failed} failed, ${this.skipped} skipped`);
  }
}
