import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { createEdgeBodies, updateEdges } from '../generators/coverage';
import { invalidOrder, invalidOrderUpdate } from '../generators/invalid';
import { explainingReading, readingsOf, valueAt, withNeighbourAnswer, withoutPointer, type Circumstances, type Reading, type SentValue } from '../checks/readings';
import { fullOrder, minimalOrder } from '../contract/examples';
import { KNOBS } from './reference/variants/knobs';
import { VARIANTS } from './reference/variants';

/**
 * The table of every value the suite sends that the document does not define × every reading it allows
 * (checks/readings.ts): the answer each reading makes is explained, and the answers of readings that lose data
 * are not. Each reading class stands beside the reference knobs that realise it; the named points
 * go-pointer-structs and rails-lax-params run them through the whole suite in the matrix.
 */

/** The knobs (knob=value) that realise each reading; a refusal is the clean server's. */
const READING_KNOBS: Record<Reading, string[]> = {
  refused: ['wrong-types=refused', 'null-on-create=taken', 'non-object-update=refused'],
  taken: ['null-on-create=taken', 'lone-surrogates=kept'],
  'not-sent': ['null-on-create=not-sent-with-defaults', 'null-on-update=ignored', 'wrong-types=dropped-by-binder'],
  empty: ['null-on-create=empty-object-stamped'],
  coerced: ['scalar-coercion=numeric-strings-taken', 'scalar-coercion=pydantic-lax'],
  kept: ['update-null-over-required=ignored', 'wrong-types=dropped-by-binder'],
  replaced: ['lone-surrogates=replaced', 'lone-surrogates=question-mark', 'lone-surrogates=dropped'],
  'no-fields': ['non-object-update=no-fields', 'empty-update-body=read-as-empty-object'],
};

/** Every value of the edge catalogue as sent, and a fixed sample of the generated wrong types, with the body each went in. */
function sentValues(): Array<{ value: SentValue; body: unknown; operation: 'create' | 'update' }> {
  const creates = createEdgeBodies(() => minimalOrder() as Record<string, unknown>).flatMap((body) => body.cases.map((value) => ({ value, body: body.denoted, operation: 'create' as const })));
  const updates = updateEdges().flatMap((edge) => edge.cases.map((value) => ({ value, body: edge.denoted, operation: 'update' as const })));
  const generated = (['create', 'update'] as const).flatMap((operation) =>
    fc
      .sample(operation === 'create' ? invalidOrder() : invalidOrderUpdate(), { seed: 20261129, numRuns: 300 })
      .flatMap((invalid) => (invalid.value && invalid.value.pointer !== '' ? [{ value: invalid.value, body: invalid.body, operation }] : [])),
  );
  return [...creates, ...updates, ...generated];
}

/** What a control create without the value at `pointer` answered (`control`, the whole order). */
function unsentShows(pointer: string, control: unknown): Circumstances {
  return withNeighbourAnswer({}, pointer, 'unsent', control);
}

/** What an answer shows at the value's pointer when `reading` made it, with the order as it stood before (`before`). */
function answerOf(reading: Reading, value: SentValue, body: unknown, before: unknown): unknown[] {
  const withValue = (shown: unknown) => {
    const answer = structuredClone(body) as Record<string, unknown>;
    if (value.pointer === '') return shown;
    const keys = value.pointer.slice(1).split('/');
    const parent = valueAt(answer, keys.length > 1 ? `/${keys.slice(0, -1).join('/')}` : '') as Record<string, unknown>;
    parent[keys[keys.length - 1]] = shown;
    return answer;
  };
  switch (reading) {
    case 'taken':
    case 'coerced':
      return [withValue(value.denotes)];
    case 'not-sent':
      // An update may keep a field of the order it omits; a field inside an item it sends anew is not kept.
      return [withoutPointer(body, value.pointer), withValue(null), ...(before !== undefined && /^\/[^/]+$/.test(value.pointer) ? [withValue(valueAt(before, value.pointer))] : [])];
    case 'kept':
      return [withValue(valueAt(before, value.pointer))];
    case 'replaced': {
      const text = String(value.denotes);
      return ['?', '\ufffd', ''].map((by) => withValue(text.replace(/[\ud800-\udfff] ?/, by)));
    }
    default:
      return [];
  }
}

test('every value the suite sends that the document does not define carries its readings, and a refusal among them unless it is a plain value of its type', () => {
  const values = sentValues();
  expect(values.length).toBeGreaterThan(100);
  for (const { value } of values) {
    expect(value.readings.length, value.name).toBeGreaterThan(0);
    if (value.kind !== 'plain') expect(value.readings, value.name).toContain('refused');
  }
  const kinds = new Set(values.map(({ value }) => value.kind));
  for (const kind of ['plain', 'unusual', 'null', 'coercible', 'wrong-type', 'denotes-nothing'] as const) expect([...kinds], kind).toContain(kind);
});

test('the answer each reading makes of each value is explained by that value\'s readings', () => {
  const before = fullOrder();
  let judged = 0;
  for (const { value, body, operation } of sentValues()) {
    for (const reading of value.readings) {
      for (const answer of answerOf(reading, value, body, operation === 'update' ? before : undefined)) {
        const circumstances = operation === 'update' ? { before } : {};
        expect(explainingReading(value, answer, circumstances), `${value.name} ${reading}: ${JSON.stringify(valueAt(answer, value.pointer))}`).toBeDefined();
        judged += 1;
      }
    }
  }
  expect(judged).toBeGreaterThan(200);
});

test('a value read as not sent on a create may hold what the service gives the field unsent, and nothing else', () => {
  const value: SentValue = { name: 'payment = null', pointer: '/payment', kind: 'null', denotes: null, readings: readingsOf('null', { operation: 'create', required: false }) };
  const defaults = { method: '', status: '', type: 'online' };
  const answer = { payment: defaults };
  expect(explainingReading(value, answer)).toBeUndefined();
  expect(explainingReading(value, answer, unsentShows('/payment', { payment: defaults }))).toBe('not-sent');
  // A time the service stamps differs between the two creates; an invented value does not pass for a default.
  const channel: SentValue = { ...value, name: 'sales_channel = null', pointer: '/sales_channel' };
  const stamped = (at: string) => ({ sales_channel: { id: '', mark_as_paid: false, updated_at: at } });
  expect(explainingReading(channel, stamped('2026-11-29T03:00:01Z'), unsentShows('/sales_channel', stamped('2026-11-29T03:00:00Z')))).toBe('not-sent');
  expect(explainingReading(value, { payment: { method: 'card', status: 'completed' } }, unsentShows('/payment', {}))).toBeUndefined();
});

test('readings that lose data explain nothing: 2.5 stored as 2, null stored as 0 over a price, text cut at a lone surrogate, a sent 0 ignored by an update', () => {
  const before = { price: 25, items: [{ quantity: 2 }], note: 'Leave at the door' };
  const quantity: SentValue = { name: 'quantity = 2.5', pointer: '/items/0/quantity', kind: 'wrong-type', denotes: 2.5, readings: readingsOf('wrong-type', { operation: 'create', required: false }) };
  expect(explainingReading(quantity, { items: [{ quantity: 2 }] }, unsentShows('/items/0/quantity', { items: [{}] }))).toBeUndefined();
  const price: SentValue = { name: 'update price = null', pointer: '/price', kind: 'null', denotes: null, readings: readingsOf('null', { operation: 'update', required: true }) };
  expect(price.readings).toEqual(['refused', 'kept']);
  expect(explainingReading(price, { price: 0 }, { before })).toBeUndefined();
  expect(explainingReading(price, { price: 25 }, { before })).toBe('kept');
  const text: SentValue = { name: 'note = a lone surrogate', pointer: '/note', kind: 'denotes-nothing', denotes: 'lone \ud800 surrogate', readings: readingsOf('denotes-nothing', { operation: 'create', required: false }) };
  expect(explainingReading(text, { note: 'lone ?' })).toBeUndefined();
  expect(explainingReading(text, { note: 'lone ?urrogate' })).toBeUndefined();
  expect(explainingReading(text, { note: 'lone ?? surrogate' })).toBeUndefined();
  const zero: SentValue = { name: 'update price = 0', pointer: '/price', kind: 'plain', denotes: 0, readings: readingsOf('plain', { operation: 'update', required: true }) };
  expect(explainingReading(zero, { price: 25 }, { before })).toBeUndefined();
});

test('an update body that is no object may be read as one of no fields; a create body that is no object is refused', () => {
  expect(readingsOf('non-object-body', { operation: 'update', required: false })).toEqual(['refused', 'no-fields']);
  expect(readingsOf('non-object-body', { operation: 'create', required: false })).toEqual(['refused']);
});

test('each reading stands beside the reference knobs that realise it, and the named points run them through the whole suite', () => {
  const known = new Set(KNOBS.flatMap((knob) => knob.values.map((value) => `${knob.name}=${value}`)));
  for (const [reading, knobs] of Object.entries(READING_KNOBS)) {
    expect(knobs.length, reading).toBeGreaterThan(0);
    for (const knob of knobs) expect(known, `${reading}: ${knob}`).toContain(knob);
  }
  const points = VARIANTS.map((variant) => variant.name);
  expect(points).toEqual(expect.arrayContaining(['go-pointer-structs', 'rails-lax-params']));
});
