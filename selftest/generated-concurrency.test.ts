import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { forAll, type Trail } from '../harness/property';
import { FINDING_ATTACHMENT, type FindingRecord } from '../harness/record/findings';
import type { Judgement } from '../checks/check';
import { forgetRun } from '../harness/record/run-knowledge';
import { readSettings } from '../config/settings';
import { failedRequirements, runSuite, type SuiteRun } from './support/run-suite';

/**
 * Issue 21: generated runs go out side by side, up to the worker's concurrency, and the same seed gives the
 * same verdict, the same counterexample and the same replay path at any concurrency: the failure kept is
 * the first in fast-check's order, not the first to finish.
 */
const SEED = '20261125';

/** Fails for an input whose remainder by 7 is 3, after a delay of its remainder by 17 in ms: side by side, a later run often finishes first. */
function slowAndSometimesFailing(ran: number[]) {
  return {
    input: fc.integer({ min: 0, max: 1_000_000 }),
    run: async (value: number, _trail: Trail): Promise<Judgement | undefined> => {
      ran.push(value);
      await sleep(value % 17);
      return value % 7 === 3 ? { requirementId: 'ORD-LIST-004', on: [], finding: { requirementId: 'ORD-LIST-004', expected: 'no remainder 3', received: String(value) } } : undefined;
    },
    numRuns: 40,
  };
}

/** The finding forAll attached last, and the inputs its runs were given. */
async function runAt(concurrency: number): Promise<{ finding?: FindingRecord; ran: number[] }> {
  const ran: number[] = [];
  const settings = readSettings({ OMS_FAILURE_STORE: 'off', OMS_EFFORT: 'quick', OMS_SEED: SEED, OMS_CONCURRENCY: String(concurrency) });
  await forAll(settings, slowAndSometimesFailing(ran)).catch(() => undefined);
  const attached = test.info().attachments.filter((a) => a.name === FINDING_ATTACHMENT);
  const finding = attached.length ? (JSON.parse(String(attached[attached.length - 1].body)) as FindingRecord) : undefined;
  return { finding, ran };
}

test.describe.serial('generated runs side by side', () => {
  test.beforeEach(() => {
    process.env.OMS_RUN_ID = `selftest-concurrency-${process.pid}-${test.info().testId}`;
  });
  test.afterEach(() => forgetRun(process.env.OMS_RUN_ID as string));

  test('the same seed gives the same counterexample, shrunk the same way, with the same replay path, at concurrency 1, 4 and 16', async () => {
    const results = [];
    for (const concurrency of [1, 4, 16]) {
      forgetRun(process.env.OMS_RUN_ID as string);
      results.push(await runAt(concurrency));
    }
    const [one, ...others] = results;
    expect(one.finding?.requirementId).toBe('ORD-LIST-004');
    for (const other of others) {
      expect(other.finding?.received).toBe(one.finding?.received);
      expect(other.finding?.replay).toEqual(one.finding?.replay);
    }
    // Run side by side, the generated runs really overlapped: more inputs started than one at a time would before the first failure.
    expect(new Set(results[2].ran.slice(0, 16)).size).toBeGreaterThan(1);
  });

  test('a property that holds is run on the same inputs at any concurrency', async () => {
    const inputs = [];
    for (const concurrency of [1, 16]) {
      const ran: number[] = [];
      const settings = readSettings({ OMS_FAILURE_STORE: 'off', OMS_EFFORT: 'quick', OMS_SEED: SEED, OMS_CONCURRENCY: String(concurrency) });
      await forAll(settings, {
        input: fc.integer({ min: 0, max: 1_000_000 }),
        numRuns: 30,
        run: async (value: number) => {
          ran.push(value);
          await sleep(Math.floor(Math.random() * 8));
          return undefined;
        },
      });
      inputs.push([...ran].sort((a, b) => a - b));
    }
    expect(inputs[0]).toHaveLength(30);
    expect(inputs[1]).toEqual(inputs[0]);
  });

  test('the whole suite against a fault only generated runs find: the same failed requirements and replay at concurrency 1 and 12', async () => {
    const runs: SuiteRun[] = [];
    for (const concurrency of ['1', '12']) {
      runs.push(await runSuite({ OMS_FAULT: 'update-mangles-non-ascii', OMS_SEED: SEED, OMS_CONCURRENCY: concurrency }, ['--grep', 'generated orders']));
    }
    const [one, twelve] = runs;
    expect(one.exitCode, one.output.slice(-2000)).toBe(1);
    const failed = (run: SuiteRun) => failedRequirements(run.report).map((r) => r.id);
    expect(failed(twelve)).toEqual(failed(one));
    const replays = (run: SuiteRun) => failedRequirements(run.report).flatMap((r) => r.findings.map((f) => f.replay).filter(Boolean));
    expect(replays(twelve)).toEqual(replays(one));
  });
});
