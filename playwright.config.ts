import { defineConfig } from '@playwright/test';
import { exitOnConfigurationError } from './config/exit-codes';
import { defaultWorkers } from './config/network';
import { phaseProjects } from './config/phases';
import { readSettings, writeSettings, type Settings } from './config/settings';
import { measureRoundTrip } from './harness/http/round-trip';
import { newRunId } from './harness/http/ledger';
import { judgeOutsideTests } from './harness/record/outside-tests';
import type { Exchange } from './contract/exchange';
import { fixRunSeed } from './config/seed';
import type { WorkerOptions } from './harness/fixtures';

// Read once here to fail fast on a bad variable; workers read the same settings through the settings fixture.
let settings: Settings;
try {
  settings = readSettings();
} catch (error) {
  exitOnConfigurationError(error);
}

// One seed for the run, fixed in the runner (workers and the reporter inherit it): derived from the suite version
// unless the run explores, so the same server gets the same verdict every run.
if (process.env.TEST_WORKER_INDEX === undefined) fixRunSeed(settings);

// Measured once, in the runner (workers inherit it): how far away the server is decides how much goes out at once.
// The embedded server runs in this process: no network between, nothing to measure.
if (process.env.TEST_WORKER_INDEX === undefined && settings.baseUrl && settings.roundTripMs === undefined && (settings.workers === undefined || settings.concurrency === undefined)) {
  // The probe's answers are the run's like any other, judged outside the tests: the run id they are kept under is fixed now (the reporter keeps it).
  if (!settings.runId) writeSettings({ runId: newRunId() });
  const probed = (exchange: Exchange) => judgeOutsideTests('the round-trip probe before the tests (GET /orders?limit=1 without credentials)', exchange);
  settings.roundTripMs = measureRoundTrip(settings.baseUrl, probed);
  writeSettings({ roundTripMs: settings.roundTripMs });
}

const workers = settings.workers ?? defaultWorkers(settings.roundTripMs);

export default defineConfig<{}, WorkerOptions>({
  testDir: 'tests',
  globalSetup: require.resolve('./harness/setup/global-setup'),
  fullyParallel: true,
  workers,
  retries: 0,
  timeout: 120_000,
  outputDir: 'test-results',
  // The conformance reporter is the terminal output too: one block per failed requirement, then the verdict.
  // It reads its own settings (the report directory, the profile) like the rest of the suite.
  reporter: [[require.resolve('./reporter/conformance-reporter')]],
  use: { trace: 'off' },
  projects: phaseProjects(workers),
});
