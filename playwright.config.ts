import { defineConfig } from '@playwright/test';
import { ConfigurationError, readSettings } from './harness/settings';

// Read once here to fail fast on a bad variable; workers read the same contract through the settings fixture.
let profile: 'core' | 'strict' = 'core';
try {
  profile = readSettings().profile;
} catch (error) {
  if (!(error instanceof ConfigurationError)) throw error;
  console.error(`\noms-conformance: ${error.message}\n`);
  process.exit(2);
}

const outputDir = process.env.OMS_REPORT_DIR || 'conformance-report';

export default defineConfig({
  testDir: 'tests',
  globalSetup: require.resolve('./harness/global-setup'),
  fullyParallel: true,
  workers: process.env.OMS_WORKERS ? Number(process.env.OMS_WORKERS) : 2,
  retries: 0,
  timeout: 120_000,
  outputDir: 'test-results',
  // The conformance reporter is the terminal output too: one block per failed requirement, then the verdict.
  reporter: [[require.resolve('./reporter/conformance-reporter'), { outputDir, profile }]],
  use: { trace: 'off' },
});
