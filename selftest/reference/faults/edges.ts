import { contract } from '../../../contract/openapi';
import type { StoredOrder } from '../../../reference/store';
import { newOrder } from '../../../reference/routes/orders';
import { scalarsReadAs } from '../variants/freedoms';
import { answersWhen, internalError } from './anomalies';
import { because, callerOf, fault, is, isSuccess, jsonBodyOf, mapStrings, onFullForm, operationOf, withJsonBody, withReplyBody, type FaultDefinition, type Json } from './kit';

/** A body with a number field of each item changed (the rest kept): 'quantity', or 'dimensions.length'. */
function mapItemNumbers(body: Json, fields: string[], change: (value: number) => number): Json {
  if (!Array.isArray(body.items)) return body;
  return { ...body, items: body.items.map((item: unknown) => fields.reduce((changed, field) => mapNumberAt(changed, field.split('.'), change), item)) };
}

/** A JSON value with the number at `path` changed, if there is one there (the rest kept). */
function mapNumberAt(value: unknown, path: string[], change: (value: number) => number): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const [key, ...rest] = path;
  const inner = (value as Json)[key];
  if (rest.length > 0) return inner && typeof inner === 'object' ? { ...value, [key]: mapNumberAt(inner, rest, change) } : value;
  return typeof inner === 'number' ? { ...value, [key]: change(inner) } : value;
}

const mapQuantities = (body: Json, change: (quantity: number) => number) => mapItemNumbers(body, ['quantity'], change);

/** A body with each item's quantity changed, whatever its type (a string or a word too; an item without one as it is). */
function mapQuantitiesAny(body: Json, change: (quantity: unknown) => unknown): Json {
  if (!Array.isArray(body.items)) return body;
  return { ...body, items: body.items.map((item: unknown) => (item && typeof item === 'object' && 'quantity' in item ? { ...item, quantity: change((item as Json).quantity) } : item)) };
}

/** What a DECIMAL(12,2) column of MySQL holds at most: without strict mode it stores a larger value as this, with a warning. */
const DECIMAL_12_2_LARGEST = 9_999_999_999.99;

/** A JSON value holds a scalar `found` picks, at any depth. */
function holds(value: unknown, found: (scalar: unknown) => boolean): boolean {
  if (Array.isArray(value)) return value.some((inner) => holds(inner, found));
  if (value && typeof value === 'object') return Object.values(value).some((inner) => holds(inner, found));
  return found(value);
}

/** A string with NUL in it, at any depth. */
const holdsNul = (value: unknown) => holds(value, (scalar) => typeof scalar === 'string' && scalar.includes('\u0000'));

/** A number no double holds (a literal such as 1e400, read as Infinity), at any depth. */
const holdsInfinity = (value: unknown) => holds(value, (scalar) => typeof scalar === 'number' && !Number.isFinite(scalar));

/** What the round trips of a stored value make fail besides the create's: the same value read back by get, update and list. */
const READ_BACK = because('the value stored wrongly is read back the same way by get, by an update that resends it and by the list', ['ORD-GET-002', 'ORD-UPDATE-002', 'ORD-UPDATE-003', 'ORD-LIST-008']);

/**
 * What servers break at the edges of values and freedoms (issue 28): a null taken where the document
 * leaves no room for one, a timestamp field holding text that names no time.
 */
export const EDGE_FAULTS: FaultDefinition[] = [
  fault({
    id: 'update-nulls-omitted-fields',
    level: 'MUST',
    catches: ['ORD-FORM-001'],
    subtle: true,
    description:
      'An update writes null over every field of the order it did not send, the ones the create requires too: after a PUT of a note alone, customer, items, currency and price come back null (null taken for "the client did not send it").',
    hooks: () => {
      const fields = Object.keys(contract().schema('OrderCreate').properties as object);
      return {
        rewriteReply: (request, reply, { services }) => {
          if (!is(request, 'update') || !isSuccess(reply)) return reply;
          const sent = (jsonBodyOf(request) ?? {}) as Json;
          const order = { ...(reply.body as StoredOrder) } as Json;
          for (const field of fields) if (!(field in sent)) order[field] = null;
          services.store.replace(order as StoredOrder);
          return { ...reply, body: order };
        },
      };
    },
  }),
  fault({
    id: 'list-empty-page-data-null',
    level: 'MUST',
    catches: ['ORD-LIST-001'],
    subtle: true,
    description: 'A page with no orders on it (past the last one) answers "data": null instead of an empty array.',
    hooks: () => ({
      rewriteReply: (request, reply) =>
        is(request, 'list') && isSuccess(reply) ? withReplyBody(reply, (body) => (Array.isArray(body.data) && body.data.length === 0 ? { ...body, data: null } : body)) : reply,
    }),
  }),
  fault({
    id: 'unsent-placed-at-not-a-date',
    level: 'MUST',
    catches: ['ORD-FORM-001'],
    subtle: true,
    description: 'A placed_at the client did not send comes back as the text "not placed": a date-time field holding something other than a date-time or nothing.',
    hooks: () => ({
      rewriteReply: (request, reply) => onFullForm(request, reply, (order) => (order.placed_at === undefined || order.placed_at === null ? { ...order, placed_at: 'not placed' } : order)),
    }),
  }),
  fault({
    id: 'quantity-int32-wrap',
    level: 'MUST',
    catches: ['ORD-CREATE-004'],
    collateral: READ_BACK,
    subtle: true,
    description: 'Item quantities are kept in an int32 column: 2^31 and above wrap around (2147483648 comes back as -2147483648, 2^32 as 0).',
    hooks: () => ({
      rewriteRequest: (request) => (is(request, 'create', 'update') ? withJsonBody(request, (body) => mapQuantities(body, (quantity) => (Number.isInteger(quantity) ? quantity | 0 : quantity))) : request),
    }),
  }),
  fault({
    id: 'quantity-fraction-truncated',
    level: 'MUST',
    catches: ['ORD-CREATE-004'],
    collateral: READ_BACK,
    subtle: true,
    description: 'An item quantity of 2.5 is taken and stored as 2 (an integer column that truncates what it is given, instead of refusing it or reading it as not sent).',
    hooks: () => ({
      rewriteRequest: (request) => (is(request, 'create', 'update') ? withJsonBody(request, (body) => mapQuantities(body, Math.trunc)) : request),
    }),
  }),
  fault({
    id: 'dimensions-int32-wrap',
    level: 'MUST',
    catches: ['ORD-CREATE-004'],
    collateral: READ_BACK,
    subtle: true,
    description:
      'Item dimensions are kept in int32 columns when whole (a Go service converting int64 to int32): a length, width or height of 2^31 or more wraps around (2147483648 comes back as -2147483648, 2^32 as 0).',
    hooks: () => ({
      rewriteRequest: (request) =>
        is(request, 'create', 'update')
          ? withJsonBody(request, (body) => mapItemNumbers(body, ['dimensions.length', 'dimensions.width', 'dimensions.height'], (value) => (Number.isSafeInteger(value) ? value | 0 : value)))
          : request,
    }),
  }),
  fault({
    id: 'weight-rounded-to-cents',
    level: 'MUST',
    catches: ['ORD-CREATE-004'],
    collateral: READ_BACK,
    subtle: true,
    description:
      'Item weights are kept in the NUMERIC(12,2) columns made for amounts and rounded to two decimals without a word: a weight of 0.001 comes back as 0 (an amount may be stored to the cent, ORD-OBS-015; a weight may not).',
    hooks: () => ({
      rewriteRequest: (request) => (is(request, 'create', 'update') ? withJsonBody(request, (body) => mapItemNumbers(body, ['weight'], (value) => Number(value.toFixed(2)))) : request),
    }),
  }),
  fault({
    id: 'tax-rate-float32',
    level: 'MUST',
    catches: ['ORD-CREATE-004'],
    collateral: READ_BACK,
    subtle: false,
    description:
      'Item tax rates are kept in float32 columns (PostgreSQL real): a rate of 0.001 comes back as 0.0010000000474974513, 2^31-1 as 2147483648 (a value a float32 cannot hold at all stays as sent).',
    hooks: () => ({
      rewriteRequest: (request) =>
        is(request, 'create', 'update') ? withJsonBody(request, (body) => mapItemNumbers(body, ['tax_rate'], (value) => (Number.isFinite(Math.fround(value)) ? Math.fround(value) : value))) : request,
    }),
  }),
  fault({
    id: 'billing-amounts-clamped',
    level: 'MUST',
    catches: ['ORD-CREATE-004'],
    collateral: because('the order is stored with the amount clamped, so a get of it shows it clamped too', ['ORD-GET-002']),
    subtle: true,
    description:
      'Billing amounts are kept in DECIMAL(12,2) columns of a MySQL without strict mode: an amount beyond them (2^53, 1e308) is stored as 9999999999.99 with a warning only, where a correct server refuses it or keeps it.',
    hooks: () => ({
      rewriteRequest: (request) =>
        is(request, 'create')
          ? withJsonBody(request, (body) => {
              const billing = body.billing;
              if (!billing || typeof billing !== 'object' || Array.isArray(billing)) return body;
              const clamp = (value: unknown) => (typeof value === 'number' && Math.abs(value) > DECIMAL_12_2_LARGEST ? Math.sign(value) * DECIMAL_12_2_LARGEST : value);
              return { ...body, billing: Object.fromEntries(Object.entries(billing as Json).map(([field, value]) => [field, clamp(value)])) };
            })
          : request,
    }),
  }),
  fault({
    id: 'text-astral-as-question-marks',
    level: 'MUST',
    catches: ['ORD-CREATE-004'],
    collateral: READ_BACK,
    subtle: true,
    description:
      'Text is kept in MySQL utf8mb3 columns without strict mode: each character beyond the BMP (an emoji, a flag) is stored as "?", while accents and other scripts come back as sent.',
    hooks: () => ({
      rewriteRequest: (request) => (is(request, 'create', 'update') ? withJsonBody(request, (body) => mapStrings(body, (text) => text.replace(/[\u{10000}-\u{10ffff}]/gu, '?')) as Json) : request),
    }),
  }),
  fault({
    id: 'update-quantity-fraction-truncated',
    level: 'MUST',
    catches: ['ORD-UPDATE-002'],
    collateral: because('the order after the update shows the quantity truncated', ['ORD-UPDATE-003']),
    subtle: true,
    description:
      'The create refuses a quantity of 2.5, but the update reads its body with a model of its own (Pydantic v1, whose int truncates): an update to 2.5 is taken and stored as 2.',
    hooks: () => ({
      rewriteRequest: (request) => (is(request, 'update') ? withJsonBody(request, (body) => mapQuantities(body, Math.trunc)) : request),
    }),
  }),
  fault({
    id: 'sent-timestamp-offset-ignored',
    level: 'MUST',
    catches: ['ORD-CREATE-004', 'ORD-GET-002'],
    collateral: because('an update that sends a date-time with an offset stores it the same way', ['ORD-UPDATE-002', 'ORD-UPDATE-003']),
    subtle: true,
    description:
      'A date-time the client sends with an offset (placed_at "2026-03-01T12:00:00+05:30") is stored as its wall time in UTC ("2026-03-01T12:00:00Z"), as PostgreSQL does with a timestamp without time zone column: the instant moves by the offset.',
    hooks: () => ({
      rewriteRequest: (request) => (is(request, 'create', 'update') ? withJsonBody(request, (body) => mapStrings(body, wallTimeInUtc) as Json) : request),
    }),
  }),
  fault({
    id: 'boolean-strings-cast',
    level: 'MUST',
    catches: ['ORD-CREATE-004', 'ORD-GET-002'],
    collateral: because('a word sent for a boolean (a generated wrong type) is taken as true', ['ORD-ERR-004']),
    subtle: true,
    description:
      'Booleans read as class-transformer\'s implicit conversion reads them (NestJS with enableImplicitConversion: Boolean(value)): any non-empty string is true, so a mark_as_paid of "false" is stored as true.',
    hooks: () => ({ rewriteRequest: scalarsReadAs((value, type) => ([type].flat().includes('boolean') && typeof value === 'string' ? value !== '' : value)) }),
  }),
  fault({
    id: 'text-nul-answered-500',
    level: 'SHOULD',
    catches: ['ORD-ERR-008'],
    collateral: [{ requirement: 'ORD-ERR-010', reason: "the 500 carries PostgreSQL's own error text (invalid byte sequence for encoding), internals of the service" }],
    subtle: true,
    description: 'A create or update whose text holds a NUL character is answered 500 (a PostgreSQL text column refuses it, and the error is not caught).',
    hooks: () => answersWhen(['create', 'update'], (request) => holdsNul(jsonBodyOf(request)), () => internalError('invalid byte sequence for encoding "UTF8": 0x00')),
  }),
  fault({
    id: 'text-nul-breaks-reads',
    level: 'MUST',
    catches: ['ORD-GET-001'],
    // Which list tests meet a page that holds the order depends on the draw (seen with OMS_SEED=1 and 777): any of them may fail.
    collateral: [
      ...because('the list pages that hold the order answer 500 too', ['ORD-LIST-001', 'ORD-LIST-004']),
      { requirement: 'ORD-ERR-010', reason: "each 500 carries PostgreSQL's own error text (invalid byte sequence for encoding), internals of the service" },
    ],
    subtle: true,
    description: 'An order whose text holds a NUL character is stored, but every later get of it answers 500 (the stored text breaks the serializer).',
    hooks: () => ({
      intercept: (request, { accounts, services }) => {
        const caller = callerOf(request, accounts);
        const { orderId } = operationOf(request);
        if (!is(request, 'get') || !caller || orderId === undefined) return undefined;
        return holdsNul(services.store.get(caller.id, orderId)) ? internalError('invalid byte sequence for encoding "UTF8": 0x00') : undefined;
      },
      rewriteReply: (request, reply) => (is(request, 'list') && isSuccess(reply) && holdsNul(reply.body) ? internalError('invalid byte sequence for encoding "UTF8": 0x00') : reply),
    }),
  }),
  fault({
    id: 'number-beyond-double-answered-500',
    level: 'SHOULD',
    catches: ['ORD-ERR-008'],
    subtle: true,
    description: 'A number literal no double holds (1e400, -1e400) is read as Infinity and the create answers 500.',
    hooks: () => answersWhen(['create', 'update'], (request) => holdsInfinity(jsonBodyOf(request)), internalError),
  }),
  fault({
    id: 'update-ignores-falsy-values',
    level: 'MUST',
    catches: ['ORD-UPDATE-002'],
    collateral: because('the order after the update shows the value the update ignored', ['ORD-UPDATE-003']),
    subtle: true,
    description: 'An update skips each field whose value is falsy (if (body.price) …): price 0 or note "" leave the order as it was, answered 200.',
    hooks: () => ({
      rewriteRequest: (request) =>
        is(request, 'update') ? withJsonBody(request, (body) => Object.fromEntries(Object.entries(body).filter(([, value]) => value !== 0 && value !== '' && value !== false && value !== null))) : request,
    }),
  }),
  fault({
    id: 'update-null-price-stored-as-default',
    level: 'MUST',
    catches: ['ORD-UPDATE-002'],
    collateral: because('the order after the update shows the default price', ['ORD-UPDATE-003']),
    subtle: true,
    description:
      'An update of price null stores a default price (float(body.get("price") or DEFAULT_PRICE), 9.99): a null over a field every order holds becomes a value the client never sent, neither the price held, nor 0 (the empty value of a number), nor what the same update without price leaves.',
    hooks: () => ({
      rewriteRequest: (request) => (is(request, 'update') ? withJsonBody(request, (body) => (body.price === null ? { ...body, price: 9.99 } : body)) : request),
    }),
  }),
  fault({
    id: 'null-payment-stored-as-example',
    level: 'MUST',
    catches: ['ORD-CREATE-004', 'ORD-GET-002'],
    subtle: true,
    description:
      'A create with payment null stores the payment of the documentation example ({"method": "card", "status": "completed"}), while an order sent without payment has none: the null is read neither as sent nor as not sent.',
    hooks: () => ({
      rewriteRequest: (request) => (is(request, 'create') ? withJsonBody(request, (body) => (body.payment === null ? { ...body, payment: { method: 'card', status: 'completed' } } : body)) : request),
    }),
  }),
  fault({
    id: 'lone-surrogate-cuts-text',
    level: 'MUST',
    catches: ['ORD-CREATE-004'],
    collateral: READ_BACK,
    subtle: true,
    description: 'Text with a lone surrogate escape is cut at it ("lone \\ud800 surrogate" is stored as "lone ?"), as a C string library that stops at the first byte it cannot encode: more is lost than the value that denotes nothing.',
    hooks: () => ({
      rewriteRequest: (request) =>
        is(request, 'create', 'update') ? withJsonBody(request, (body) => mapStrings(body, (text) => text.replace(/[\ud800-\udbff](?![\udc00-\udfff])[^]*$|(?<![\ud800-\udbff])[\udc00-\udfff][^]*$/u, '?')) as Json) : request,
    }),
  }),
  fault({
    id: 'wrong-quantity-stored-as-one',
    level: 'MUST',
    catches: ['ORD-CREATE-004'],
    collateral: READ_BACK,
    subtle: true,
    description: 'An item quantity that is a number but no integer (2.5), or a numeric string ("3"), is stored as 1, a default of the handler, while an item sent without quantity has none: neither the value sent, nor its reading as not sent.',
    hooks: () => ({
      rewriteRequest: (request) =>
        is(request, 'create', 'update')
          ? withJsonBody(request, (body) => mapQuantitiesAny(body, (quantity) => ((typeof quantity === 'number' && !Number.isInteger(quantity)) || (typeof quantity === 'string' && /^\d+$/.test(quantity)) ? 1 : quantity)))
          : request,
    }),
  }),
  fault({
    id: 'create-total-beyond-double-empty-body',
    level: 'MUST',
    catches: ['ORD-GEN-001'],
    subtle: true,
    description:
      "A create whose item total (quantity times price: 1e308 times 2) is beyond a double is stored, and answered 201 with an empty body: PHP's json_encode fails on INF, and the handler echoes what it returned, false.",
    hooks: () => ({
      intercept: (request, { accounts, services }) => {
        const caller = callerOf(request, accounts);
        const body = jsonBodyOf(request) as Json | undefined;
        const items = Array.isArray(body?.items) ? (body.items as Json[]) : [];
        const beyond = (item: Json) => typeof item.quantity === 'number' && typeof item.price === 'number' && !Number.isFinite(item.quantity * item.price);
        if (!is(request, 'create') || !caller || !body || !items.some(beyond)) return undefined;
        // Stored as the clean server stores an order, each total the product, Infinity where it overflows.
        const order = newOrder({ ...body, items: items.map((item) => ({ ...item, price: 0 })) }, services, caller.id, services.newId());
        services.store.insert({ ...order, items: (order.items as Json[]).map((item, index) => ({ ...item, price: items[index].price, total: Number(items[index].quantity) * Number(items[index].price) })) });
        return { status: 201, headers: { 'Content-Type': 'application/json; charset=utf-8' }, rawBody: '' };
      },
    }),
  }),
];

/** A date-time with a non-zero offset read as the same wall time in UTC (the offset ignored); any other text as it is. */
function wallTimeInUtc(text: string): string {
  const offset = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)[+-]\d{2}:\d{2}$/.exec(text);
  return offset && !/[+-]00:00$/.test(text) ? `${offset[1]}Z` : text;
}
