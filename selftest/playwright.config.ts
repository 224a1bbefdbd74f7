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
  // The matrix first: its one Playwright run (every fault and variant through the whole suite) takes the longest,
  // and overlaps the other self-tests, many of which spend their time waiting on a server.
  projects: [
    { name: 'matrix', testMatch: 'matrix.test.ts' },
    { name: 'selftest', testIgnore: 'matrix.test.ts' },
  ],
});
