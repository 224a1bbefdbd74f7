import { expect, test } from '@playwright/test';
import { apart, asUpdate, createEdgeBodies, BOOLEAN_EDGES, DATE_TIME_EDGES, INTEGER_EDGES, type EdgeBody, NUMBER_EDGES, fieldsOfType, oneByOne, orderCoverage, queryCoverage, updateEdges } from '../generators/coverage';
import { minimalOrder, sameButReferences } from '../contract/examples';
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
  expect(orderCoverage().map((c) => sameButReferences(c.input))).toEqual(orders.map((c) => sameButReferences(c.input)));
});

test('the edge catalogue sends every value of issue 28 as its JSON text, one name per value, the same every run', () => {
  const bodies = createEdgeBodies(() => minimalOrder() as Record<string, unknown>);
  const texts = bodies.map((body) => body.text).join('\n');
  // The literals JSON.stringify cannot write go out as written; the rest as JSON.stringify writes them.
  for (const literal of [':1e400', ':-1e400', ':1e-400', ':-0,', ':1e2', ':2147483647', ':2147483648', ':4294967296', ':9007199254740992', ':9223372036854775808', ':1e308', ':2.5', ':"3"', ':true']) {
    expect(texts, literal).toContain(literal);
  }
  for (const text of ['\\u0000', '\\u001f', '\\ud800', 'x'.repeat(10_000), 'שלום', 'a\u0301', '👩‍👩‍👧‍👦', 'é'.normalize('NFC'), 'é'.normalize('NFD')]) expect(texts, text).toContain(text);
  for (const field of ['customer', 'items', 'payment', 'billing', 'sales_channel', 'customer.address', 'customer.email', 'items[0].dimensions']) {
    expect(bodies.some((body) => body.name === `${field} = null`), field).toBe(true);
  }
  for (const body of bodies) {
    expect(JSON.parse(body.text.replace(/:-?1e400/g, ':0')), body.name).toBeTruthy();
    expect(new Set(body.cases.map((c) => c.name)).size, body.name).toBe(body.cases.length);
    // A body of several values comes apart into one body per value, each named as the value.
    const alone = oneByOne(body);
    expect(alone.map((one) => one.name)).toEqual(body.cases.length > 1 ? body.cases.map((c) => c.name) : [body.name]);
    // Refused, it is sent again in parts until each part is one case: one value in one field, named as the case.
    const ends = (parts: EdgeBody[]): EdgeBody[] => parts.flatMap((one) => (apart(one).length === 0 ? [one] : ends(apart(one))));
    expect(ends([body]).map((one) => one.cases.map((c) => c.name)).sort()).toEqual(body.edges.length > 1 ? body.cases.map((c) => [c.name]).sort() : [body.cases.map((c) => c.name)]);
    expect(asUpdate(body).text).not.toContain('"payment"');
  }
  const names = createEdgeBodies(() => minimalOrder() as Record<string, unknown>).map((body) => body.name);
  expect(names).toEqual(bodies.map((body) => body.name));
  const updates = updateEdges().map((edge) => edge.name);
  for (const name of ['update price = 0', 'update price = null', 'update note = ""', 'update note = null', 'update items = []', 'update customer = {}', 'update currency = ""', 'update items[0].quantity = 2.5 (not an integer)', 'update items[0].weight = 1e400 (overflows a double)', 'update price = 1e400 (overflows a double)']) expect(updates).toContain(name);
  expect(updateEdges().find((edge) => edge.name === 'update price = 1e400 (overflows a double)')?.text).toBe('{"price":1e400}');
});

test('every number, integer, boolean and date-time field a create sends gets every edge value of its type, and two items of one name go on purpose', () => {
  const number = fieldsOfType('number').map((path) => path.join('.'));
  // Read from openapi.yaml: the fields a client sends, at every depth, never those the service assigns.
  for (const field of ['price', 'items.*.price', 'items.*.weight', 'items.*.dimensions.length', 'items.*.discount', 'items.*.tax_rate', 'billing.shipping', 'billing.discount', 'billing.total']) expect(number).toContain(field);
  for (const assigned of ['items.*.total', 'billing.shipping_tax_rate']) expect(number).not.toContain(assigned);
  expect(fieldsOfType('integer').map((path) => path.join('.'))).toEqual(['items.*.quantity']);
  const bodies = createEdgeBodies(() => minimalOrder() as Record<string, unknown>);
  const cases = bodies.flatMap((body) => body.cases.map((c) => c.name));
  expect(fieldsOfType('boolean').map((path) => path.join('.'))).toEqual(['sales_channel.mark_as_paid', 'sales_channel.use_carrier_tracking_page']);
  expect(fieldsOfType('date-time').map((path) => path.join('.'))).toEqual(['sales_channel.updated_at', 'placed_at']);
  for (const [type, values] of [['number', NUMBER_EDGES], ['integer', INTEGER_EDGES], ['boolean', BOOLEAN_EDGES], ['date-time', DATE_TIME_EDGES]] as const) {
    for (const path of fieldsOfType(type)) {
      // items[3].weight = 2^31 names the field as items.*.weight.
      for (const value of values) expect(cases.map((name) => name.replace(/\[\d+\]/g, '.*')), `${path.join('.')} = ${value.label}`).toContain(`${path.join('.')} = ${value.label}`);
    }
  }
  const twins = bodies.filter((body) => /two items/.test(body.name)).map((body) => body.denoted as { items: Array<Record<string, unknown>> });
  expect(twins).toHaveLength(3);
  for (const { items } of twins) expect([items.length, items[0].name === items[1].name]).toEqual([2, true]);
  expect(twins.some(({ items }) => items[0].price !== items[1].price)).toBe(true);
  expect(twins.some(({ items }) => JSON.stringify(items[0]) === JSON.stringify(items[1]))).toBe(true);
  // Only those: the bundles name their items apart, so a store that merges items of one name is caught by name.
  const others = bodies.filter((body) => !/two items/.test(body.name)).map((body) => (body.denoted as { items?: Array<{ name?: unknown }> }).items ?? []);
  for (const items of others) expect(new Set(items.map((item) => JSON.stringify(item?.name))).size).toBe(items.length);
});

test('totals and sums past a double go on purpose: 1e308 times 2 and 10, two items of 1e308 with billing, each a case a server may refuse or take', () => {
  const products = createEdgeBodies(() => minimalOrder() as Record<string, unknown>).filter((body) => /beyond/.test(body.name) && /1e308/.test(body.name));
  const shown = products.map((body) => (body.denoted as { items: Array<{ price: number; quantity: number }> }).items.map(({ price, quantity }) => [price, quantity]));
  expect(shown).toEqual([[[1e308, 2]], [[1e308, 10]], [[1e308, 1], [1e308, 1]]]);
  for (const body of products) {
    const { items } = body.denoted as { items: Array<{ price: number; quantity: number }> };
    // Each value is a double; their product or sum is not.
    expect(items.every(({ price, quantity }) => Number.isFinite(price) && Number.isFinite(quantity))).toBe(true);
    expect(Number.isFinite(items.reduce((sum, { price, quantity }) => sum + price * quantity, 0))).toBe(false);
    expect(body.cases.map(({ pointer, readings }) => [pointer, readings])).toEqual([['/items', ['refused', 'taken']]]);
    // One case: a refused one is not sent again in parts.
    expect(apart(body)).toEqual([]);
  }
  expect((products[2].denoted as { billing?: unknown }).billing).toBeDefined();
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
    ['text-nul-answered-500', 'OMS_FAULT', ['ORD-ERR-008', 'ORD-ERR-010']],
    ['create-merges-repeated-items', 'OMS_FAULT', ['ORD-CREATE-004', 'ORD-GET-002']],
    ['billing-amounts-clamped', 'OMS_FAULT', ['ORD-CREATE-004', 'ORD-GET-002']],
    ['update-quantity-fraction-truncated', 'OMS_FAULT', ['ORD-UPDATE-002', 'ORD-UPDATE-003']],
    ['null-payment-stored-as-example', 'OMS_FAULT', ['ORD-CREATE-004', 'ORD-GET-002']],
    ['lone-surrogate-cuts-text', 'OMS_FAULT', ['ORD-CREATE-004', 'ORD-GET-002', 'ORD-UPDATE-002', 'ORD-UPDATE-003']],
    ['null-on-create=not-sent-with-defaults,null-on-update=ignored,wrong-types=dropped-by-binder,lone-surrogates=question-mark,content-coding=gzip-always,channel-reference=unique-409', 'OMS_KNOBS', []],
    ['amounts=cents,billing-totals=computed,item-total=with-tax-and-discount,unicode-form=nfd,lone-surrogates=replaced,non-finite-numbers=taken', 'OMS_KNOBS', []],
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
