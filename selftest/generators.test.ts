import { expect, test } from '@playwright/test';
import { bodyBytes, holdsNonUtf8Bytes, jsonTextDepth } from '../contract/exchange';
import fc from 'fast-check';
import { readOnlyFields } from '../contract/assigned';
import { contract, formatProblems, type JsonSchema } from '../contract/openapi';
import { generatedTypesAreCurrent } from '../contract/openapi-types';
import { address, ADDRESS_FORMS } from '../generators/address';
import { billing } from '../generators/billing';
import { customer, email, phone } from '../generators/customer';
import { deeplyNestedBodies, DEEP_NESTING, invalidOrder, invalidOrderUpdate, lenientBodies } from '../generators/invalid';
import { duplicateKeyIn, lenientJson } from './reference/faults/kit';
import { laxScalar } from './reference/variants/edges';
import { hasLoneSurrogate } from '../config/safe-text';
import { readScalars } from './reference/variants/freedoms';
import type { InvalidRequest } from '../checks/invalid-input';
import { dimensions, item } from '../generators/item';
import { EDGE_AMOUNTS } from '../generators/numbers';
import { anyOrder, order } from '../generators/order';
import { payment } from '../generators/payment';
import { boundaryValues, listQuery, pageWalk } from '../generators/query';
import { bounds, isValidValue, LARGEST_PARSED_PAGE } from '../contract/query';
import { schemaRecord, type FieldArbitraries } from '../generators/record';
import { salesChannel } from '../generators/sales-channel';
import {
  clientFields,
  componentOf,
  properties,
  requestComponents,
  requiredFields,
  type Component,
} from '../generators/schema';
import { HOSTILE_PIECES, MAX_TEXT_LENGTH } from '../generators/text';
import { anyOrderUpdate, orderUpdate } from '../generators/update';
import { NEAR_MISSES, NEAR_MISS_SCHEMES } from '../generators/near-miss-tokens';
import { idExtensions, reachesNoOrder } from '../generators/order-id';
import { notOnePathSegment } from '../contract/order-path';
import { sameButReferences } from '../contract/examples';

// Enough samples that every optional field shows up both present and absent; fixed seed, so a failure replays.
const SAMPLES = 200;
const sample = <T>(arbitrary: fc.Arbitrary<T>, numRuns = SAMPLES): T[] => fc.sample(arbitrary, { numRuns, seed: 4242 });

test.describe('generators kept in step with openapi.yaml', () => {
  test('contract/openapi-types.generated.ts is what openapi.yaml generates today', () => {
    expect(generatedTypesAreCurrent(), 'openapi.yaml changed: run `npx tsx contract/openapi-types.ts --write`, then fix the compile errors').toBe(true);
  });

  test('every field a client sends, of every schema a request reaches, is generated', () => {
    const seen = new Set<string>();
    for (const body of [...sample(anyOrder()), ...sample(anyOrderUpdate())]) {
      fieldsPresent(body, 'OrderCreate', seen);
    }
    const expected = requestComponents()
      .filter((component) => component !== 'OrderUpdate')
      .flatMap((component) => clientFields(component).map((field) => `${component}.${field}`));
    expect(expected.filter((field) => !seen.has(field))).toEqual([]);
    for (const update of sample(anyOrderUpdate())) fieldsPresent(update, 'OrderUpdate', seen);
    expect(clientFields('OrderUpdate').filter((field) => !seen.has(`OrderUpdate.${field}`))).toEqual([]);
  });

  test('no field the service assigns is ever sent', () => {
    const seen = new Set<string>();
    for (const body of sample(order({ fields: 'all' }))) fieldsPresent(body, 'OrderCreate', seen);
    // The readOnly marks of openapi.yaml: every component a request reaches has its own.
    const assigned = requestComponents().flatMap((component) => readOnlyFields(component).map((field) => `${component}.${field}`));
    expect(assigned.length).toBeGreaterThan(0);
    expect(assigned.filter((field) => seen.has(field))).toEqual([]);
  });

  test('an arbitrary that misses a schema field, or names one the schema lacks, fails when it is built', () => {
    const { street: _street, ...withoutStreet } = fieldArbitraries('Address');
    expect(() => schemaRecord('Address', withoutStreet as FieldArbitraries<'Address'>)).toThrow(/not generated: street$|not generated: street \(/);
    const withExtra = { ...fieldArbitraries('Dimensions'), depth: fc.constant(1) };
    expect(() => schemaRecord('Dimensions', withExtra as unknown as FieldArbitraries<'Dimensions'>)).toThrow(/not in the schema: depth/);
  });
});

test.describe('valid arbitraries validate against openapi.yaml', () => {
  const requests: Array<[string, fc.Arbitrary<unknown>, 'createOrder' | 'updateOrder']> = [
    ['order, required fields only', order({ fields: 'required' }), 'createOrder'],
    ['order, every field', order({ fields: 'all' }), 'createOrder'],
    ['order, any optional field', order({ fields: 'any' }), 'createOrder'],
    ['update, one field', orderUpdate({ fields: 'one' }), 'updateOrder'],
    ['update, every field', orderUpdate({ fields: 'all' }), 'updateOrder'],
    ['update, any fields', orderUpdate({ fields: 'any' }), 'updateOrder'],
  ];
  for (const [name, arbitrary, operationId] of requests) {
    test(`${name}: every sample is a valid ${operationId} request body`, () => {
      const schema = contract().request(operationId);
      for (const value of sample(arbitrary)) expect(formatProblems(schema.problems(value)), JSON.stringify(value)).toBe('');
    });
  }

  const components: Array<[Component, fc.Arbitrary<unknown>]> = [
    ['Address', address()],
    ['Customer', customer()],
    ['Email', email()],
    ['Phone', phone()],
    ['Item', item()],
    ['Dimensions', dimensions()],
    ['Payment', payment()],
    ['Billing', billing()],
    ['SalesChannel', salesChannel()],
  ];
  for (const [component, arbitrary] of components) {
    test(`${component}: every sample matches components.schemas.${component}`, () => {
      const schema = contract().component(component, 'request');
      for (const value of sample(arbitrary, 100)) expect(formatProblems(schema.problems(value)), JSON.stringify(value)).toBe('');
    });
  }
});

test.describe('what the valid arbitraries cover', () => {
  test('orders: required only and everything; each optional object present and absent; one item and several', () => {
    const bodies = sample(anyOrder());
    const required = requiredFields('OrderCreate') as string[];
    expect(bodies.some((body) => Object.keys(body).every((field) => required.includes(field)))).toBe(true);
    expect(bodies.some((body) => clientFields('OrderCreate').every((field) => field in body))).toBe(true);
    for (const field of clientFields('OrderCreate').filter((name) => !required.includes(name))) {
      expect(bodies.some((body) => field in body), `${field} present`).toBe(true);
      expect(bodies.some((body) => !(field in body)), `${field} absent`).toBe(true);
    }
    const counts = bodies.map((body) => (body.items as unknown[]).length);
    expect(counts).toContain(1);
    expect(counts.filter((count) => count >= 2).length).toBeGreaterThan(SAMPLES / 4);
    for (const field of clientFields('Item')) {
      const withField = bodies.flatMap((body) => body.items as Array<Record<string, unknown>>);
      expect(withField.some((entry) => field in entry), `item ${field} present`).toBe(true);
    }
  });

  test('addresses: the five-field create form, the eight-field update form, the full form with tax_id and external_id null or set', () => {
    expect(ADDRESS_FORMS.create).toHaveLength(5);
    expect(ADDRESS_FORMS.update).toHaveLength(8);
    expect(ADDRESS_FORMS.full).toEqual(expect.arrayContaining(['tax_id', 'external_id', ...ADDRESS_FORMS.update]));
    for (const form of ['create', 'update', 'full'] as const) {
      for (const value of sample(address({ form }), 50)) expect(Object.keys(value).sort()).toEqual([...ADDRESS_FORMS[form]].sort());
    }
    const externalIds = sample(address({ form: 'full' }), 100).map((value) => value.external_id);
    expect(externalIds).toContain(null);
    expect(externalIds.some((id) => typeof id === 'string')).toBe(true);
  });

  test('updates: each field alone, and all together', () => {
    const single = sample(orderUpdate({ fields: 'one' }));
    for (const field of clientFields('OrderUpdate')) expect(single.some((body) => Object.keys(body).join() === field), field).toBe(true);
    for (const body of sample(orderUpdate({ fields: 'all' }), 50)) expect(Object.keys(body).sort()).toEqual([...clientFields('OrderUpdate')].sort());
    for (const body of sample(anyOrderUpdate())) {
      expect(Object.keys(body).length).toBeGreaterThan(0);
      if ('items' in body) expect((body.items as unknown[]).length).toBeGreaterThan(0);
    }
  });

  test('strings: non-ASCII, emoji, combining marks, right-to-left, quotes, backslashes, very long; never malformed or over the size cap', () => {
    const strings = sample(anyOrder()).flatMap(stringsIn);
    const has = (pattern: RegExp) => strings.some((text) => pattern.test(text));
    expect(has(/[^\x00-\x7f]/)).toBe(true);
    expect(has(/\p{Extended_Pictographic}/u)).toBe(true);
    expect(has(/\p{M}/u)).toBe(true);
    expect(has(/[\u0590-\u08ff\u200f\u202e]/)).toBe(true);
    expect(has(/["'\\]/)).toBe(true);
    expect(strings.some((text) => text.length > 255)).toBe(true);
    expect(Math.max(...strings.map((text) => text.length))).toBeLessThanOrEqual(MAX_TEXT_LENGTH);
    expect(strings.filter(hasLoneSurrogate)).toEqual([]);
    for (const pieces of Object.values(HOSTILE_PIECES)) expect(pieces.some((piece) => strings.some((text) => text.includes(piece)))).toBe(true);
  });

  test('numbers: 0, 0.01, many decimals and large values', () => {
    const numbers = sample(anyOrder()).flatMap(numbersIn);
    for (const edge of [0, 0.01, EDGE_AMOUNTS[EDGE_AMOUNTS.length - 1]]) expect(numbers).toContain(edge);
    expect(numbers.some((value) => String(value).split('.')[1]?.length > 6)).toBe(true);
    expect(numbers.every((value) => Number.isFinite(value) && value >= 0)).toBe(true);
  });

  test('the same seed generates the same values, but for the references each order makes its own (what OMS_SEED replays)', () => {
    const again = <T>(arbitrary: fc.Arbitrary<T>) => [fc.sample(arbitrary, { numRuns: 20, seed: 7 }), fc.sample(arbitrary, { numRuns: 20, seed: 7 })];
    for (const arbitrary of [anyOrder(), anyOrderUpdate(), invalidOrder(), listQuery()] as Array<fc.Arbitrary<unknown>>) {
      const [first, second] = again(arbitrary);
      expect(second.map(sameButReferences)).toEqual(first.map(sameButReferences));
    }
  });
});

test.describe('invalid arbitraries fail openapi.yaml', () => {
  const cases: Array<[string, fc.Arbitrary<InvalidRequest>, 'createOrder' | 'updateOrder']> = [
    ['create', invalidOrder(), 'createOrder'],
    ['update', invalidOrderUpdate(), 'updateOrder'],
  ];
  for (const [name, arbitrary, operationId] of cases) {
    test(`invalid ${name}: every sample is malformed JSON, an empty body, or fails the ${operationId} request schema`, () => {
      const schema = contract().request(operationId);
      for (const invalid of sample(arbitrary, 500)) {
        if (invalid.rawBody !== undefined) {
          expect(() => JSON.parse(invalid.rawBody as string), invalid.rawBody).toThrow();
        } else {
          expect(schema.problems(invalid.body).length, `${invalid.description}: ${JSON.stringify(invalid.body)}`).toBeGreaterThan(0);
        }
      }
    });
  }

  for (const [name, arbitrary, operationId] of cases) {
    test(`invalid ${name}: no sample turns valid under a lenient parser (NaN, a trailing comma, a key twice), nor is an empty update`, () => {
      const schema = contract().request(operationId);
      for (const invalid of sample(arbitrary, 500)) {
        const text = invalid.rawBody ?? JSON.stringify(invalid.body);
        expect(duplicateKeyIn(text), text).toBe(false);
        if (invalid.rawBody === undefined) continue;
        const read = lenientJson(invalid.rawBody, { nonFinite: true, trailingComma: true });
        // An empty create read as {} by a lenient parser still misses every required field.
        if (invalid.rawBody.trim() === '') expect(operationId === 'createOrder' && schema.problems({}).length > 0, `an empty ${name} body`).toBe(true);
        else expect(read, invalid.rawBody).toBeUndefined();
      }
    });
  }

  for (const [name, arbitrary, operationId] of cases) {
    test(`invalid ${name}: no sample turns valid read as a lax parser reads it without loss (Pydantic v1: "3" and true as numbers)`, () => {
      const schema = contract().request(operationId);
      const component = contract().schema(operationId === 'createOrder' ? 'OrderCreate' : 'OrderUpdate');
      for (const invalid of sample(arbitrary, 500)) {
        if (invalid.rawBody !== undefined) continue;
        const read = readScalars(invalid.body, component, laxScalar);
        expect(schema.problems(read).length, `${invalid.description}: valid once read laxly`).toBeGreaterThan(0);
      }
    });
  }

  test('lenient bodies: each gives a key twice, is no JSON to a strict parser or is not UTF-8, and reads under a lenient one', () => {
    for (const operationId of ['createOrder', 'updateOrder'] as const) {
      const valid = operationId === 'createOrder' ? sample(anyOrder(), 1)[0] : { note: 'read leniently', price: 19.5 };
      for (const { name, rawBody } of lenientBodies(valid as Record<string, unknown>, operationId)) {
        const notUtf8 = holdsNonUtf8Bytes(rawBody);
        if (notUtf8) expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bodyBytes(rawBody)), `${operationId}: ${name}`).toThrow();
        else if (!duplicateKeyIn(rawBody)) expect(() => JSON.parse(rawBody), `${operationId}: ${name}`).toThrow();
        // A lenient decoder reads each bad byte sequence as U+FFFD, as Node's does.
        const text = notUtf8 ? bodyBytes(rawBody).toString('utf8') : rawBody;
        const read = text === '' ? {} : lenientJson(text, { nonFinite: true, trailingComma: true });
        expect(read, `${operationId}: ${name} reads under a lenient parser`).toBeDefined();
      }
    }
  });

  test(`deeply nested bodies: JSON nested ${DEEP_NESTING} deep, of the wrong type for create and update alike`, () => {
    for (const operationId of ['createOrder', 'updateOrder'] as const) {
      const valid = operationId === 'createOrder' ? sample(anyOrder(), 1)[0] : { note: 'nested', price: 19.5 };
      const schema = contract().request(operationId);
      for (const { name, rawBody } of deeplyNestedBodies(valid as Record<string, unknown>)) {
        expect(jsonTextDepth(rawBody), `${operationId}: ${name}`).toBeGreaterThanOrEqual(DEEP_NESTING);
        expect(schema.problems(JSON.parse(rawBody)).length, `${operationId}: ${name} breaks openapi.yaml`).toBeGreaterThan(0);
      }
    }
  });

  test('invalid create: each required field missing, wrong types and shapes at every depth, malformed JSON, empty body', () => {
    const invalid = sample(invalidOrder(), 1000);
    const kinds = new Set(invalid.map((request) => request.kind));
    expect([...kinds].sort()).toEqual(['empty-body', 'malformed-json', 'missing-field', 'wrong-shape', 'wrong-type']);
    for (const field of requiredFields('OrderCreate')) {
      expect(invalid.some((request) => request.description === `the required field ${field} is missing`), field).toBe(true);
    }
    const pointers = invalid.filter((request) => request.kind.startsWith('wrong')).map((request) => request.description);
    expect(pointers.some((text) => text.startsWith('the body is'))).toBe(true);
    expect(pointers.some((text) => /^\/items\/\d+\/\w+ /.test(text))).toBe(true);
    expect(pointers.some((text) => /^\/customer\/(address|email|phone) /.test(text))).toBe(true);
  });
});

test.describe('query parameters at and across every bound of openapi.yaml', () => {
  test('boundary values of limit and page: 0, 1, 100, 101, -1, 1.5, "abc", empty, very large', () => {
    const limit = boundaryValues('limit').map(String);
    expect(limit).toEqual(expect.arrayContaining(['0', '1', '100', '101', '-1', '1.5', 'abc', '']));
    expect(limit.some((value) => value.length > 15)).toBe(true);
    expect(boundaryValues('page').map(String)).toEqual(expect.arrayContaining(['0', '1', '-1', '1.5', 'abc', '']));
  });

  test('a value is valid exactly when the parameter schema allows it (a page past 2^31 - 1 counting as out of range)', () => {
    for (const name of ['page', 'limit'] as const) {
      const schema = contract().queryParameter('listOrders', name) as { minimum: number; maximum?: number };
      // A server may read page as a 32-bit integer: a larger one may be refused (generators/query.ts).
      const maximum = schema.maximum ?? (name === 'page' ? LARGEST_PARSED_PAGE : undefined);
      // Written as decimal digits, as a query carries an integer: "1e2" and " 5" are no integers of a query.
      for (const value of boundaryValues(name)) {
        const number = Number(value);
        const allowed =
          /^-?\d+$/.test(String(value)) && Number.isSafeInteger(number) && number >= schema.minimum && (maximum === undefined || number <= maximum);
        expect(isValidValue(name, value), `${name}=${JSON.stringify(value)}`).toBe(allowed);
      }
    }
  });

  test('generated queries and page walks stay within what they promise', () => {
    const queries = sample(listQuery());
    expect(queries.some((query) => Object.keys(query).length === 0)).toBe(true);
    expect(queries.some((query) => query.limit !== undefined && !isValidValue('limit', query.limit))).toBe(true);
    expect(queries.some((query) => query.limit !== undefined && isValidValue('limit', query.limit))).toBe(true);
    const walks = sample(pageWalk({ maxLimit: 10, maxPages: 5 }));
    expect(walks.every((walk) => walk.limit >= bounds('limit').minimum && walk.limit <= 10 && walk.pages >= 1 && walk.pages <= 5)).toBe(true);
    expect(walks.some((walk) => walk.pages >= 3)).toBe(true);
  });
});

/** Records "<Component>.<field>" for every field present in a value, at every depth. */
function fieldsPresent(value: unknown, component: Component, seen: Set<string>): void {
  if (!value || typeof value !== 'object') return;
  const declared = properties(component);
  for (const [field, inner] of Object.entries(value as Record<string, unknown>)) {
    seen.add(`${component}.${field}`);
    const schema: JsonSchema | undefined = declared[field];
    const nested = schema && componentOf(schema);
    if (!nested || !contract().schema(nested).properties) continue;
    for (const element of Array.isArray(inner) ? inner : [inner]) fieldsPresent(element, nested, seen);
  }
}

function fieldArbitraries<C extends Component>(component: C): FieldArbitraries<C> {
  return Object.fromEntries(clientFields(component).map((field) => [field, fc.constant(1)])) as FieldArbitraries<C>;
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.flatMap(numbersIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(numbersIn);
  return [];
}

test.describe('near-miss tokens (5.1)', () => {
  // Token forms servers issue: random bytes as hex, base64 (padded) or base64url, with or without a prefix.
  const issuedToken = fc
    .tuple(fc.uint8Array({ minLength: 8, maxLength: 64 }), fc.constantFrom('hex', 'base64', 'base64url'), fc.constantFrom('', 'oms_', 'tok-'))
    .map(([bytes, encoding, prefix]) => ({ token: prefix + Buffer.from(bytes).toString(encoding as BufferEncoding), encoding: encoding as BufferEncoding, prefix }));
  // What a server that strips its prefix and decodes the rest reads; another prefix is another token.
  const decoded = (token: string, prefix: string, encoding: BufferEncoding) => (token.startsWith(prefix) ? Buffer.from(token.slice(prefix.length), encoding) : Buffer.from(`not ${token}`));

  test('every near miss differs from the token as text and (its case aside) as the bytes a lenient decoder reads', () => {
    fc.assert(
      fc.property(issuedToken, ({ token, encoding, prefix }) => {
        for (const { what, alter } of NEAR_MISSES) {
          const altered = alter(token);
          if ('skip' in altered) continue;
          expect(altered.token, `${what} of ${token}`).not.toBe(token);
          if (what !== 'its case changed') expect(decoded(altered.token, prefix, encoding).equals(decoded(token, prefix, encoding)), `${what} of ${token} decodes (${encoding}) to the same bytes`).toBe(false);
        }
      }),
      { seed: 4242, numRuns: 300 },
    );
  });

  test('a near miss is skipped only where it cannot differ: after base64 padding, or a case change of a token without letters', () => {
    const skipped = (token: string) => NEAR_MISSES.filter(({ alter }) => 'skip' in alter(token)).map(({ what }) => what);
    expect(skipped('oms_AbC-dEf_0123456789abcdefghijKL')).toEqual([]);
    expect(skipped('QUJDRA==')).toEqual(['two characters appended']);
    expect(skipped('0f3a9c2d7e')).toEqual([]);
    expect(skipped('0123456789')).toEqual(['its case changed']);
  });

  test("near-miss schemes: several of Bearer's length, one of each other length from 1 to 8, none Bearer in any case", () => {
    const lengths = NEAR_MISS_SCHEMES.map((scheme) => scheme.length);
    expect(lengths.filter((length) => length === 'Bearer'.length).length).toBeGreaterThanOrEqual(3);
    for (const length of [1, 2, 3, 4, 5, 7, 8]) expect(lengths, `a scheme of ${length}`).toContain(length);
    // RFC 9110 11.1: scheme names are case-insensitive, so "bearer" is Bearer, which a correct server may take.
    expect(NEAR_MISS_SCHEMES.filter((scheme) => scheme.toLowerCase() === 'bearer')).toEqual([]);
    expect(NEAR_MISS_SCHEMES.filter((scheme) => !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(scheme)), 'each an RFC 9110 token, so a server parses it as a scheme').toEqual([]);
    // What a check of the characters after the seventh (substr($h, 7)) takes: each six-letter scheme, and only those.
    const token = 'oms-dev-token-a';
    expect(NEAR_MISS_SCHEMES.filter((scheme) => `${scheme} ${token}`.slice(7) === token)).toEqual(NEAR_MISS_SCHEMES.filter((scheme) => scheme.length === 6));
  });
});

test.describe('ids made from an assigned id (generators/order-id.ts)', () => {
  test('a number id extended as an integer cast still reads it, each reaching no order; with a trailing space or a leading zero it may be read as the order', () => {
    const made = idExtensions('12');
    expect(made.map(({ id }) => id)).toEqual(['12abc', '12-x', '12.5', '12 x', '12 ', '012']);
    // What Ruby's to_i, PHP's (int) and JavaScript's parseInt make of each: the order 12, for all but none.
    for (const { id } of made) expect(parseInt(id.trim(), 10), id).toBe(12);
    expect(made.filter(reachesNoOrder).map(({ id }) => id)).toEqual(['12abc', '12-x', '12.5', '12 x']);
    expect(made.filter((sent) => !reachesNoOrder(sent)).map(({ readings }) => readings)).toEqual([['refused', 'coerced'], ['refused', 'coerced']]);
    expect(made.every(({ of }) => of === '12')).toBe(true);
  });

  test('an id of another form gets the same extensions; a leading zero names no order there, a trailing space still the order', () => {
    const uuid = '9f1c2b3a-0d4e-4f5a-8b6c-7d8e9f0a1b2c';
    const made = idExtensions(uuid);
    expect(made.map(({ id }) => id)).toEqual([`${uuid}abc`, `${uuid}-x`, `${uuid}.5`, `${uuid} x`, `${uuid} `, `0${uuid}`]);
    expect(made.filter((sent) => !reachesNoOrder(sent)).map(({ name }) => name)).toEqual(['the id with a trailing space']);
    // Each one path segment, as every id the suite sends.
    for (const { id } of made) expect(notOnePathSegment(id), id).toBeUndefined();
  });
});
