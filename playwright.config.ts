import { defineConfig } from '@playwright/test';
import { exitOnConfigurationError } from './config/exit-codes';
import { defaultWorkers } from './config/network';
import { phaseProjects } from './config/phases';
import { readSettings, type Settings } from './config/settings';
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

// One worker unless told otherwise, however far the server is: it runs many tests at once (config/network.ts).
const workers = settings.workers ?? defaultWorkers();

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
