import type { FullResult } from '@playwright/test/reporter';
import { ReportsByProject } from '../support/reports-by-project';
import { SINGLES, singleName, singleRunId } from './points';

/**
 * The conformance reporter keyed by project for the knob values alone: each project's report written under
 * OMS_SPACE_REPORTS; selftest/conformant-space.test.ts judges them (a failure there is a false alarm to name,
 * not this run's to decide), so the run itself passes once every report is written.
 */
export default class SpaceReporter extends ReportsByProject {
  constructor() {
    super(process.env.OMS_SPACE_REPORTS as string, (name) => singleRunId(SINGLES.findIndex((_, index) => singleName(index) === name)));
  }

  override async onEnd(result: FullResult): Promise<{ status: FullResult['status'] }> {
    await super.onEnd(result);
    console.log(`conformant space: ${this.projects.size} knob values alone, each report in ${this.reportsDir}`);
    return { status: result.status === 'interrupted' ? 'interrupted' : 'passed' };
  }
}
