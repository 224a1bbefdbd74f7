import { expect, test } from '@playwright/test';
import { orderCoverage, queryCoverage } from '../generators/coverage';
import { boundaryValues } from '../generators/query';
import { bounds } from '../contract/query';
import { clientFields, requiredFields } from '../generators/schema';
import { failedRequirements, runSuite } from './support/run-suite';

const PHASE = ['tests/properties/coverage-phase.spec.ts'];

test('the coverage phase covers every bound ± 1 of page and limit and every optional field of a create, the same every run', () => {
  const queries = queryCoverage().map((c) => c.input);
  for (const name of ['page', 'limit'] as const) {
    const { minimum, maximum } = bounds(name);
    for (const value of [minimum - 1, minimum, minimum + 1, ...(maximum === undefined ? [] : [maximum - 1, maximum, maximum + 1])]) expect(queries).toContainEqual({ [name]: value });
    expect(queries.filter((q) => name in q)).toHaveLength(boundaryValues(name).length);
  }
  const orders = orderCoverage();
  const required: string[] = requiredFields('OrderCreate');
  expect(Object.keys(orders[0].input).sort()).toEqual([...required].sort());
  for (const field of clientFields('OrderCreate').filter((f) => !required.includes(f))) {
    expect(orders.some((c) => Object.keys(c.input).length === required.length + 1 && field in c.input), field).toBe(true);
  }
  expect(JSON.stringify(orderCoverage())).toBe(JSON.stringify(orders));
});

test.describe('the coverage phase against servers', () => {
  test.setTimeout(5 * 60_000);

  for (const [behaviour, variable, failed] of [
    ['clean', undefined, []],
    ['clamp-paging', 'OMS_VARIANT', []],
    ['list-bad-parameter-500', 'OMS_FAULT', ['ORD-LIST-010']],
    ['create-drops-last-item', 'OMS_FAULT', ['ORD-CREATE-004']],
  ] as const) {
    test(`${behaviour}: ${failed.length ? `caught as ${failed.join(', ')}` : 'passes'}`, async () => {
      const run = await runSuite(variable ? { [variable]: behaviour, OMS_PROFILE: 'strict' } : { OMS_PROFILE: 'strict' }, PHASE);
      expect(failedRequirements(run.report).map((r) => r.id), run.output.slice(-3000)).toEqual(failed);
      const tests = run.report!.requirements.flatMap((r) => r.tests);
      expect(tests.some((t) => t.includes(`coverage phase: ${queryCoverage().length + orderCoverage().length} deterministic cases`))).toBe(true);
    });
  }
});
