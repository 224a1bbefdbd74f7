import { defineConfig } from '@playwright/test';
import { exitOnConfigurationError } from './config/exit-codes';
import { readSettings, type Settings } from './config/settings';

// Read once here to fail fast on a bad variable; workers read the same settings through the settings fixture.
let settings: Settings;
try {
  settings = readSettings();
} catch (error) {
  exitOnConfigurationError(error);
}

export default defineConfig({
  testDir: 'tests',
  globalSetup: require.resolve('./harness/global-setup'),
  fullyParallel: true,
  workers: settings.workers,
  retries: 0,
  timeout: 120_000,
  outputDir: 'test-results',
  // The conformance reporter is the terminal output too: one block per failed requirement, then the verdict.
  // It reads its own settings (the report directory, the profile) like the rest of the suite.
  reporter: [[require.resolve('./reporter/conformance-reporter')]],
  use: { trace: 'off' },
});
