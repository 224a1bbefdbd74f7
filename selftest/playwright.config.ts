import { defineConfig } from '@playwright/test';

// The project's own tests: contract, generators, reporter, and the fault/variant matrix that proves the suite.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  fullyParallel: true,
  workers: 2,
  timeout: 600_000,
  reporter: [[process.env.CI ? 'dot' : 'list'], [require.resolve('./summary-reporter')]],
  outputDir: '../test-results/selftest',
});
