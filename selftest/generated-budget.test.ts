import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { EFFORT, forAll, type Trail } from '../harness/property';
import type { Exchange } from '../contract/exchange';
import { FINDING_ATTACHMENT } from '../harness/record/findings';
import type { Judgement } from '../checks/check';
import type { Finding } from '../checks/finding';
import { forgetRun, recordViolated } from '../harness/record/run-knowledge';
import { readSettings } from '../config/settings';

/**
 * Issue 15: a generated test that fails stops at its budget and reports the counterexample it has, and a
 * requirement another test already failed is not shrunk again (no timing is asserted: requests are counted). The runs here send nothing: each records
 * REQUESTS_PER_RUN made-up exchanges in its trail, which is what the budget counts.
 */
const REQUESTS_PER_RUN = 50;
const SETTINGS = readSettings({ OMS_FAILURE_STORE: 'off', OMS_EFFORT: 'quick', OMS_SEED: '20261123' });
const EXCHANGE: Exchange = {
  request: { method: 'GET', url: 'http://127.0.0.1:9/orders', path: '/orders', headers: {} },
  status: 200,
  headers: {},
  text: '{}',
  json: {},
  retries: 0,
};

/** Fails from 10 on, counting its runs: shrinking a large number down to 10 takes about 30 runs. */
function failingFromTen(runs: { count: number }) {
  return {
    input: fc.integer({ min: 0, max: 1_000_000_000 }),
    run: async (limit: number, trail: Trail): Promise<Judgement | undefined> => {
      runs.count++;
      for (let i = 0; i < REQUESTS_PER_RUN; i++) trail.exchanges.push(EXCHANGE);
      if (limit < 10) return undefined;
      return { requirementId: 'ORD-LIST-004', on: [], finding: { requirementId: 'ORD-LIST-004', expected: `a page of ${limit} orders`, received: 'too few' } };
    },
  };
}

test.describe.serial('budgets of generated tests', () => {
  test.beforeEach(() => {
    // A run id of this test's own, so the knowledge file is this test's alone.
    process.env.OMS_RUN_ID = `selftest-budget-${process.pid}-${test.info().testId}`;
  });
  test.afterEach(() => forgetRun(process.env.OMS_RUN_ID as string));

  test('shrinking stops at its request budget and reports the counterexample it has, with seed, path and location', async () => {
    const runs = { count: 0 };
    const error = await forAll(SETTINGS, failingFromTen(runs)).then(() => undefined, (e: unknown) => e as Error);
    expect(error?.message).toContain('[ORD-LIST-004]');
    // At most the 8 generated runs, then shrink candidates until the shrink budget of requests is spent.
    expect(runs.count).toBeLessThanOrEqual(EFFORT.quick.numRuns + EFFORT.quick.shrink.maxRequests / REQUESTS_PER_RUN);
    const attached = test.info().attachments.filter((a) => a.name === FINDING_ATTACHMENT);
    const finding = JSON.parse(String(attached[attached.length - 1]?.body)) as Finding;
    expect(finding.counterexample).toContain('Counterexample (shrunk');
    expect(finding.counterexample).toContain(`shrinking stopped at its budget of ${EFFORT.quick.shrink.maxRequests} requests`);
    expect(finding.replay).toEqual({ seed: 20261123, path: expect.stringMatching(/^\d+(:\d+)*$/), location: expect.stringMatching(/^selftest\/generated-budget\.test\.ts:\d+$/), command: expect.stringMatching(/^OMS_SEED=20261123 OMS_PATH='[\d:]+' npx playwright test selftest\/generated-budget\.test\.ts:\d+$/) });
  });

  test('a requirement another test of the run already failed is reported with its first counterexample, unshrunk', async () => {
    recordViolated(['ORD-LIST-004']);
    const runs = { count: 0 };
    const error = await forAll(SETTINGS, failingFromTen(runs)).then(() => undefined, (e: unknown) => e as Error);
    expect(error?.message).toContain('[ORD-LIST-004]');
    const attached = test.info().attachments.filter((a) => a.name === FINDING_ATTACHMENT);
    const finding = JSON.parse(String(attached[attached.length - 1]?.body)) as Finding;
    expect(finding.counterexample).toContain('shrunk 0 times');
    expect(finding.counterexample).toContain('not shrunk: another test of this run already failed the requirement');
    expect(runs.count).toBeLessThanOrEqual(EFFORT.quick.numRuns);
  });
});
