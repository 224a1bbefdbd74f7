import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { bodyBytes, holdsNonUtf8Bytes, MAX_JSON_DEPTH, nonUtf8Byte, parseJson, TOO_DEEP } from '../contract/exchange';
import { contract, excerpt, formatProblems } from '../contract/openapi';
import { instantOf, isIso8601DateTime } from '../contract/datetime';
import { changesBetween, differences } from '../checks/roundtrip';

const validOrder = {
  id: 'o-1',
  user_id: '4f1c2b7e-8a3d-4c5e-9f60-1a2b3c4d5e6f',
  customer: { name: 'Ada', email: { main: 'a@example.com' }, address: { street: 's', country_code: 'TR' } },
  items: [{ name: 'mug', quantity: 1, price: 2.5, total: 2.5 }],
  currency: 'EUR',
  price: 2.5,
  status: 'created',
  shipments: [],
  activities: [],
  created_at: '2026-11-21T10:00:00Z',
  updated_at: '2026-11-21T10:00:00.123+03:00',
  deleted_at: null,
};

test('accepts a full-form order and any extra field', () => {
  expect(contract().response('getOrder', 200)!.problems({ ...validOrder, extra_field: { any: 'thing' } })).toEqual([]);
});

test('points at what is wrong in a full-form order, with what was expected and what came back', () => {
  const broken = { ...validOrder, id: 42, user_id: 'not-a-uuid', items: [{ price: '2.50' }], created_at: 'Sat Nov 21 2026' } as Record<string, unknown>;
  delete broken.updated_at;
  const message = formatProblems(contract().response('createOrder', 201)!.problems(broken));
  expect(message).toContain('at /id: expected type string, got 42');
  expect(message).toContain('at /user_id: expected format uuid, got "not-a-uuid"');
  expect(message).toContain('at /items/0/price: expected type number, got "2.50"');
  expect(message).toContain('at /created_at: expected format date-time');
  expect(message).toContain('at /updated_at: expected a required field (it is missing)');
});

test('accepts both documented delete shapes and nothing else', () => {
  const check = contract().response('deleteOrder', 200)!;
  expect(check.problems({ message: 'Order deleted' })).toEqual([]);
  expect(check.problems({ success: true, meta: { status: 200, code: 'deleted', message: 'ok', total: 0, details: [] } })).toEqual([]);
  expect(check.problems({ deleted: true })).not.toEqual([]);
});

test('validates the list envelope and the error envelope', () => {
  expect(contract().response('listOrders', 200)!.problems({ success: true, meta: { status: 200, message: 'ok', total: 0 }, data: [] })).toEqual([]);
  expect(contract().response('listOrders', 200)!.problems({ data: [] }).map((p) => p.pointer)).toEqual(['/success', '/meta']);
  expect(contract().response('getOrder', 404)!.problems({ meta: { status: 404, code: 'not_found', message: 'no' } })).toEqual([]);
  expect(contract().response('getOrder', 404)!.problems({ error: 'not found' }).map((p) => p.pointer)).toEqual(['/meta']);
});

test('takes any ISO 8601 date-time, whatever its precision and offset, and nothing else', () => {
  for (const ok of ['2026-11-21T10:00:00Z', '2026-11-21T10:00:00.123456Z', '2026-11-21T13:00:00+03:00', '2026-11-21T10:00Z', '2026-11-21T10:00:00']) {
    expect(isIso8601DateTime(ok), ok).toBe(true);
  }
  for (const bad of ['2026-11-21 10:00:00', '21/11/2026', '1763719200', '2026-02-30T10:00:00Z', '2026-11-21T25:00:00Z', 'Sat Nov 21 2026']) {
    expect(isIso8601DateTime(bad), bad).toBe(false);
  }
});

test('compares round trips by value: text in NFC, numbers by value, timestamps by instant, null as absent', () => {
  expect(differences({ a: 'e\u0301', n: 1.5, t: '2026-11-21T10:00:00Z', x: null }, { a: '\u00e9', n: 1.50, t: '2026-11-21T13:00:00.000+03:00' })).toEqual([]);
  expect(differences({ items: [{ name: 'a' }, { name: 'b' }] }, { items: [{ name: 'b' }, { name: 'a' }] }).map((d) => d.pointer)).toEqual(['/items/0/name', '/items/1/name']);
  expect(differences({ note: 12.345 }, { note: 12.35 })).toHaveLength(1);
  expect(differences({ name: 'Zoë' }, { name: 'ZoÃ«' })).toHaveLength(1);
});

test('compares amounts to the cent only where the server answers cents, and never further off', () => {
  // price is an x-amount of openapi.yaml: NUMERIC(12,2) storage rounds a half cent either way.
  expect(differences({ price: 12.345 }, { price: 12.35 })).toEqual([]);
  expect(differences({ price: 12.345 }, { price: 12.34 })).toEqual([]);
  expect(differences({ items: [{ price: 7.125 }] }, { items: [{ price: 7.13 }] })).toEqual([]);
  expect(differences({ price: 12.345 }, { price: 12.36 })).toHaveLength(1);
  expect(differences({ price: 12.345 }, { price: 12.3449 })).toHaveLength(1);
  expect(differences({ price: 12.5 }, { price: 13 })).toHaveLength(1);
  // Not an amount: weight is compared by value.
  expect(differences({ items: [{ weight: 0.125 }] }, { items: [{ weight: 0.13 }] })).toHaveLength(1);
  // Between two answers of the server nothing is rounded.
  expect(changesBetween({ price: 12.345 }, { price: 12.35 })).toHaveLength(1);
});

test('skips what the service may compute, only when comparing with what was sent', () => {
  const sent = { billing: { sub_total: 46.375, tax: 8.42, total: 59.795, shipping: 5 }, items: [{ total: 1 }] };
  const computed = { billing: { sub_total: 46.38, tax: 8.35, total: 59.73, shipping: 5 }, items: [{ total: 2.5 }] };
  expect(differences(sent, computed)).toEqual([]);
  expect(differences(sent, { ...computed, billing: { ...computed.billing, shipping: 6 } }).map((d) => d.pointer)).toEqual(['/billing/shipping']);
  expect(changesBetween(computed, { ...computed, billing: { ...computed.billing, total: 1 } }).map((d) => d.pointer)).toEqual(['/billing/total']);
});

test('compares timestamps at the precision the server stores them, never weaker', () => {
  expect(differences({ placed_at: '2026-11-20T09:30:15.123Z' }, { placed_at: '2026-11-20T09:30:15Z' })).toEqual([]);
  expect(differences({ placed_at: '2026-11-20T09:30:15.723Z' }, { placed_at: '2026-11-20T12:30:16+03:00' })).toEqual([]);
  expect(differences({ placed_at: '2026-11-20T09:30:15.123Z' }, { placed_at: '2026-11-20T09:30:14Z' })).toHaveLength(1);
  expect(differences({ placed_at: '2026-11-20T09:30:15.123Z' }, { placed_at: '2026-11-20T09:30:15.120Z' })).toHaveLength(1);
  expect(differences({ placed_at: '2026-11-20T09:30:45Z' }, { placed_at: '2026-11-20T09:30:00Z' })).toHaveLength(1);
});

test('reads every ISO 8601 instant it accepts: hour-only offsets and leap seconds included', () => {
  expect(instantOf('2026-11-20T14:30:00+05')).toBe(Date.parse('2026-11-20T09:30:00Z'));
  expect(instantOf('2026-11-20T14:30:00+0530')).toBe(Date.parse('2026-11-20T09:00:00Z'));
  expect(instantOf('2016-12-31T23:59:60Z')).toBe(Date.parse('2017-01-01T00:00:00Z'));
  expect(instantOf('2026-11-20T09:30:00,5Z')).toBe(Date.parse('2026-11-20T09:30:00.500Z'));
  expect(instantOf('not a time')).toBeNaN();
  expect(differences({ t: '2026-11-20T14:30:00+05' }, { t: '2026-11-20T09:30:00Z' })).toEqual([]);
  expect(differences({ t: '2016-12-31T23:59:60Z' }, { t: '2016-12-31T23:59:60Z' })).toEqual([]);
});

test('holds responses to the type of client-sent fields, and requests to their format', () => {
  const address = { street: '', city: '', country_code: '' };
  expect(contract().component('Address').problems(address)).toEqual([]);
  expect(contract().component('Address', 'request').problems(address).map((p) => p.pointer)).toEqual(['/country_code']);
  expect(contract().response('getOrder', 200)!.problems({ id: 'x', user_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', status: 'created', created_at: '2026-11-20T09:30:00Z', updated_at: '2026-11-20T09:30:00Z', deleted_at: null, customer: {}, items: [], currency: 'EUR', price: 1, placed_at: '', sales_channel: { updated_at: '' } })).toEqual([]);
  expect(contract().response('getOrder', 200)!.problems({ id: 'x', user_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', status: 'created', created_at: '', updated_at: '2026-11-20T09:30:00Z', deleted_at: null, customer: {}, items: [], currency: 'EUR', price: 1 }).map((p) => p.pointer)).toEqual(['/created_at']);
  // The fields a create requires are never null or absent in the full form (ORD-FORM-001): no update may clear them.
  expect(contract().response('getOrder', 200)!.problems({ id: 'x', user_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', status: 'created', created_at: '2026-11-20T09:30:00Z', updated_at: '2026-11-20T09:30:00Z', deleted_at: null, customer: null, items: [], currency: 'EUR' }).map((p) => p.pointer).sort()).toEqual(['/customer', '/price']);
});

test('the text of a request body stands for exactly its bytes: UTF-8, and each byte that is not UTF-8 as itself; no JSON.stringify output holds such a byte', () => {
  const segment = fc.oneof(fc.string({ unit: 'binary', maxLength: 8 }), fc.integer({ min: 0x80, max: 0xff }));
  fc.assert(
    fc.property(fc.array(segment, { maxLength: 8 }), (segments) => {
      const text = segments.map((part) => (typeof part === 'number' ? nonUtf8Byte(part) : part)).join('');
      const bytes = Buffer.concat(segments.map((part) => (typeof part === 'number' ? Buffer.of(part) : Buffer.from(part, 'utf8'))));
      expect(bodyBytes(text).equals(bytes)).toBe(true);
      expect(holdsNonUtf8Bytes(text)).toBe(segments.some((part) => typeof part === 'number'));
    }),
    { numRuns: 500 },
  );
  fc.assert(fc.property(fc.jsonValue(), fc.string({ unit: 'binary-ascii' }), (value, text) => !holdsNonUtf8Bytes(JSON.stringify({ value, text, half: '\udcff' }))));
  expect(() => nonUtf8Byte(0x7f)).toThrow(RangeError);
});

test('excerpt shows a value as the start of its JSON text, however large, and one nested deeper than JSON.stringify can write', () => {
  const clipped = (value: unknown, max: number) => {
    const text = value === undefined ? 'undefined' : JSON.stringify(value);
    return text.length > max ? `${text.slice(0, max)}…` : text;
  };
  fc.assert(fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 200 }), (value, max) => excerpt(value, max) === clipped(value, max)), { numRuns: 2_000 });
  expect([excerpt(undefined, 4), excerpt(new Date(0), 30), excerpt({ a: undefined, b: [undefined] })]).toEqual(['unde…', '"1970-01-01T00:00:00.000Z"', '{"b":[null]}']);
  const deep = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as unknown;
  expect(() => JSON.stringify(deep)).toThrow(RangeError);
  expect(excerpt(deep, 10)).toBe(`${'['.repeat(10)}…`);
});

test('a parsed body keeps its arrays and objects to MAX_JSON_DEPTH levels, each deeper one a note, and leaves a shallower body as JSON.parse reads it', () => {
  fc.assert(fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => expect(parseJson(JSON.stringify(value) ?? 'null')).toEqual(JSON.parse(JSON.stringify(value) ?? 'null'))), { numRuns: 500 });
  const deep = parseJson(`{"a":${'['.repeat(30_000)}${']'.repeat(30_000)},"__proto__":${'{"b":'.repeat(100)}1${'}'.repeat(100)}}`) as Record<string, unknown>;
  let level = deep.a;
  // deep.a is at level 2: the array at level MAX_JSON_DEPTH is kept, holding the note that stands for the rest.
  for (let depth = 2; depth < MAX_JSON_DEPTH; depth++) level = (level as unknown[])[0];
  expect(level).toEqual([TOO_DEEP]);
  expect([Object.getPrototypeOf(deep), Object.keys(deep)]).toEqual([Object.prototype, ['a', '__proto__']]);
});
