import fc from 'fast-check';
import { contract, type JsonSchema, type OperationId } from '../contract/openapi';
import { nonUtf8Byte } from '../contract/exchange';
import type { InvalidRequest } from '../checks/invalid-input';
import { placeAt, readingsOf } from '../checks/readings';
import { anyOrder } from './order';
import { requestComponent, requiredFields } from './schema';
import { anyOrderUpdate } from './update';

/**
 * Request bodies that break openapi.yaml, each with the requirement an answer to it is checked
 * against. Built from a valid body by one change, so a shrunk counterexample shows the one fault.
 */

type Json = Record<string, unknown>;

/** An invalid create request (POST /orders). */
export function invalidOrder(): fc.Arbitrary<InvalidRequest> {
  return fc.oneof(
    { arbitrary: missingField(), weight: 2 },
    { arbitrary: wrongType('createOrder', anyOrder(), 'wrong-type'), weight: 3 },
    { arbitrary: wrongType('createOrder', anyOrder(), 'wrong-shape'), weight: 2 },
    { arbitrary: malformedJson(anyOrder()), weight: 2 },
    { arbitrary: emptyBody(), weight: 1 },
  );
}

/**
 * An invalid update request (PUT /orders/{id}); an update has no required field to leave out, and an empty update
 * body is lenient JSON (Express reads it as {}: lenientBodies).
 */
export function invalidOrderUpdate(): fc.Arbitrary<InvalidRequest> {
  return fc.oneof(
    { arbitrary: wrongType('updateOrder', anyOrderUpdate(), 'wrong-type'), weight: 3 },
    { arbitrary: wrongType('updateOrder', anyOrderUpdate(), 'wrong-shape'), weight: 2 },
    { arbitrary: malformedJson(anyOrderUpdate()), weight: 2 },
  );
}

/** A valid create without one of the fields OrderCreate requires. */
export function missingField(): fc.Arbitrary<InvalidRequest> {
  return fc.tuple(anyOrder(), fc.constantFrom(...requiredFields('OrderCreate'))).map(([valid, field]) => {
    const body: Json = { ...valid };
    delete body[field];
    return { kind: 'missing-field', description: `the required field ${field} is missing`, requirementId: 'ORD-ERR-003', body };
  });
}

/**
 * A valid body with one value, at any depth, of another type than its schema's. 'wrong-type': a
 * scalar field (a number as a string, a string as an object…); 'wrong-shape': an object or array
 * (an object as a string, an array as an object…), the whole body included.
 */
export function wrongType(operationId: OperationId, valid: fc.Arbitrary<object>, kind: 'wrong-type' | 'wrong-shape'): fc.Arbitrary<InvalidRequest> {
  const bodySchema = requestSchema(operationId);
  return fc.tuple(valid, fc.nat(), fc.nat()).map(([body, at, pick]) => {
    // A value the service computes or assigns may be ignored when sent, so a server need not check its type either.
    const places = fieldsOf(body, bodySchema).filter(
      (place) => (isContainer(place.schema) ? 'wrong-shape' : 'wrong-type') === kind && place.schema['x-service-may-compute'] !== true && place.schema.readOnly !== true,
    );
    const place = places[at % places.length];
    const replacements = wrongValuesFor(place.schema);
    const replacement = replacements[pick % replacements.length];
    const description = `${place.pointer || 'the body'} is ${JSON.stringify(replacement)} (${allowedTypes(place.schema).join(' or ')} expected)`;
    const valueKind = place.pointer === '' ? 'non-object-body' : replacement === null ? 'null' : 'wrong-type';
    const readings = readingsOf(valueKind, placeAt(place.pointer, operationId === 'updateOrder' ? 'update' : 'create'));
    return {
      kind,
      description,
      requirementId: 'ORD-ERR-004',
      body: place.pointer === '' ? replacement : setAt(structuredClone(body), place.pointer, replacement),
      value: { name: description, pointer: place.pointer, kind: valueKind, denotes: replacement, readings },
    };
  });
}

function isContainer(schema: JsonSchema): boolean {
  return allowedTypes(schema).some((type) => type === 'object' || type === 'array');
}

/**
 * Breaks no parser reads past (Python's json, Express, Go, Jackson, serde): none adds a key the body already
 * has or a value a lenient parser takes (NaN, a trailing comma: lenientBodies), so a body stays invalid whatever
 * the parser and its verdict does not depend on the draw.
 */
const CORRUPTIONS: Array<{ name: string; corrupt: (json: string, at: number) => string }> = [
  { name: 'cut short', corrupt: (json, at) => json.slice(0, 1 + (at % (json.length - 1))) },
  { name: 'single quotes', corrupt: (json) => json.replace(/"/g, "'") },
  { name: 'unquoted keys', corrupt: (json) => json.replace(/"([A-Za-z_]+)":/g, '$1:') },
];

/** A valid body's JSON text, broken (cut short, single quotes, unquoted keys). */
export function malformedJson(valid: fc.Arbitrary<object>): fc.Arbitrary<InvalidRequest> {
  return fc
    .tuple(valid, fc.constantFrom(...CORRUPTIONS), fc.nat())
    .map(([body, corruption, at]): InvalidRequest => ({
      kind: 'malformed-json',
      description: `the body is not JSON (${corruption.name})`,
      requirementId: 'ORD-ERR-002',
      rawBody: corruption.corrupt(JSON.stringify(body), at),
    }))
    .filter((request) => !parses(request.rawBody as string));
}

/** An empty create body: read as {} by a lenient parser, it still misses every required field. */
export function emptyBody(): fc.Arbitrary<InvalidRequest> {
  return fc.constant({ kind: 'empty-body', description: 'the body is empty', requirementId: 'ORD-ERR-002', rawBody: '' });
}

/** A literal that stands for a value in a body's JSON text until it is replaced by raw text. */
const RAW_VALUE = '\u0000oms-raw-value';

/** `valid` as JSON text with `field` set to `literal`, raw text that JSON.stringify cannot write (NaN, bytes that are not UTF-8, a deep nesting). */
function withLiteral(valid: Json, field: string, literal: string): string {
  return JSON.stringify({ ...valid, [field]: RAW_VALUE }).replace(JSON.stringify(RAW_VALUE), literal);
}

/** A note of JSON text holding `bytes`, none of them UTF-8 (contract/exchange.ts: how a body's text holds them). */
function noteWithBytes(bytes: number[]): string {
  return `"read ${bytes.map(nonUtf8Byte).join('')} leniently"`;
}

/**
 * JSON that a lenient parser reads and a strict one refuses (ORD-OBS-033), made from a valid body with a price:
 * NaN or Infinity, a key given twice (the last value valid, as Python's json keeps it), a trailing comma; a note
 * whose bytes are not UTF-8, so no JSON text (RFC 8259, 8.1), which a lenient decoder reads as U+FFFD (Node, Go)
 * and Python's json.loads refuses with a UnicodeDecodeError, no JSONDecodeError, or, for a UTF-16 half in UTF-8
 * form, takes as that half (which PostgreSQL cannot store); for an update, an empty body too (Express reads it
 * as {}). A correct server takes or refuses each (ORD-ERR-009).
 */
export function lenientBodies(valid: Json, operation: 'createOrder' | 'updateOrder'): Array<{ name: string; rawBody: string }> {
  if (typeof valid.price !== 'number') throw new Error('lenientBodies: the valid body needs a price to spoil');
  const json = JSON.stringify(valid);
  const priceAs = (literal: string) => withLiteral(valid, 'price', literal);
  const noteAs = (text: string) => withLiteral(valid, 'note', text);
  return [
    { name: 'price NaN, then price again with a number', rawBody: `{"price":NaN,${json.slice(1)}` },
    { name: 'price NaN', rawBody: priceAs('NaN') },
    { name: 'price Infinity', rawBody: priceAs('Infinity') },
    { name: 'price given twice, first as a word', rawBody: `{"price":"free",${json.slice(1)}` },
    { name: 'a trailing comma', rawBody: `${json.slice(0, -1)},}` },
    { name: 'a note with the bytes FF FE, which are not UTF-8', rawBody: noteAs(noteWithBytes([0xff, 0xfe])) },
    { name: 'a note with the bytes ED A0 80 (U+D800, a UTF-16 half, in UTF-8 form: not UTF-8)', rawBody: noteAs(noteWithBytes([0xed, 0xa0, 0x80])) },
    ...(operation === 'updateOrder' ? [{ name: 'an empty body', rawBody: '' }] : []),
  ];
}

/**
 * How deep deeplyNestedBodies nests: past the recursion of Python's json (about 1,000 levels, a RecursionError that
 * is no JSONDecodeError) and of class-transformer on a Node.js stack (about 2,500), within Go's limit (10,000).
 */
export const DEEP_NESTING = 5_000;

/**
 * The body, and a string and a number field of it, as a value nested DEEP_NESTING deep: of the wrong type at any
 * depth, so refused with a 4xx (ORD-ERR-004), by a parser's depth limit or by validation, or read as its readings
 * allow (`pointer`, `kind`: checks/readings.ts); never a crash.
 */
export function deeplyNestedBodies(valid: Json): Array<{ name: string; rawBody: string; pointer: string; kind: 'wrong-type' | 'non-object-body' }> {
  const levels = DEEP_NESTING.toLocaleString('en');
  const array = `${'['.repeat(DEEP_NESTING)}${']'.repeat(DEEP_NESTING)}`;
  const object = `${'{"a":'.repeat(DEEP_NESTING)}1${'}'.repeat(DEEP_NESTING)}`;
  return [
    { name: `the body as an array nested ${levels} deep`, rawBody: array, pointer: '', kind: 'non-object-body' },
    { name: `note as an object nested ${levels} deep`, rawBody: withLiteral(valid, 'note', object), pointer: '/note', kind: 'wrong-type' },
    { name: `price as an array nested ${levels} deep`, rawBody: withLiteral(valid, 'price', array), pointer: '/price', kind: 'wrong-type' },
  ];
}

function requestSchema(operationId: OperationId): JsonSchema {
  return contract().schema(requestComponent(operationId));
}

interface Place {
  pointer: string;
  schema: JsonSchema;
}

/** Every value present in a body, at every depth, with the schema it must follow; the body itself first. */
export function fieldsOf(value: unknown, schema: JsonSchema, pointer = ''): Place[] {
  const resolved = resolve(schema);
  const places: Place[] = [{ pointer, schema: resolved }];
  if (Array.isArray(value) && resolved.items) {
    value.forEach((element, index) => places.push(...fieldsOf(element, resolved.items as JsonSchema, `${pointer}/${index}`)));
  } else if (value && typeof value === 'object' && resolved.properties) {
    const declared = resolved.properties as Record<string, JsonSchema>;
    for (const [key, inner] of Object.entries(value)) {
      if (declared[key]) places.push(...fieldsOf(inner, declared[key], `${pointer}/${key}`));
    }
  }
  return places;
}

function resolve(schema: JsonSchema): JsonSchema {
  const resolved = contract().resolve(schema);
  return resolved === schema ? schema : resolve(resolved);
}

/** The JSON types a schema allows ('integer' counts as its own). */
export function allowedTypes(schema: JsonSchema): string[] {
  const type = resolve(schema).type;
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
}

/**
 * Values of every other JSON type than the schema allows (null left out: servers differ on null as absent),
 * none of which denotes a value of the allowed type: a server may take "12.5" for a number, true for 1 or 12.5
 * for a string (scalar coercion, ORD-OBS-019), so a word stands for a wrong string, no boolean for a wrong
 * number and only containers for a wrong string field; and an array of one element for that element (Ajv's
 * coerceTypes: 'array', Fastify's default), so the wrong array holds two.
 */
export function wrongValuesFor(schema: JsonSchema): unknown[] {
  const allowed = allowedTypes(schema);
  const scalarsDenoteStrings = allowed.includes('string');
  const candidates: Array<{ type: string; value: unknown }> = [
    { type: 'string', value: 'twelve and a half' },
    { type: 'number', value: 12.5 },
    { type: 'integer', value: 3 },
    { type: 'boolean', value: true },
    { type: 'object', value: { unexpected: 'an object' } },
    { type: 'array', value: ['an', 'array'] },
  ];
  return candidates
    .filter(({ type }) => !allowed.includes(type) && !(type === 'integer' && allowed.includes('number')))
    .filter(({ type }) => !(scalarsDenoteStrings && ['number', 'integer', 'boolean'].includes(type)))
    // true denotes 1 to a lax parser (Pydantic v1 reads it so into an int and a float field): coercible, as the edge catalogue sends it.
    .filter(({ type }) => !(type === 'boolean' && (allowed.includes('number') || allowed.includes('integer'))))
    .map(({ value }) => value);
}

function setAt(target: unknown, pointer: string, value: unknown): unknown {
  const keys = pointer.split('/').slice(1);
  let node = target as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys[keys.length - 1]] = value;
  return target;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
