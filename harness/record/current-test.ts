import { test, type TestInfo } from '@playwright/test';

/**
 * The test running now, or undefined outside one (a benchmark, a script, a worker-scoped fixture). Outside
 * a Playwright worker it does not ask: test.info() throws there, and a throw per judgement is most of a
 * judgement's cost.
 */
export function currentTest(): TestInfo | undefined {
  if (process.env.TEST_WORKER_INDEX === undefined) return undefined;
  try {
    return test.info();
  } catch {
    return undefined;
  }
}
