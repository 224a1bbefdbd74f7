import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { createEdgeBodies, updateEdges } from '../generators/coverage';
import { invalidOrder, invalidOrderUpdate } from '../generators/invalid';
import { explainingPathIdReading, explainingReading, explanationOf, nextNeighbour, pathIdAnswered, placeAt, readingsOf, valueAt, withNeighbourAnswer, withoutPointer, type Circumstances, type Neighbour, type Reading, type SentValue } from '../checks/readings';
import { idExtensions } from '../generators/order-id';
import type { Exchange } from '../contract/exchange';
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
  empty: ['empty-objects=null-as-empty-stamped', 'update-omitted=replace-null-as-omitted', 'null-scalars=zero-values'],
  coerced: ['scalar-coercion=numeric-strings-taken', 'scalar-coercion=pydantic-lax', 'order-id-check=trimmed-and-read-as-number'],
  kept: ['update-null-over-required=ignored', 'wrong-types=dropped-by-binder', 'update-omitted=replace-null-as-omitted'],
  replaced: ['lone-surrogates=replaced', 'lone-surrogates=question-mark', 'lone-surrogates=dropped'],
  'no-fields': ['non-object-update=no-fields', 'empty-update-body=read-as-empty-object'],
};

/**
 * The knobs that realise a reading only the answer to a neighbour explains: a null read as not sent, the service's
 * defaults filled in (the field not sent); a null read as {} with a stamped time (the empty value); a replacing update
 * that reads null as omitted (the same update without the field, on a twin). The value it coerces to is a neighbour
 * no knob needs yet: every coercing knob stores the value the text denotes, which a fixed reading explains.
 */
const NEIGHBOUR_KNOBS: Partial<Record<Neighbour, string[]>> = {
  unsent: ['null-on-create=not-sent-with-defaults', 'update-omitted=replace-null-as-omitted'],
  empty: ['empty-objects=null-as-empty-stamped'],
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

/** `body` with `shown` at the value's pointer (the body itself where the pointer is ''). */
function withValueAt(body: unknown, pointer: string, shown: unknown): unknown {
  if (pointer === '') return shown;
  const answer = structuredClone(body) as Record<string, unknown>;
  const keys = pointer.slice(1).split('/');
  (valueAt(answer, keys.length > 1 ? `/${keys.slice(0, -1).join('/')}` : '') as Record<string, unknown>)[keys[keys.length - 1]] = shown;
  return answer;
}

/** What a control create without the value at `pointer` answered (`control`, the whole order). */
function unsentShows(pointer: string, control: unknown): Circumstances {
  return withNeighbourAnswer({}, pointer, 'unsent', control);
}

/** What an answer shows at the value's pointer when `reading` made it, with the order as it stood before (`before`). */
function answerOf(reading: Reading, value: SentValue, body: unknown, before: unknown): unknown[] {
  const withValue = (shown: unknown) => withValueAt(body, value.pointer, shown);
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

/** The neighbour each reading names, where its answer can explain what no fixed reading does. */
const NAMED: Partial<Record<Reading, Neighbour>> = { 'not-sent': 'unsent', kept: 'unsent', empty: 'empty', coerced: 'coerced' };

test("the answer each reading makes of each value, where the service answers it as it answers the neighbour the reading names, is explained by that neighbour's answer, stamped values aside, and not without it", () => {
  const before = fullOrder();
  const stamp = (second: number) => `2026-12-01T21:18:0${second}.095Z`;
  let judged = 0;
  for (const { value, body, operation } of sentValues()) {
    for (const reading of value.readings) {
      const neighbour = NAMED[reading];
      // An element of an array is no field to leave out (nextNeighbour sends no such control).
      if (neighbour === undefined || (neighbour === 'unsent' && /\/\d+$/.test(value.pointer))) continue;
      // What the service adds of its own (a time it stamps) is what it answers at the pointer, here and to the neighbour.
      const shown = (second: number) => withValueAt(body, value.pointer, { updated_at: stamp(second) });
      const circumstances = { ...(operation === 'update' && { before }), ...withNeighbourAnswer({}, value.pointer, neighbour, shown(0)) };
      const answer = shown(7);
      expect(explainingReading(value, answer, operation === 'update' ? { before } : {}), `${value.name} ${reading} without its neighbour`).toBeUndefined();
      expect(nextNeighbour(value, answer, operation === 'update' ? { before } : {}), value.name).toBeDefined();
      expect(explanationOf(value, answer, circumstances)?.by, `${value.name} ${reading}`).toBe(neighbour);
      judged += 1;
    }
  }
  expect(judged).toBeGreaterThan(100);
});

test('the cases met (issue 44): sales_channel null answered {"updated_at": …} as the service answers {}; customer null cleared by a replacing update as the same update without customer clears a twin', () => {
  const channel: SentValue = { name: 'sales_channel = null', pointer: '/sales_channel', kind: 'null', denotes: null, readings: readingsOf('null', placeAt('/sales_channel', 'create')) };
  expect(channel.readings).toEqual(['refused', 'taken', 'not-sent', 'empty']);
  const answer = { sales_channel: { updated_at: '2026-12-01T21:18:07.095Z' } };
  // The field not sent first: the service leaves it out, which explains nothing; then {}, which it answers the same way.
  expect(nextNeighbour(channel, answer)).toBe('unsent');
  const unsent = withNeighbourAnswer({}, '/sales_channel', 'unsent', {});
  expect(explanationOf(channel, answer, unsent)).toBeUndefined();
  expect(nextNeighbour(channel, answer, unsent)).toBe('empty');
  const empty = withNeighbourAnswer(unsent, '/sales_channel', 'empty', { sales_channel: { updated_at: '2026-12-01T21:18:07.311Z' } });
  expect(explanationOf(channel, answer, empty)).toEqual({ reading: 'empty', by: 'empty' });
  expect(nextNeighbour(channel, answer, empty)).toBeUndefined();
  // Compared at its pointer: a field the service computes, or shows in some answers only, differs freely.
  const billing: SentValue = { ...channel, name: 'billing = null', pointer: '/billing' };
  const computed = { billing: { sub_total: 25, tax: 4.5, total: 29.5 } };
  const control = withNeighbourAnswer(withNeighbourAnswer({}, '/billing', 'unsent', {}), '/billing', 'empty', { billing: { shipping_tax_rate: 18, sub_total: 30, tax: 5.4, total: 35.4 } });
  expect(explanationOf(billing, computed, control)).toEqual({ reading: 'empty', by: 'empty' });
  // An example stored for null is not what {} gives.
  expect(explanationOf(channel, { sales_channel: { id: 'webshop', updated_at: '2026-12-01T21:18:07.095Z' } }, empty)).toBeUndefined();

  const before = fullOrder() as Record<string, unknown>;
  const customer: SentValue = { name: 'update customer = null', pointer: '/customer', kind: 'null', denotes: null, readings: readingsOf('null', placeAt('/customer', 'update')) };
  expect(customer.readings).toEqual(['refused', 'kept', 'empty']);
  const cleared = (id: string) => ({ customer: { id, name: '', company: '', tax_id: '', tax_office: '', email: { main: '', work: '' } } });
  expect(explanationOf(customer, cleared('417'), { before })).toBeUndefined();
  expect(nextNeighbour(customer, cleared('417'), { before })).toBe('unsent');
  // The twin's customer has an id of its own: an id the service assigns may differ.
  expect(explanationOf(customer, cleared('417'), { before, ...withNeighbourAnswer({}, '/customer', 'unsent', cleared('418')) })).toEqual({ reading: 'kept', by: 'unsent' });
  // A merge service keeps the twin's customer: a cleared one is then not what omission does.
  expect(explanationOf(customer, cleared('417'), { before, ...withNeighbourAnswer({}, '/customer', 'unsent', { customer: before.customer }) })).toBeUndefined();
});

test('whatever the neighbours show, these stay unexplained, and no control is sent for them: null stored over a field every order holds, 2.5 stored as 2, text of a text field changed; a sent 0 has no neighbour', () => {
  const customer: SentValue = { name: 'update customer = null', pointer: '/customer', kind: 'null', denotes: null, readings: readingsOf('null', placeAt('/customer', 'update')) };
  const nulled = withNeighbourAnswer({ before: fullOrder() }, '/customer', 'unsent', { customer: null });
  expect(explanationOf(customer, { customer: null }, nulled)).toBeUndefined();
  expect(nextNeighbour(customer, { customer: null }, { before: fullOrder() })).toBeUndefined();
  const quantity: SentValue = { name: 'quantity = 2.5', pointer: '/items/0/quantity', kind: 'wrong-type', denotes: 2.5, readings: readingsOf('wrong-type', placeAt('/items/0/quantity', 'create')) };
  const two = { items: [{ quantity: 2 }] };
  expect(explanationOf(quantity, two, withNeighbourAnswer({}, '/items/0/quantity', 'unsent', two))).toBeUndefined();
  expect(nextNeighbour(quantity, two)).toBeUndefined();
  const note: SentValue = { name: 'note = "Zoë" (as a coercible value)', pointer: '/note', kind: 'coercible', denotes: 'Zoë', readings: readingsOf('coercible', placeAt('/note', 'create')) };
  expect(explanationOf(note, { note: 'Zo?' }, withNeighbourAnswer({}, '/note', 'coerced', { note: 'Zo?' }))).toBeUndefined();
  const zero: SentValue = { name: 'update price = 0', pointer: '/price', kind: 'plain', denotes: 0, readings: readingsOf('plain', placeAt('/price', 'update')) };
  expect(nextNeighbour(zero, { price: 25 }, { before: { price: 25 } })).toBeUndefined();
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

test('readings that lose data explain nothing: 2.5 stored as 2, null stored as a price neither held nor empty, text cut at a lone surrogate, a sent 0 ignored by an update', () => {
  const before = { price: 25, items: [{ quantity: 2 }], note: 'Leave at the door' };
  const quantity: SentValue = { name: 'quantity = 2.5', pointer: '/items/0/quantity', kind: 'wrong-type', denotes: 2.5, readings: readingsOf('wrong-type', { operation: 'create', required: false }) };
  expect(explainingReading(quantity, { items: [{ quantity: 2 }] }, unsentShows('/items/0/quantity', { items: [{}] }))).toBeUndefined();
  const price: SentValue = { name: 'update price = null', pointer: '/price', kind: 'null', denotes: null, readings: readingsOf('null', placeAt('/price', 'update')) };
  expect(price.readings).toEqual(['refused', 'kept', 'empty']);
  expect(explainingReading(price, { price: 9.99 }, { before })).toBeUndefined();
  expect(explainingReading(price, { price: 25 }, { before })).toBe('kept');
  // A number's empty value, as Ajv's coerceTypes and Jackson's primitives read a null.
  expect(explainingReading(price, { price: 0 }, { before })).toBe('empty');
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
  for (const [reading, knobs] of [...Object.entries(READING_KNOBS), ...Object.entries(NEIGHBOUR_KNOBS)]) {
    expect(knobs.length, reading).toBeGreaterThan(0);
    for (const knob of knobs) expect(known, `${reading}: ${knob}`).toContain(knob);
  }
  const points = VARIANTS.map((variant) => variant.name);
  expect(points).toEqual(expect.arrayContaining(['go-pointer-structs', 'rails-lax-params']));
});

test('a path id made from an order\'s id is refused, or, written otherwise with nothing lost, read as that order; an integer cast that reads 12abc as 12 is no reading', () => {
  const answered = (status: number, id?: string): Exchange => ({
    request: { method: 'GET', url: 'http://127.0.0.1/orders/x', path: '/orders/x', headers: {} },
    status,
    headers: { 'content-type': 'application/json' },
    text: '',
    json: id === undefined ? { success: false, meta: { status } } : { id },
    retries: 0,
  });
  const [letters, , , , space, zero] = idExtensions('12');
  expect([letters.readings, space.readings, zero.readings]).toEqual([['refused'], ['refused', 'coerced'], ['refused', 'coerced']]);
  for (const sent of [letters, space, zero]) {
    expect(explainingPathIdReading(sent, answered(404)), sent.name).toBe('refused');
    // 400 too: a server that checks the form of an id before it looks it up (ORD-OBS-018).
    expect(explainingPathIdReading(sent, answered(400)), sent.name).toBe('refused');
  }
  // "12abc".to_i is 12: the order it was made from, which the id does not name.
  expect(explainingPathIdReading(letters, answered(200, '12'))).toBeUndefined();
  expect(pathIdAnswered(letters, answered(200, '12'))[1]().received).toBe('200: the order "12"');
  // "12 " trimmed and 012 read as a number are 12 itself; 012 read as octal (10) is another order.
  expect(explainingPathIdReading(space, answered(200, '12'))).toBe('coerced');
  expect(explainingPathIdReading(zero, answered(200, '12'))).toBe('coerced');
  expect(explainingPathIdReading(zero, answered(200, '10'))).toBeUndefined();
  expect(explainingPathIdReading(zero, answered(500))).toBeUndefined();
  // A path id of another form than a number: a leading zero names no order.
  expect(idExtensions('ord_3kT9')[5].readings).toEqual(['refused']);
});
