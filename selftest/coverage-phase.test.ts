import { expect, test } from '@playwright/test';
import { asUpdate, createEdgeBodies, oneByOne, orderCoverage, queryCoverage, updateEdges } from '../generators/coverage';
import { minimalOrder } from '../contract/examples';
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

test('the edge catalogue sends every value of issue 28 as its JSON text, one name per value, the same every run', () => {
  const bodies = createEdgeBodies(() => minimalOrder() as Record<string, unknown>);
  const texts = bodies.map((body) => body.text).join('\n');
  // The literals JSON.stringify cannot write go out as written; the rest as JSON.stringify writes them.
  for (const literal of [':1e400', ':-1e400', ':1e-400', ':-0,', ':1e2', ':2147483647', ':2147483648', ':4294967296', ':9007199254740992', ':9223372036854775808', ':1e308', ':2.5', ':"3"', ':true']) {
    expect(texts, literal).toContain(literal);
  }
  for (const text of ['\\u0000', '\\u001f', '\\ud800', 'x'.repeat(10_000), 'שלום', 'a\u0301']) expect(texts, text).toContain(text);
  for (const field of ['customer', 'items', 'payment', 'billing', 'sales_channel', 'customer.address', 'customer.email', 'items[0].dimensions']) {
    expect(bodies.some((body) => body.name === `${field} = null`), field).toBe(true);
  }
  for (const body of bodies) {
    expect(JSON.parse(body.text.replace(/:-?1e400/g, ':0')), body.name).toBeTruthy();
    expect(new Set(body.cases.map((c) => c.name)).size, body.name).toBe(body.cases.length);
    // A body of several values comes apart into one body per value, each named as the value.
    const alone = oneByOne(body);
    expect(alone.map((one) => one.name)).toEqual(body.cases.length > 1 ? body.cases.map((c) => c.name) : [body.name]);
    expect(asUpdate(body).text).not.toContain('"payment"');
  }
  const names = createEdgeBodies(() => minimalOrder() as Record<string, unknown>).map((body) => body.name);
  expect(names).toEqual(bodies.map((body) => body.name));
  const updates = updateEdges().map((edge) => edge.name);
  for (const name of ['update price = 0', 'update price = null', 'update note = ""', 'update note = null', 'update items = []', 'update customer = {}', 'update currency = ""']) expect(updates).toContain(name);
});

test.describe('the coverage phase against servers', () => {
  test.setTimeout(5 * 60_000);

  for (const [behaviour, variable, failed] of [
    ['clean', undefined, []],
    ['clamp-paging', 'OMS_VARIANT', []],
    ['list-bad-parameter-500', 'OMS_FAULT', ['ORD-LIST-010']],
    ['create-drops-last-item', 'OMS_FAULT', ['ORD-CREATE-004', 'ORD-GET-002']],
    ['quantity-int32-wrap', 'OMS_FAULT', ['ORD-CREATE-004', 'ORD-GET-002', 'ORD-UPDATE-002', 'ORD-UPDATE-003']],
    ['update-ignores-falsy-values', 'OMS_FAULT', ['ORD-UPDATE-002', 'ORD-UPDATE-003']],
    ['text-nul-answered-500', 'OMS_FAULT', ['ORD-ERR-008']],
    ['control-text=refused,number-literals=plain-decimals-only,scalar-coercion=pydantic-lax,update-null-over-required=ignored,exotic-values=all-refused', 'OMS_KNOBS', []],
  ] as const) {
    test(`${behaviour}: ${failed.length ? `caught as ${failed.join(', ')}` : 'passes'}`, async () => {
      const run = await runSuite(variable ? { [variable]: behaviour, OMS_PROFILE: 'strict' } : { OMS_PROFILE: 'strict' }, PHASE);
      expect(failedRequirements(run.report).map((r) => r.id), run.output.slice(-3000)).toEqual(failed);
      const tests = run.report!.requirements.flatMap((r) => r.tests);
      expect(tests.some((t) => t.includes(`coverage phase: ${queryCoverage().length + orderCoverage().length} deterministic cases`))).toBe(true);
    });
  }
});
