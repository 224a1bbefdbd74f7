import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import type { WorkerOptions } from '../../harness/fixtures';
import { newRunId } from '../../harness/http/ledger';
import { fixRunSeed } from '../../config/seed';
import { readSettings } from '../../config/settings';
import { knobsText } from '../reference/variants/knobs';
import { referenceTarget } from '../reference/target';
import { SINGLES, singleName, singleRunId, THOROUGH } from './points';

const ROOT = join(__dirname, '..', '..');

// Read in the runner and in each worker: the runner fixes the run id and where the reports go, the workers inherit them.
process.env.OMS_RUN_ID ??= `space-${newRunId()}`;
process.env.OMS_SPACE_REPORTS ??= join(ROOT, 'test-results', 'space', 'reports');
// Strict gates on MUST and SHOULD, core on MUST only: one strict run judges both profiles.
process.env.OMS_PROFILE = 'strict';
// No failure store: the projects test different servers side by side, and one's counterexamples replayed on another
// would make a project's verdict depend on which ran first (and on earlier runs).
process.env.OMS_FAILURE_STORE = 'off';
// One seed for every point, fixed in the runner (a thorough run draws it once, not once per test).
if (process.env.TEST_WORKER_INDEX === undefined) fixRunSeed(readSettings());

/**
 * Each knob value alone (points.ts SINGLES) in one Playwright run: one project per value, the example-based tests
 * (or, with OMS_EFFORT=thorough, the whole suite) against a reference server with that knob set, started in
 * the project's worker (the suite's `target` option); conformance-reporter.ts writes each project's report under
 * OMS_SPACE_REPORTS/<knob=value>/, which selftest/conformant-space.test.ts judges.
 */
export default defineConfig<{}, WorkerOptions>({
  testDir: join(ROOT, 'tests'),
  outputDir: join(ROOT, 'test-results', 'space', 'output'),
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 120_000,
  reporter: [[require.resolve('./conformance-reporter')]],
  projects: SINGLES.map((setting, index) => ({
    name: singleName(index),
    workers: 1,
    ...(!THOROUGH && { testMatch: [/[\\/]orders[\\/][^\\/]*\.spec\.ts$/, /[\\/]auth[\\/][^\\/]*\.spec\.ts$/] }),
    use: { target: referenceTarget({ OMS_KNOBS: knobsText(setting) }, singleRunId(index), { ledgerDir: join(process.env.OMS_SPACE_REPORTS as string, singleName(index), 'ledger') }) },
  })),
});
