import { defineConfig } from '@playwright/test';

// One worker running client-cost.spec.ts: what one request costs inside a Playwright worker, by client.
export default defineConfig({
  testDir: __dirname,
  testMatch: 'client-cost.spec.ts',
  workers: 1,
  retries: 0,
  timeout: 120_000,
  reporter: 'dot',
  use: { trace: 'off' },
});
