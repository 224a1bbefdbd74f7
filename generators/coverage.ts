import fc from 'fast-check';
import { contract, type JsonSchema } from '../contract/openapi';
import { order, orderFields } from './order';
import { boundaryValues } from './query';
import type { ListParameter, ListQuery } from '../contract/query';
import type { EdgesSent } from '../checks/edges';
import { placeAt, readingsOf, type Place, type ValueKind } from '../checks/readings';
import { clientFields, componentOf, properties, requiredFields, type Payload } from './schema';
import { everyProperty } from '../contract/assigned';
import { fullOrder, item, withOwnReferences } from '../contract/examples';

/**
 * The deterministic coverage phase (as Schemathesis runs one before its random phase): cases derived
 * from openapi.yaml, the same on every run whatever OMS_SEED says, so each bound and form is sent at
 * least once instead of when the dice allow.
 */

/** Fixed, so the phase sends the same bodies every run. */
export const COVERAGE_SEED = 20261123;

export interface CoverageCase<T> {
  /** What the case covers, as a failure names it. */
  name: string;
  input: T;
}

/** One value of an arbitrary, the same every run. */
function fixed<T>(arbitrary: fc.Arbitrary<T>, salt: number): T {
  return fc.sample(arbitrary, { seed: COVERAGE_SEED + salt, numRuns: 1 })[0];
}

/** page and limit (components.parameters Page, Limit): each bound, each bound ± 1, the default, and values no integer parser takes, one parameter at a time. */
export function queryCoverage(): Array<CoverageCase<ListQuery>> {
  return (['page', 'limit'] as ListParameter[]).flatMap((name) =>
    boundaryValues(name).map((value) => ({ name: `${name}=${JSON.stringify(value)}`, input: { [name]: value } })),
  );
}

/** Fields of a schema whose value may be null (nullable: true, type [.., 'null'], or a oneOf/anyOf with type null). */
export function nullableFields(schemas: Record<string, JsonSchema>): string[] {
  const allowsNull = (schema: JsonSchema): boolean =>
    schema.nullable === true ||
    (Array.isArray(schema.type) && schema.type.includes('null')) ||
    schema.type === 'null' ||
    [schema.oneOf, schema.anyOf].some((list) => Array.isArray(list) && (list as JsonSchema[]).some(allowsNull));
  return Object.entries(schemas)
    .filter(([, schema]) => allowsNull(schema))
    .map(([name]) => name);
}

/**
 * Create bodies (components.schemas.OrderCreate): the required fields alone; each optional field
 * present (in its fullest form); each object field in its smallest and its fullest form; each nullable
 * field as null; every field at once. The cases and their names come from the schema; each body is drawn
 * when it is first read, so loading the test file (the runner loads every one to list the tests) draws
 * nothing.
 */
export function orderCoverage(): Array<CoverageCase<Payload<'OrderCreate'>>> {
  type Forms = { minimal: Record<string, unknown>; full: Record<string, unknown>; smallest: Record<string, fc.Arbitrary<unknown>> };
  let forms: Forms | undefined;
  const drawn = (): Forms =>
    (forms ??= {
      minimal: fixed(order({ fields: 'required' }), 0),
      full: fixed(order({ fields: 'all' }), 1),
      smallest: orderFields('none') as Record<string, fc.Arbitrary<unknown>>,
    });
  const schema = properties('OrderCreate');
  const required: string[] = requiredFields('OrderCreate');
  const fields: string[] = clientFields('OrderCreate');
  // An object (or a list of objects) has forms; a $ref to a string schema (DateTime) does not.
  const isObject = (field: string) => {
    const component = componentOf(schema[field]);
    return component !== undefined && contract().schema(component).properties !== undefined;
  };
  const cases: Array<CoverageCase<Record<string, unknown>>> = [];
  const add = (name: string, draw: () => Record<string, unknown>) => {
    let input: Record<string, unknown> | undefined;
    cases.push({
      name,
      get input() {
        // Drawn bodies share their objects (the fixed sales_channel): each case made its own references (ORD-OBS-032).
        return (input ??= withOwnReferences(draw()));
      },
    });
  };
  add('the required fields only, every optional field absent', () => drawn().minimal);
  for (const [index, field] of fields.entries()) {
    const presence = required.includes(field) ? 'required' : 'optional';
    if (isObject(field)) {
      if (presence === 'optional') add(`${field} (optional) present in its smallest form`, () => ({ ...drawn().minimal, [field]: fixed(drawn().smallest[field], 100 + index) }));
      add(`${field} (${presence}) in its fullest form`, () => ({ ...drawn().minimal, [field]: drawn().full[field] }));
    } else if (presence === 'optional') {
      add(`${field} (optional) present`, () => ({ ...drawn().minimal, [field]: drawn().full[field] }));
    }
  }
  for (const field of nullableFields(schema)) add(`${field} as null`, () => ({ ...drawn().minimal, [field]: null }));
  add('every field, at every depth', () => drawn().full);
  return cases as Array<CoverageCase<Payload<'OrderCreate'>>>;
}

/** One value of the edge catalogue: its name in a failure, the JSON text sent, and what a JSON parser reads it as. */
export interface EdgeValue {
  label: string;
  /** The JSON text sent for it, exactly (1e400 and -0 cannot be written by JSON.stringify). */
  literal: string;
  /** The value the text denotes: what must come back where it is taken. */
  denotes: unknown;
  /** What it is of its field's type: its readings follow from that and the place it goes (checks/readings.ts). */
  kind: ValueKind;
}

const edge = (label: string, denotes: unknown, kind: ValueKind = 'plain', literal = JSON.stringify(denotes)): EdgeValue => ({ label, literal, denotes, kind });

/** Where int32, int64, doubles and their parsers break (2^31 wraps an int32, 2^53 ends exact doubles, 2^63 wraps an int64). */
const MAGNITUDES: EdgeValue[] = [
  edge('2^31−1', 2147483647),
  edge('2^31', 2147483648),
  edge('2^32', 4294967296),
  edge('2^53', 9007199254740992),
  edge('2^63', 9223372036854775808, 'plain', '9223372036854775808'),
];

/** Literals beyond a double: a parser reads them as ±Infinity or 0, or refuses them. */
const BEYOND_DOUBLE: EdgeValue[] = [edge('1e400 (overflows a double)', Infinity, 'unusual', '1e400'), edge('-1e400 (overflows a double)', -Infinity, 'unusual', '-1e400')];

/** -1e400: the create sends both signs; an update only 1e400, since the overflow, not its sign, is what a parser breaks on. */
const NEGATIVE_OVERFLOW = BEYOND_DOUBLE[1];

/** Edge values of a `number` field (price, amounts, weights, dimensions, tax rates). */
export const NUMBER_EDGES: readonly EdgeValue[] = [
  edge('0', 0),
  edge('-0', -0, 'unusual', '-0'),
  edge('a negative number', -12.5),
  // Finer than a cent: an amount may be stored to the cent (ORD-OBS-015), a weight or a tax rate may not.
  edge('0.001 (finer than a cent)', 0.001),
  ...MAGNITUDES,
  edge('1e308', 1e308, 'plain', '1e308'),
  edge('1e-400 (underflows a double)', 0, 'unusual', '1e-400'),
  ...BEYOND_DOUBLE,
];

/** Edge values of an `integer` field (item quantity): the magnitudes, and values of other types a lax parser takes. */
export const INTEGER_EDGES: readonly EdgeValue[] = [
  edge('0', 0),
  edge('-0', -0, 'unusual', '-0'),
  edge('a negative integer', -1),
  ...MAGNITUDES,
  edge('1e2 (an integer in exponent form)', 100, 'unusual', '1e2'),
  edge('2.5 (not an integer)', 2.5, 'wrong-type'),
  edge('"3" (a string)', 3, 'coercible', '"3"'),
  // A lax parser (Pydantic's) reads true as 1: nothing is lost, so taking it is as free as taking "3".
  edge('true (a boolean)', 1, 'coercible', 'true'),
];

/**
 * Edge values of a `boolean` field: both values, and false written as a lax parser still reads it (Pydantic reads
 * "false" and 0 as false). Taken, they must come back false: a converter that casts any non-empty string to true
 * (class-transformer's implicit conversion) stores "false" as true.
 */
export const BOOLEAN_EDGES: readonly EdgeValue[] = [
  edge('false', false),
  edge('true', true),
  edge('"false" (a string)', false, 'coercible', '"false"'),
  edge('0 (a number)', false, 'coercible', '0'),
];

/**
 * Edge values of a date-time field the client sends (placed_at, sales_channel.updated_at): each must come back as
 * the same instant, at the precision the server stores. An offset other than Z is what a timestamp column without
 * time zone drops (PostgreSQL ignores it: the instant moves); the far past and future a column may not hold.
 */
export const DATE_TIME_EDGES: readonly EdgeValue[] = [
  edge('an offset of +05:30', '2026-03-01T12:00:00+05:30'),
  edge('an offset of -08:00', '2026-03-01T12:00:00-08:00'),
  edge('microseconds', '2026-03-01T12:00:00.123456Z'),
  edge('the last millisecond of a leap day', '2028-02-29T23:59:59.999Z'),
  edge('before 1970', '1969-07-20T20:17:40Z', 'unusual'),
  edge('after 2038 (past a 32-bit epoch)', '2038-01-19T03:14:08Z', 'unusual'),
];

/** Every C0 control character but NUL, which has its own case. */
const C0_CONTROLS = Array.from({ length: 31 }, (_, index) => String.fromCharCode(index + 1)).join('');

/** Edge values of a `string` field: empty, blank, control characters, a lone surrogate, very long, right-to-left and combining text, emoji, one text precomposed and decomposed. */
export const TEXT_EDGES: readonly EdgeValue[] = [
  edge('"" (empty)', ''),
  edge('whitespace only', ' \t '),
  edge('NUL', 'before\u0000after'),
  edge('the other C0 controls', `C0:${C0_CONTROLS}`),
  // JSON.stringify writes a lone surrogate as the escape \ud800: the JSON text stays ASCII, what it denotes is no Unicode text.
  edge('a lone surrogate escape', 'lone \ud800 surrogate', 'denotes-nothing', '"lone \\ud800 surrogate"'),
  edge('10,000 characters', 'x'.repeat(10_000)),
  edge('right-to-left text', 'שלום עולם مرحبا بالعالم'),
  edge('combining marks', 'Zoe\u0308 a\u0301\u0300\u0302'),
  // Beyond the BMP (four UTF-8 bytes, two UTF-16 units): MySQL's utf8mb3 cannot hold them.
  edge('emoji (beyond the BMP: a ZWJ family, a skin tone, a flag)', '😀 👩‍👩‍👧‍👦 👍🏽 🇹🇷'),
  // One text in both Unicode forms: either may be stored (ORD-OBS-023), neither may lose its accents.
  edge('precomposed text (NFC)', 'Zoë café Ångström'.normalize('NFC')),
  edge('the same text decomposed (NFD)', 'Zoë café Ångström'.normalize('NFD')),
];

/** A field of a create body (a path into it) and the edge value it carries. */
export interface EdgeCase {
  /** As a failure names it: "items[0].quantity = 2^31". */
  name: string;
  path: Array<string | number>;
  value: EdgeValue;
}

/**
 * A create body carrying one or more edge cases: what it denotes (the body a parser reads: what must come
 * back) and the JSON text sent (each edge written as its literal).
 */
export interface EdgeBody extends EdgesSent {
  /** The body before the edges were put in. */
  base: Record<string, unknown>;
  edges: EdgeCase[];
  denoted: Record<string, unknown>;
  /** The JSON text sent. */
  text: string;
}

/** A body with each case's value at its path: `denoted` as the parser reads it, `text` with the literals as sent, each case with its readings there. */
export function edgeBody(name: string, sent: Record<string, unknown>, edges: EdgeCase[], operation: Place['operation'] = 'create'): EdgeBody {
  // Each body its own references, a part sent again after another part was taken included (ORD-OBS-032).
  const base = withOwnReferences(sent);
  const denoted = structuredClone(base);
  const marked = structuredClone(base);
  const marker = (index: number) => `@@oms-edge-${index}@@`;
  edges.forEach(({ path, value }, index) => {
    setAt(denoted, path, value.denotes);
    setAt(marked, path, marker(index));
  });
  const text = edges.reduce((json, { value }, index) => json.replace(JSON.stringify(marker(index)), () => value.literal), JSON.stringify(marked));
  const cases = edges.map(({ name: caseName, path, value }) => {
    const pointer = path.map((key) => `/${key}`).join('');
    return { name: caseName, pointer, kind: value.kind, denotes: value.denotes, readings: readingsOf(value.kind, placeAt(pointer, operation)) };
  });
  return { name, base, edges, denoted, text, cases };
}

/** Each case of a body that carries several alone, in the body it came from, its item (if any) the only one. */
export function oneByOne(body: EdgeBody): EdgeBody[] {
  if (body.edges.length < 2) return [body];
  return body.edges.map((edge) => part(body, edge.name, [edge]));
}

/**
 * What a body of several cases that was not taken is sent again as: one body per value when it carries several
 * (item 3 alone with every field that carried the fourth value), one body per field when it carries one value in
 * several; none for a single case. Sent again in turn, each case is judged alone in the end, and a server that
 * refuses a value in one field pays one order per field only for the values it refuses.
 */
export function apart(body: EdgeBody): EdgeBody[] {
  if (body.edges.length < 2) return [];
  const values = [...new Set(body.edges.map(({ value }) => value))];
  if (values.length === 1) return oneByOne(body);
  return values.map((value) => part(body, `${body.name}: ${value.label}`, body.edges.filter((edge) => edge.value === value)));
}

/** Some cases of a body in the body they came from; when they all sit in one item, that item the only one. */
function part(body: EdgeBody, name: string, edges: EdgeCase[]): EdgeBody {
  const indices = new Set(edges.map(({ path: [field, index] }) => (field === 'items' && typeof index === 'number' ? index : undefined)));
  const [index] = indices;
  if (indices.size !== 1 || index === undefined) return edgeBody(name, body.base, edges);
  const items = [(body.base.items as unknown[])[index]];
  return edgeBody(name, { ...body.base, items }, edges.map((edge) => ({ ...edge, path: ['items', 0, ...edge.path.slice(2)] })));
}

/** The fields of a create body an update also takes (OrderUpdate), with their edges: what an update resends to read them back. */
export function asUpdate(body: EdgeBody): EdgeBody {
  const updatable = clientFields('OrderUpdate') as string[];
  const base = Object.fromEntries(Object.entries(body.base).filter(([field]) => updatable.includes(field)));
  return edgeBody(`${body.name}, sent again in an update`, base, body.edges.filter(({ path }) => updatable.includes(String(path[0]))), 'update');
}

function setAt(target: Record<string, unknown>, path: Array<string | number>, value: unknown): void {
  let at: Record<string | number, unknown> = target;
  // A container the body lacks (items[0].dimensions) is made on the way: the edge is then its only value.
  path.slice(0, -1).forEach((key, index) => (at = (at[key] ??= typeof path[index + 1] === 'number' ? [] : {}) as Record<string | number, unknown>));
  at[path[path.length - 1]] = value;
}

/**
 * Values most servers take go several to a body (one refused refuses the body, which is then sent again one
 * value at a time, so each is still judged alone); a wrong or coercible type and a literal beyond a double,
 * which many refuse, go alone from the start.
 */
function goesWithOthers(value: EdgeValue): boolean {
  return value.kind === 'plain' || value.kind === 'denotes-nothing' || (value.kind === 'unusual' && Number.isFinite(value.denotes as number));
}

/** A path into a create body, an array element written '*': ['items', '*', 'dimensions', 'length']. */
type SchemaPath = string[];

/**
 * The number, integer or boolean fields a create sends (components.schemas.OrderCreate at every depth, the readOnly
 * ones and those inside a readOnly object left out): price, items[].quantity, items[].weight,
 * items[].dimensions.length, billing.shipping, sales_channel.mark_as_paid … each gets the catalogue of its type. No field of openapi.yaml
 * bounds its number (no minimum, maximum or multipleOf: the document shows none), so every value is a value of
 * the field's type.
 */
export function fieldsOfType(type: 'number' | 'integer' | 'boolean' | 'date-time'): SchemaPath[] {
  const properties = everyProperty('OrderCreate');
  const readOnly = properties.filter(({ schema }) => contract().resolve(schema).readOnly === true || schema.readOnly === true).map(({ path }) => path.join('/'));
  const ofType = (schema: JsonSchema) => {
    const resolved = contract().resolve(schema);
    return type === 'date-time' ? resolved.type === 'string' && resolved.format === 'date-time' : resolved.type === type;
  };
  return properties.filter(({ path, schema }) => ofType(schema) && !readOnly.some((at) => path.join('/') === at || path.join('/').startsWith(`${at}/`))).map(({ path }) => path);
}

/** A schema path in a body: its first array element at '*'. */
const inBody = (path: SchemaPath, index = 0): Array<string | number> => path.map((key) => (key === '*' ? index : key));

/** A path as a failure names it: items[3].dimensions.length. */
const named = (path: Array<string | number>): string => path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${key}`)).join('').slice(1);

/**
 * The edge catalogue sent in create bodies (components.schemas.OrderCreate), driven by the field types of
 * openapi.yaml: each number and integer field gets the values of its type, each text field the text edges (in an
 * item's name and the order's note), each array and object its empty value and null. Values a correct server
 * takes go several to an order: the fields inside items one value per item (item 3 carries the fourth value in
 * every number field it has), the order's own fields (price, billing.shipping …) all the same value in an order
 * per value; an order not taken is sent again in parts (apart: one value, then one value in one field), so each
 * value is still judged alone. A wrong or coercible type and a literal beyond a double, which many refuse, go alone from
 * the start, one field at a time. Two items of one name go on purpose too (repeatedItemBodies). `base` makes a
 * fresh minimal order; an object it lacks that holds a number field (billing) is taken from the suite's fully
 * filled order, so no nested field a server may require is missing.
 */
export function createEdgeBodies(base: () => Record<string, unknown>): EdgeBody[] {
  const bodies: EdgeBody[] = [];
  const baseItem = () => structuredClone((base().items as unknown[])[0]) as Record<string, unknown>;
  const filled = fullOrder() as Record<string, unknown>;
  const withObjectsOf = (paths: Array<Array<string | number>>) => {
    const order = base();
    for (const [field] of paths) if (order[field] === undefined && typeof filled[field] === 'object') order[field] = structuredClone(filled[field]);
    return order;
  };
  // Each item of a bundle named apart, so only repeatedItemBodies sends two of one name: a fault that merges them is caught by name.
  const itemNumber = (index: number) => ({ ...baseItem(), name: `${String(baseItem().name)} #${index + 1}`, quantity: 1, price: 1 });
  const send = (type: 'number' | 'integer' | 'boolean' | 'date-time' | 'text', fields: SchemaPath[], values: readonly EdgeValue[]) => {
    const inItems = fields.filter((path) => path[0] === 'items' && path[1] === '*');
    const own = fields.filter((path) => !path.includes('*'));
    const bundled = values.filter(goesWithOthers);
    if (inItems.length > 0) {
      const order = { ...base(), items: bundled.map((_, index) => itemNumber(index)) };
      const edges = bundled.flatMap((value, index) => inItems.map((path) => ({ name: `${named(inBody(path, index))} = ${value.label}`, path: inBody(path, index), value })));
      bodies.push(edgeBody(`${type} edges in ${inItems.map((path) => named(path.slice(2))).join(', ')}, one value per item`, order, edges));
    }
    if (own.length > 0) {
      for (const value of bundled) {
        const cases = own.map((path) => ({ name: `${named(path)} = ${value.label}`, path, value }));
        bodies.push(edgeBody(`${own.map((path) => named(path)).join(', ')} = ${value.label}`, withObjectsOf(own), cases));
      }
    }
    for (const value of values.filter((candidate) => !goesWithOthers(candidate))) {
      for (const path of [...inItems, ...own]) {
        const at = inBody(path);
        const order = { ...withObjectsOf([at]), ...(path[0] === 'items' && { items: [itemNumber(0)] }) };
        bodies.push(edgeBody(`${named(at)} = ${value.label}`, order, [{ name: `${named(at)} = ${value.label}`, path: at, value }]));
      }
    }
  };
  send('integer', fieldsOfType('integer'), INTEGER_EDGES);
  send('number', fieldsOfType('number'), NUMBER_EDGES);
  send('boolean', fieldsOfType('boolean'), BOOLEAN_EDGES);
  send('date-time', fieldsOfType('date-time'), DATE_TIME_EDGES);
  send('text', [['items', '*', 'name']], TEXT_EDGES);
  // An empty or blank note is the update's to send (update note = ""); the other text edges go in the order's own note too.
  for (const value of TEXT_EDGES.filter((text) => text.denotes !== '' && !/^\s+$/.test(text.denotes as string))) {
    bodies.push(edgeBody(`note = ${value.label}`, base(), [{ name: `note = ${value.label}`, path: ['note'], value }]));
  }
  for (const { path, empty } of containerFields(base())) {
    for (const value of [edge(JSON.stringify(empty), empty), edge('null', null, 'null')]) {
      bodies.push(edgeBody(`${named(path)} = ${value.label}`, base(), [{ name: `${named(path)} = ${value.label}`, path, value }]));
    }
  }
  bodies.push(...repeatedItemBodies(base));
  bodies.push(...productBodies(base));
  return bodies;
}

/** The largest price the edge catalogue sends as a plain number (1e308): any product or sum of it past 1.8e308 is beyond a double. */
const LARGEST_PRICE = NUMBER_EDGES.find(({ label }) => label === '1e308')?.denotes as number;

/**
 * Orders whose item total or sum of totals is beyond a double, though each value sent is one (issue 43): the largest
 * price times quantities 2 and 10, and two items of it, with billing for a service that computes its sub_total from
 * them. JSON cannot write Infinity: a server that computes them refuses the order, or answers and stores a full form
 * that holds numbers (ORD-FORM-001), never a 2xx with an empty body or no JSON (PHP's json_encode fails on INF), nor
 * a 5xx. The case is the items array, of a value a server may refuse: its readings are refused and taken.
 */
export function productBodies(base: () => Record<string, unknown>): EdgeBody[] {
  const first = structuredClone((base().items as unknown[])[0]) as Record<string, unknown>;
  const billing = structuredClone((fullOrder() as Record<string, unknown>).billing);
  const overflowing = (name: string, items: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}): EdgeBody => {
    const body = edgeBody(name, { ...base(), ...extra, items }, []);
    return { ...body, cases: [{ name, pointer: '/items', kind: 'unusual', denotes: body.denoted.items, readings: readingsOf('unusual', placeAt('/items', 'create')) }] };
  };
  return [2, 10].map((quantity) => overflowing(`items[0].price = 1e308 with quantity ${quantity} (a total beyond a double)`, [{ ...first, price: LARGEST_PRICE, quantity }])).concat(
    overflowing(
      'items[0] and items[1] of price 1e308 (each total a double, their sum beyond one)',
      [1, 2].map((index) => ({ ...first, name: `${String(first.name)} #${index}`, price: LARGEST_PRICE, quantity: 1 })),
      { billing },
    ),
  );
}

/**
 * Orders with two items of one name, sent in every run: a store keyed on order and item name (or one that
 * merges like items) keeps one of them, which no draw of the generators is sure to show. Both must come back
 * as sent, in the order sent: alike in every field, with one price and different quantities, and with
 * different prices.
 */
export function repeatedItemBodies(base: () => Record<string, unknown>): EdgeBody[] {
  const first = structuredClone((base().items as unknown[])[0]) as Record<string, unknown>;
  const twin = (name: string, second: Record<string, unknown>): EdgeBody => {
    const body = edgeBody(name, { ...base(), items: [first, { ...first, ...second }] }, []);
    // The case is the items array: a merged pair shows as an items array one short.
    return { ...body, cases: [{ name, pointer: '/items', kind: 'plain', denotes: body.denoted.items, readings: readingsOf('plain', placeAt('/items', 'create')) }] };
  };
  return [
    twin('two items alike in every field (one name, one price, one quantity)', {}),
    twin('two items of one name and one price, with different quantities', { quantity: Number(first.quantity) + 3 }),
    twin('two items of one name, with different prices', { price: Number(first.price) + 7.25 }),
  ];
}

/**
 * The array and object fields of a create (openapi.yaml OrderCreate), each with its empty value ([] or {}):
 * the body's own, and the objects inside those that `body` carries (customer.address, items[0].dimensions …).
 */
function containerFields(body: Record<string, unknown>): Array<{ path: Array<string | number>; empty: unknown[] | Record<string, never> }> {
  const inside = (schema: JsonSchema | undefined, path: Array<string | number>, depth: number): Array<{ path: Array<string | number>; empty: unknown[] | Record<string, never> }> => {
    const resolved = schema && contract().resolve(schema);
    if (!resolved || depth > 1) return [];
    if (resolved.type === 'array') {
      const element = path.reduce<unknown>((at, key) => (at as Record<string | number, unknown> | undefined)?.[key], body);
      const nested = Array.isArray(element) && element.length > 0 ? inside(resolved.items as JsonSchema, [...path, 0], depth).filter(({ path: at }) => at.length > path.length + 1) : [];
      return [{ path, empty: [] }, ...nested];
    }
    if (resolved.type !== 'object') return [];
    const here = path.length > 0 && path[path.length - 1] !== 0 ? [{ path, empty: {} }] : [];
    const present = path.reduce<unknown>((at, key) => (at as Record<string | number, unknown> | undefined)?.[key], body) !== undefined;
    const children = present ? Object.entries((resolved.properties ?? {}) as Record<string, JsonSchema>).flatMap(([name, inner]) => inside(inner, [...path, name], depth + 1)) : [];
    return [...here, ...children];
  };
  const schema = properties('OrderCreate');
  return clientFields('OrderCreate').flatMap((field) => inside(schema[field], [field], 0));
}

/** An update of one field (components.schemas.OrderUpdate) to its empty value ("", 0, [], {}), to null, or to a value a create may refuse. */
export interface UpdateEdge extends EdgesSent {
  /** The JSON text sent, exactly (1e400 has no other way through). */
  text: string;
  /** What comes back is judged by round trip: not for an empty items array, whose effect is not shown (4.4, ORD-OBS-006). */
  roundTrip: boolean;
}

/**
 * Each updatable field alone with the empty value of its type, and alone with null: what `if (body.field)`
 * loses. Then each updatable number and integer field alone with each value of its catalogue that goes alone
 * in a create (a wrong or coercible type, 1e400): an update may read a body otherwise than
 * the create does (a model of its own, a lax parser that truncates 2.5), and the values a create refuses never
 * reach an update through the orders it took.
 */
export function updateEdges(): UpdateEdge[] {
  const schema = properties('OrderUpdate');
  const updatable = clientFields('OrderUpdate') as string[];
  const empty: Record<string, unknown> = { string: '', number: 0, integer: 0, boolean: false, array: [], object: {} };
  const emptyOrNull = updatable.flatMap((field) => {
    const type = contract().resolve(schema[field]).type as string;
    return [empty[type], null].map((value): UpdateEdge => {
      const name = `update ${field} = ${JSON.stringify(value)}`;
      const sent = edgeBody(name, {}, [{ name, path: [field], value: edge(JSON.stringify(value), value, value === null ? 'null' : 'plain') }], 'update');
      return { ...sent, roundTrip: !(Array.isArray(value) && field === 'items') };
    });
  });
  const alone = (['integer', 'number'] as const).flatMap((type) => {
    const values = (type === 'integer' ? INTEGER_EDGES : NUMBER_EDGES).filter((value) => !goesWithOthers(value) && value !== NEGATIVE_OVERFLOW);
    return fieldsOfType(type)
      .filter(([field]) => updatable.includes(field))
      .flatMap((path) =>
        values.map((value): UpdateEdge => {
          const at = inBody(path);
          const name = `update ${named(at)} = ${value.label}`;
          // An items array of one item, the edge its only unusual value.
          const base = path[0] === 'items' ? { items: [{ ...item(), quantity: 1 }] } : {};
          const sent = edgeBody(name, base, [{ name, path: at, value }], 'update');
          return { ...sent, roundTrip: true };
        }),
      );
  });
  return [...emptyOrNull, ...alone];
}
