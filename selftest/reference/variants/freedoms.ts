import { isUtf8 } from 'node:buffer';
import { gzipSync } from 'node:zlib';
import { instantOf } from '../../../contract/datetime';
import { ruleAt } from '../../../contract/fields';
import { contract, type JsonSchema } from '../../../contract/openapi';
import { loneSurrogatesReplaced } from '../../../config/safe-text';
import { ApiError, errorReply, type ApiReply, type ApiRequest } from '../../../reference/http';
import type { StoredOrder } from '../../../reference/store';
import type { HookContext } from '../../../reference/app';
import { afterHardDelete, allOrders, callerOf, duplicateKeyIn, is, isSuccess, jsonBodyOf, lenientJson, mapStrings, onFullForm, onSummaries, operationOf, withJsonBody, withReplyBody, withStore, type Hooks, type Json } from '../faults/kit';

/**
 * The behaviours of the freedoms of issue 11 (what an independent, correct server does where the
 * document is silent), kept apart from knobs.ts so each reads as the one thing it changes.
 */

type Filler = (schema: JsonSchema, depth: number) => unknown;

/**
 * Every optional field the full form (Order) declares and the order does not carry, filled with an
 * empty value of its type ("", 0, false, [], an object of empty values), at any depth; a sent null of a
 * "string or null" field is written as "" (a NOT NULL DEFAULT '' column).
 */
export function emptyUnsentFields(order: Json, schema: JsonSchema = contract().schema('Order')): Json {
  return fillUnsent(order, schema, emptyValue, 0, true);
}

/** Every optional field not sent, at any depth, as null (a nested object that was sent keeps its own fields). */
export function nullUnsentFields(order: Json, schema: JsonSchema = contract().schema('Order')): Json {
  return fillUnsent(order, schema, () => null, 0, false);
}

/**
 * Every object field sent as null or as {}, at any depth, stored as an object of its documented fields, each
 * null: a service whose full form always has every field, an unset object included ({"main": null, "work": null}).
 */
export function nullObjectsAsObjectsOfNulls(): Hooks {
  return {
    // Its validation takes null where an object goes: read as {} on the way in.
    // Its validation takes null where a nested object goes (customer.email; an order's own objects keep what they were): read as {} on the way in.
    rewriteRequest: (request) => (is(request, 'create', 'update') ? withJsonBody(request, (body) => mapObjectFields(body, contract().schema('Order'), () => ({}), Object.keys(body))) : request),
    ...storedAs((order) => mapObjectFields(order as unknown as Json, contract().schema('Order'), (object) => nullUnsentFields({}, object)) as unknown as StoredOrder),
  };
}

/** Every object field that is null or {}, at any depth, replaced by `replace` of its schema (but the fields `keep` at this level, whose insides still are). */
function mapObjectFields(value: Json, schema: JsonSchema, replace: (object: JsonSchema) => Json, keep: string[] = []): Json {
  const properties = (objectBranch(schema)?.properties as Record<string, JsonSchema> | undefined) ?? {};
  const out: Json = { ...value };
  for (const [field, inner] of Object.entries(properties)) {
    const object = objectBranch(inner);
    if (!object) continue;
    if (!keep.includes(field) && (out[field] === null || (isObject(out[field]) && Object.keys(out[field] as Json).length === 0))) out[field] = replace(object);
    else if (isObject(out[field])) out[field] = mapObjectFields(out[field] as Json, inner, replace);
  }
  return out;
}

function fillUnsent(order: Json, schema: JsonSchema, fill: Filler, depth: number, nullAsEmpty: boolean): Json {
  const resolved = objectBranch(schema);
  const properties = (resolved?.properties as Record<string, JsonSchema> | undefined) ?? {};
  const out: Json = { ...order };
  for (const [field, inner] of Object.entries(properties)) {
    const element = contract().resolve(inner).items as JsonSchema | undefined;
    if (out[field] === undefined) out[field] = fill(inner, depth + 1);
    else if (out[field] === null && nullAsEmpty && isNullableString(inner)) out[field] = '';
    else if (isObject(out[field]) && objectBranch(inner)) out[field] = fillUnsent(out[field] as Json, inner, fill, depth + 1, nullAsEmpty);
    else if (Array.isArray(out[field]) && element && objectBranch(element)) {
      out[field] = (out[field] as unknown[]).map((entry) => (isObject(entry) ? fillUnsent(entry, element, fill, depth + 1, nullAsEmpty) : entry));
    }
  }
  return out;
}

function isNullableString(schema: JsonSchema): boolean {
  const type = contract().resolve(schema).type;
  return Array.isArray(type) && type.includes('string') && type.includes('null');
}

function emptyValue(schema: JsonSchema, depth: number): unknown {
  const object = objectBranch(schema);
  if (object) return depth > 6 ? {} : fillUnsent({}, object, emptyValue, depth, true);
  const resolved = contract().resolve(schema);
  const types = ([] as unknown[]).concat(resolved.type ?? ((resolved.oneOf ?? []) as JsonSchema[]).map((b) => contract().resolve(b).type));
  if (types.includes('string')) return '';
  if (types.includes('number') || types.includes('integer')) return 0;
  if (types.includes('boolean')) return false;
  if (types.includes('array')) return [];
  return null;
}

function objectBranch(schema: JsonSchema): JsonSchema | undefined {
  const resolved = contract().resolve(schema);
  if (resolved.type === 'object') return resolved;
  const branches = (resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined;
  return branches?.map((branch) => contract().resolve(branch)).find((branch) => branch.type === 'object');
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A server that stores an order in its own way (computes, rounds, truncates): the change is applied to
 * what is stored and to the full form create and update answer, so every read shows the stored value.
 */
export function storedAs(change: (order: StoredOrder, operation: 'create' | 'update') => StoredOrder): Hooks {
  return {
    wrapServices: (services) =>
      withStore(services, (store) => ({
        insert: (order) => store.insert(change(order, 'create')),
        replace: (order) => store.replace(change(order, 'update')),
      })),
    // The answer shows the fields this change touches as stored (through every store wrapper); every other
    // field keeps what the answer had, other rewrites included (a deleted_at another knob wrote).
    rewriteReply: (request, reply, { services }) =>
      is(request, 'create', 'update')
        ? onFullForm(request, reply, (order) => {
            const operation = is(request, 'create') ? 'create' : 'update';
            const changed = change(structuredClone(order) as StoredOrder, operation) as Json;
            const stored = (services.store.get(String(order.user_id), String(order.id)) as Json | undefined) ?? changed;
            const touched = Object.keys(changed).filter((key) => JSON.stringify(changed[key]) !== JSON.stringify(order[key]));
            return { ...order, ...Object.fromEntries(touched.map((key) => [key, stored[key]])) };
          })
        : reply,
  };
}

/** Rounds a number to the cent, as NUMERIC(12,2) stores it. */
function toCents(value: number): number {
  return Math.round(Number((value * 100).toPrecision(12))) / 100;
}

/** Every amount (x-amount in openapi.yaml) of an order, at any depth, stored to the cent. */
export function amountsInCents(value: unknown, pointer = ''): unknown {
  if (typeof value === 'number') return ruleAt(pointer)?.amount ? toCents(value) : value;
  if (Array.isArray(value)) return value.map((element, index) => amountsInCents(element, `${pointer}/${index}`));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, amountsInCents(inner, `${pointer}/${key}`)]));
  return value;
}

/** A client-sent timestamp stored to `unitMs` (1000: the second; 1: the millisecond, as a JavaScript Date keeps it), truncated, written in UTC. */
function truncatedTo(value: unknown, unitMs: number): unknown {
  if (typeof value !== 'string') return value;
  const instant = Date.parse(value);
  if (Number.isNaN(instant)) return value;
  const iso = new Date(Math.floor(instant / unitMs) * unitMs).toISOString();
  return unitMs >= 1000 ? `${iso.slice(0, 19)}Z` : iso;
}

/** The date-times a client sends (each field OrderCreate gives format date-time: placed_at, sales_channel.updated_at) stored to `unitMs`. */
export function sentTimestampsTo(unitMs: number): (order: StoredOrder) => StoredOrder {
  return (order) => readScalars(order, contract().schema('OrderCreate'), (value, _type, format) => (format === 'date-time' ? truncatedTo(value, unitMs) : value)) as StoredOrder;
}

/**
 * Billing sub_total, tax (at 18 %) and total computed from the items, whatever the client sent. Items whose totals
 * add up beyond a double (two of 1e308) are refused, the order kept as it was: JSON holds no such number.
 */
export function billingComputed(order: StoredOrder): StoredOrder {
  if (!isObject(order.billing)) return order;
  const items = Array.isArray(order.items) ? (order.items as Json[]) : [];
  const subTotal = toCents(items.reduce((sum, item) => sum + Number(item.quantity ?? 0) * Number(item.price ?? 0), 0));
  const tax = toCents(subTotal * 0.18);
  const billing = order.billing;
  const total = toCents(subTotal + tax + Number(billing.shipping ?? 0) - Number(billing.discount ?? 0));
  if (![subTotal, tax, total].every(Number.isFinite)) {
    throw new ApiError(400, 'validation_failed', 'The request body is invalid', [{ field: 'billing.sub_total', error: 'the item totals add up beyond any number' }]);
  }
  return { ...order, billing: { ...billing, sub_total: subTotal, tax, total } };
}

/** Each item's total with its tax rate (percent) and discount applied, rather than quantity × price alone. */
export function itemTotalsWithTax(order: StoredOrder): StoredOrder {
  if (!Array.isArray(order.items)) return order;
  const items = (order.items as Json[]).map((item) => {
    if (typeof item.quantity !== 'number' || typeof item.price !== 'number') return item;
    const rate = typeof item.tax_rate === 'number' ? item.tax_rate : 20;
    const discount = typeof item.discount === 'number' ? item.discount : 0;
    return { ...item, total: toCents(item.quantity * item.price * (1 + rate / 100) - discount) };
  });
  return { ...order, items };
}

/** A page past the last one answered 404 with the error envelope (4.1 does not say what it answers). */
export function pastLastPageNotFound(request: ApiRequest, reply: ApiReply): ApiReply {
  if (!is(request, 'list') || !isSuccess(reply)) return reply;
  const body = reply.body as { data?: unknown[]; meta?: { total?: number } };
  const page = Number(request.query.get('page') ?? 1);
  if (page <= 1 || (body.data?.length ?? 0) > 0) return reply;
  return errorReply(new ApiError(404, 'page_not_found', `Page ${page} is past the last page`, [{ field: 'page', error: 'past the last page' }]));
}

/** Empty or whitespace-only text, text over 255 characters, an e-mail address outside ASCII: what a strict server refuses. */
export function exoticText(value: unknown, key = ''): string | undefined {
  if (typeof value === 'string') {
    if (value.trim() === '') return `${key || 'a field'} is ${value === '' ? 'empty' : 'blank'}`;
    if (value.length > 255) return `${key || 'a field'} is longer than 255 characters`;
    if (/email|main|work/.test(key) && value.includes('@') && /[^\x20-\x7e]/.test(value)) return `${key} is not an ASCII e-mail address`;
    return undefined;
  }
  if (Array.isArray(value)) return value.map((inner) => exoticText(inner, key)).find(Boolean);
  if (isObject(value)) return Object.entries(value).map(([inner, v]) => exoticText(v, inner)).find(Boolean);
  return undefined;
}

/** A number a strict server refuses: a quantity outside 1..1000, an amount negative, above 1 000 000 or with more than 2 decimals. */
export function exoticNumber(value: unknown, key = ''): string | undefined {
  if (typeof value === 'number') {
    if (key === 'quantity') return Number.isInteger(value) && value >= 1 && value <= 1000 ? undefined : `quantity ${value} is outside 1..1000`;
    if (value < 0 || value > 1_000_000) return `${key || 'a number'} is outside 0..1000000`;
    return /\.\d{3,}$|e/i.test(String(value)) ? `${key || 'a number'} has more than 2 decimals` : undefined;
  }
  if (Array.isArray(value)) return value.map((inner) => exoticNumber(inner, key)).find(Boolean);
  if (isObject(value)) return Object.entries(value).map(([inner, v]) => exoticNumber(v, inner)).find(Boolean);
  return undefined;
}

/** Refuses, with 400 and the envelope, a create or update holding what `exotic` finds (limits of nested fields are not shown). */
export function refuseExotic(exotic: (body: unknown) => string | undefined) {
  return refuseRequest((request) => {
    const body = jsonBodyOf(request);
    return body === undefined ? undefined : exotic(body);
  });
}

/** Refuses, with 400 and the envelope, a create or update in which `problemOf` finds a problem (in its text or its body). */
export function refuseRequest(problemOf: (request: ApiRequest) => string | undefined) {
  return (request: ApiRequest, { accounts }: HookContext): ApiReply | undefined => {
    if (!is(request, 'create', 'update') || !callerOf(request, accounts)) return undefined;
    const problem = problemOf(request);
    return problem ? errorReply(new ApiError(400, 'validation_failed', 'The request body is invalid', [{ field: '(body)', error: problem }])) : undefined;
  };
}

/** The list ordered by id (stable, but neither oldest nor newest first: a new order may land on any page; 4.1: order not shown). */
export function listedById(): Hooks {
  return {
    wrapServices: (services) =>
      withStore(services, (store) => ({
        page: (account, offset, limit) => {
          const orders = allOrders(store, account).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
          return { orders: orders.slice(offset, offset + limit), total: orders.length };
        },
      })),
  };
}

/** The nested fields the document's create example sends (2.3: its address; 2.4: "Fields sent when creating an item"). */
const EXAMPLE_ADDRESS = ['street', 'city', 'state', 'zip', 'country_code'];
const EXAMPLE_ITEM = ['name', 'quantity', 'category', 'price', 'hs_code', 'origin'];

/** A server that requires in a create or update body the nested fields of the document's create example: what is missing, if anything. */
export function exampleNestedFieldMissing(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const { customer, items } = body;
  if (isObject(customer)) {
    if (!('name' in customer)) return 'customer.name is required';
    const address = customer.address;
    if (!isObject(address)) return 'customer.address is required';
    const field = EXAMPLE_ADDRESS.find((name) => !(name in address));
    if (field) return `customer.address.${field} is required`;
  }
  for (const [index, entry] of (Array.isArray(items) ? items : []).entries()) {
    const field = EXAMPLE_ITEM.find((name) => !isObject(entry) || !(name in entry));
    if (field) return `items[${index}].${field} is required`;
  }
  return undefined;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const INT32_MAX = 2_147_483_647;

/** Ids from a sequence, as an integer column assigns them: "1", "2" … (2.1: the id's format is not shown, ORD-OBS-007). */
export function int32SequenceIds(): Hooks {
  let last = 0;
  return { wrapServices: (services) => ({ ...services, newId: () => String(++last) }) };
}

/** The form of the ids a server assigns, from one it made: a UUID, a 32-bit integer, or its letter prefix and length. */
export function idForm(sample: string): Pick<RegExp, 'test'> {
  if (UUID.test(sample)) return UUID;
  if (/^\d+$/.test(sample)) return { test: (id) => /^\d{1,10}$/.test(id) && Number(id) <= INT32_MAX };
  const prefix = /^[A-Za-z]+_/.exec(sample)?.[0] ?? '';
  return new RegExp(`^${prefix}[A-Za-z0-9_-]{${sample.length - prefix.length}}$`);
}

/** Refuses with 400 an order id that is not of the form this server assigns, before looking it up. */
export function refuseMalformedIds(): (request: ApiRequest, context: HookContext) => ApiReply | undefined {
  let form: Pick<RegExp, 'test'> | undefined;
  return (request, { accounts, services }) => {
    const { orderId } = operationOf(request);
    if (orderId === undefined || !callerOf(request, accounts)) return undefined;
    form ??= idForm(services.newId());
    if (form.test(orderId)) return undefined;
    return errorReply(new ApiError(400, 'invalid_parameter', 'order_id is not a valid order id', [{ field: 'order_id', error: 'not an order id' }]));
  };
}

/**
 * The path id read as a parser that trims reads it (Python's int, Spring's number conversion): whitespace around it
 * dropped, and a number with leading zeros read as the number (012 is 12). The id written otherwise names the order
 * itself, nothing lost (ORD-OBS-018; checks/readings.ts, path ids); an id that extends it (12abc) still names none.
 */
export function pathIdsTrimmedAndReadAsNumbers(request: ApiRequest): ApiRequest {
  const { orderId } = operationOf(request);
  if (orderId === undefined || !is(request, 'get', 'update', 'delete')) return request;
  const trimmed = orderId.trim();
  const read = /^\d+$/.test(trimmed) ? BigInt(trimmed).toString() : trimmed;
  return read === orderId ? request : { ...request, path: `/orders/${encodeURIComponent(read)}` };
}

/** Each scalar of a create or update body read by `read`, given the type the request schema gives it (what a lax parser does), at any depth. */
export function scalarsReadAs(read: (value: unknown, type: unknown) => unknown): (request: ApiRequest) => ApiRequest {
  return (request) => {
    if (!is(request, 'create', 'update')) return request;
    const schema = contract().schema(is(request, 'create') ? 'OrderCreate' : 'OrderUpdate');
    return withJsonBody(request, (body) => readScalars(body, schema, read) as Json);
  };
}

/** A body with each scalar replaced by `read` of it and its schema's type and format, at any depth. */
export function readScalars(value: unknown, schema: JsonSchema, read: (value: unknown, type: unknown, format: unknown) => unknown): unknown {
  const resolved = contract().resolve(schema);
  if (Array.isArray(value)) return resolved.items ? value.map((element) => readScalars(element, resolved.items as JsonSchema, read)) : value;
  if (isObject(value)) {
    if (!resolved.properties) return value;
    const properties = resolved.properties as Record<string, JsonSchema>;
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, properties[key] ? readScalars(inner, properties[key], read) : inner]));
  }
  return read(value, resolved.type, resolved.format);
}

/** A numeric string where the request schema wants a number (or integer) taken as that number, at any depth. */
export const coerceNumericStrings = scalarsReadAs(numericStringAsNumber);

/** A numeric string read as its number where a number goes (an integer one where an integer goes), any other value as it is. */
export function numericStringAsNumber(value: unknown, type: unknown): unknown {
  const types = [type].flat();
  const denotes = typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) && (types.includes('number') || (types.includes('integer') && /^-?\d+$/.test(value.trim())));
  return denotes ? Number(value) : value;
}

/** Optional fields that were not sent, filled in every full form and summary (with an empty value of their type). */
export function unsentFields(fill: (order: Json, schema: JsonSchema) => Json): Hooks {
  return {
    rewriteReply: (request, reply) =>
      onSummaries(
        request,
        onFullForm(request, reply, (order) => fill(order, contract().schema('Order'))),
        (summary) => fill(summary, contract().schema('OrderSummary')),
      ),
  };
}

/** Service timestamps written with an hour-only offset ("2026-11-20T14:30:05+05"), to the second. */
export function hourOnlyOffsetTimestamps(): Hooks {
  const written = (instant: number) => `${new Date(Math.floor(instant / 1000) * 1000 + 5 * 3600_000).toISOString().slice(0, 19)}+05`;
  return {
    wrapServices: (services) => ({
      ...services,
      now: () => written(Date.now()),
      // A whole second later at least, so updated_at still advances at second precision.
      later: (previous) => written(Math.max(Date.now(), instantOf(previous) + 1000)),
    }),
  };
}

/** Text of a created or updated order stored in Unicode NFD (decomposed), as some databases and file systems keep it. */
export function textInNfd(request: ApiRequest): ApiRequest {
  return is(request, 'create', 'update') ? withJsonBody(request, (body) => mapStrings(body, (text) => text.normalize('NFD')) as Json) : request;
}

/** Each lone surrogate of the text sent read as U+FFFD, as Go's encoding/json reads the escape \ud800. */
export function loneSurrogatesAsReplacement(request: ApiRequest): ApiRequest {
  return is(request, 'create', 'update') ? withJsonBody(request, (body) => mapStrings(body, loneSurrogatesReplaced) as Json) : request;
}

/** Text stored with its whitespace normalised, as validators that trim do: `squish` also makes every run of whitespace one space. */
export function textWhitespace(squish: boolean): (request: ApiRequest) => ApiRequest {
  const normalise = (text: string) => (squish ? text.replace(/\s+/g, ' ') : text).trim();
  return (request) => (is(request, 'create', 'update') ? withJsonBody(request, (body) => mapStrings(body, normalise) as Json) : request);
}

/**
 * A server that stores the bytes of its tokens and decodes what a client sends before the lookup, as
 * Node's base64url decoder does it: leniently (trailing bits and a lone trailing character ignored).
 */
export function tokensDecodedBeforeLookup(): Hooks {
  const decoded = (token: string) => Buffer.from(token, 'base64url');
  return {
    rewriteRequest: (request, { accounts }) => {
      const sent = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (!sent || accounts.accountFor(sent)) return request;
      const valid = accounts.validTokens().find(([token]) => decoded(token).equals(decoded(sent)))?.[0];
      return valid ? { ...request, headers: { ...request.headers, authorization: `Bearer ${valid}` } } : request;
    },
  };
}

/** A live order's deleted_at as `value` instead of null (what it holds before a delete is not shown). */
export function liveDeletedAt(order: Json, value: string): Json {
  return order.deleted_at === null ? { ...order, deleted_at: value } : order;
}

export function someResponseFields(order: Json): Json {
  const channel = order.sales_channel;
  const billing = order.billing;
  return {
    ...order,
    ...(isObject(channel) ? { sales_channel: { use_carrier_shipment_id: false, use_carrier_shipment_id_locked: false, is_marketplace: false, ...channel } } : {}),
    ...(isObject(billing) ? { billing: { shipping_tax_rate: 18, ...billing } } : {}),
  };
}

/** Every second full form answered carries the fields that "appear in some responses" (2.2, 2.6); the others do not add them. */
export function inSomeResponses(): Hooks {
  let answered = 0;
  return { rewriteReply: (request, reply) => onFullForm(request, reply, (order) => (answered++ % 2 === 0 ? someResponseFields(order) : order)) };
}

const emptyItems = (body: Json): boolean => Array.isArray(body.items) && body.items.length === 0;

/** An update whose items is an empty array keeps the items the order had (4.4: the effect of an empty items array is not shown). */
export function keepItemsOnEmptyUpdate(request: ApiRequest): ApiRequest {
  if (!is(request, 'update')) return request;
  return withJsonBody(request, (body) => {
    if (!emptyItems(body)) return body;
    const { items: _ignored, ...rest } = body;
    return rest;
  });
}

/** An update of an order of the caller whose items is an empty array is refused with 422 and the envelope (4.4). */
export function refuseEmptyItemsOnUpdate(request: ApiRequest, { accounts, services }: HookContext): ApiReply | undefined {
  const caller = callerOf(request, accounts);
  const { operation, orderId } = operationOf(request);
  // An unknown id still answers 404 (ORD-UPDATE-006): only an order the caller holds is refused for its items.
  if (operation !== 'update' || !caller || orderId === undefined || !services.store.get(caller.id, orderId)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(request.bodyText);
  } catch {
    return undefined;
  }
  if (!isObject(body) || !emptyItems(body)) return undefined;
  return errorReply(new ApiError(422, 'validation_failed', 'An order holds at least one item', [{ field: 'items', error: 'must not be empty' }]));
}

/**
 * Ids of deleted orders given to new orders, the most recently deleted first (as a table whose keys come
 * back into use does): the id of a deleted order may name another order later (4.5: not shown).
 */
export function deletedIdsReused(): Hooks {
  const freed: string[] = [];
  // The id drawn for a new order -> the freed id it was stored under, until the create is answered.
  const renamed = new Map<string, string>();
  return {
    wrapServices: (services) =>
      withStore(services, (store) => ({
        remove: (accountId, orderId) => {
          const removed = store.remove(accountId, orderId);
          // Only an id nothing holds any more comes back into use: a soft-deleted order still holds its id.
          if (removed && !store.get(accountId, orderId)) freed.push(orderId);
          return removed;
        },
        insert: (order) => {
          const reused = freed.pop();
          if (reused === undefined) return store.insert(order);
          renamed.set(order.id, reused);
          return store.insert({ ...order, id: reused });
        },
      })),
    rewriteReply: (request, reply) =>
      is(request, 'create') && isSuccess(reply)
        ? withReplyBody(reply, (order) => {
            const reused = renamed.get(String(order.id));
            if (reused === undefined) return order;
            renamed.delete(String(order.id));
            return { ...order, id: reused };
          })
        : reply,
  };
}

/**
 * Other words for the order status (section 3: values are not a closed list, transitions not shown): a new
 * order is "open", and an update moves it to "processing".
 */
export function otherStatusWords(): Hooks {
  return storedAs((order, operation) => ({ ...order, status: operation === 'create' ? 'open' : 'processing' }));
}

/** Each create and update recorded as an entry of the order's activities (events of the order; section 6: not shown). */
export function activitiesRecorded(): Hooks {
  return storedAs((order, operation) => ({
    ...order,
    activities: [...(Array.isArray(order.activities) ? order.activities : []), { type: `order.${operation}d`, at: order.updated_at }],
  }));
}

/** Every answer names the version of the interface it speaks, in a header (section 9: versioning not shown). */
export function versionHeader(): Hooks {
  return { rewriteReply: (_request, reply) => ({ ...reply, headers: { ...reply.headers, 'API-Version': '2026-11-01' } }) };
}

/**
 * A method the interface does not define refused otherwise than with 405 (ORD-OBS-035): 404 and the envelope, as a
 * router with no route for it answers (Express), or 501 Not Implemented; neither carries an Allow header.
 */
export function undefinedMethodsAnswered(status: 404 | 501): Hooks {
  return {
    rewriteReply: (request, reply) => {
      if (reply.status !== 405) return reply;
      const error = status === 404 ? new ApiError(404, 'not_found', `No route for ${request.method} ${request.path}`) : new ApiError(501, 'not_implemented', `${request.method} is not implemented for ${request.path}`);
      return errorReply(error);
    },
  };
}

/** A 405's Allow header names HEAD and OPTIONS besides the methods of the path (RFC 9110 15.5.6: the methods the resource supports), as servers that answer them do. */
export function allowWithHeadAndOptions(): Hooks {
  return {
    rewriteReply: (_request, reply) => {
      const allow = Object.entries(reply.headers ?? {}).find(([name]) => name.toLowerCase() === 'allow');
      return reply.status === 405 && allow ? { ...reply, headers: { ...reply.headers, [allow[0]]: `${allow[1]}, HEAD, OPTIONS` } } : reply;
    },
  };
}

/**
 * A refused body answered in the words Jackson writes (Spring Boot with server.error.include-message=always): the
 * message names each field at fault, quotes the value sent and walks the reference chain of its classes
 * (OrderCreate["items"]->java.util.ArrayList[0]->Item["quantity"]). Its words are free (ORD-OBS-002); neither the
 * value echoed nor the class names are internals of the kind ORD-ERR-010 looks for.
 */
export function errorsNamingFieldAndValue(): Hooks {
  return {
    rewriteReply: (request, reply) => {
      const details = ((reply.body as { meta?: { details?: unknown } } | undefined)?.meta?.details ?? []) as Array<{ field?: unknown; error?: unknown }>;
      if (reply.status < 400 || reply.status >= 500 || !Array.isArray(details) || details.length === 0) return reply;
      const body = jsonBodyOf(request);
      const named = details.map(({ field, error }) => {
        const path = String(field).split('.');
        const value = path.reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Json)[key] : undefined), body);
        // Each step named by the class that holds it, as Jackson names them: the element of items an Item, of customer a Customer.
        const capital = (name: string) => name.replace(/^./, (c) => c.toUpperCase());
        const holder = (index: number) => (index === 0 ? 'OrderRequest' : /^\d+$/.test(path[index - 1]) ? capital(path[index - 2].replace(/s$/, '')) : capital(path[index - 1]));
        const chain = path.map((key, index) => (/^\d+$/.test(key) ? `java.util.ArrayList[${key}]` : `${holder(index)}["${key}"]`)).join('->');
        return `Cannot deserialize ${String(field)} (${String(error)}) from ${value === undefined ? 'nothing' : JSON.stringify(value)?.slice(0, 200)} (through reference chain: ${chain})`;
      });
      return withReplyBody(reply, (envelope) => ({ ...envelope, meta: { ...(envelope.meta as Json), message: `JSON parse error: ${named.join('; ')}` } }));
    },
  };
}

/** The reference server's own limit on a request body (reference/app.ts). */
const LARGEST_BODY = 1024 * 1024;

/**
 * A proxy or gateway in front of the service: a body declared larger than the limit gets 413, and an order
 * request without a known bearer token 401, on the headers alone, before any of the body is read; then the
 * connection is closed, so a client still sending the body may see it reset.
 */
export function answeredBeforeBody(): Hooks {
  return {
    answerBeforeBody: (request, { accounts }) => {
      if (Number(request.headers['content-length'] ?? 0) > LARGEST_BODY) {
        return errorReply(new ApiError(413, 'payload_too_large', `The request body exceeds ${LARGEST_BODY} bytes`));
      }
      if (!/^\/orders(\/|$)/.test(request.path)) return undefined;
      const token = /^Bearer (\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
      if (token && accounts.accountFor(token)) return undefined;
      return errorReply(new ApiError(401, 'unauthorized', 'A valid bearer token is required', [], { 'WWW-Authenticate': 'Bearer realm="oms"' }));
    },
  };
}

/** nginx's own page for a body over client_max_body_size, byte for byte (src/http/ngx_http_special_response.c). */
export const NGINX_413_PAGE =
  '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** nginx's own page for a header line over large_client_header_buffers, byte for byte (src/http/ngx_http_special_response.c). */
export const NGINX_400_HEADER_PAGE =
  '<html>\r\n<head><title>400 Request Header Or Cookie Too Large</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<center>Request Header Or Cookie Too Large</center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** nginx's default large_client_header_buffers (4 8k): no header line may be longer than 8 KiB. */
const NGINX_HEADER_LINE_BYTES = 8 * 1024;

/** gunicorn's default limit_request_field_size: no header line may be longer. */
const GUNICORN_HEADER_LINE_BYTES = 8190;

/** gunicorn's own page for a header line over its limit_request_field_size, as a Flask service behind it was seen to answer a 32 KiB header (issue 44). */
export const GUNICORN_400_HEADER_PAGE =
  "<html>\n  <head>\n    <title>Bad Request</title>\n  </head>\n  <body>\n    <h1><p>Bad Request</p></h1>\n    Error parsing headers: 'limit request headers fields size'\n  </body>\n</html>\n";

/** An application server's own page for a body larger than it takes, in gunicorn's form: HTML, no envelope. */
export const APPLICATION_SERVER_413_PAGE =
  '<html>\n  <head>\n    <title>Request Entity Too Large</title>\n  </head>\n  <body>\n    <h1><p>Request Entity Too Large</p></h1>\n    Request body larger than 1048576 bytes\n  </body>\n</html>\n';

/**
 * What stands in front of the service answering, on the headers alone, a body declared over 1 MiB and a header line
 * over `headerLineBytes` with HTML pages of its own (`headers`: what it writes beside Content-Type), then closing the
 * connection; the service never sees the request.
 */
function pagesInFront(headerLineBytes: number, pages: { body: string; header: string }, headers: Record<string, string> = {}): Hooks {
  const page = (status: number, rawBody: string) => ({ status, headers: { ...headers, 'Content-Type': 'text/html' }, rawBody });
  return {
    answerBeforeBody: (request) => {
      if (Number(request.headers['content-length'] ?? 0) > LARGEST_BODY) return page(413, pages.body);
      const longest = Math.max(...Object.entries(request.headers).map(([name, value]) => Buffer.byteLength(`${name}: ${String(value)}`)));
      return longest > headerLineBytes ? page(400, pages.header) : undefined;
    },
  };
}

/** The service behind nginx (client_max_body_size 1m, large_client_header_buffers 4 8k): nginx's own HTML 413 and 400 pages, under Server: nginx. */
export function behindNginx(): Hooks {
  return pagesInFront(NGINX_HEADER_LINE_BYTES, { body: NGINX_413_PAGE, header: NGINX_400_HEADER_PAGE }, { Server: 'nginx' });
}

/** The service served by an application server (gunicorn with its defaults): gunicorn's own HTML 400 for a header line over 8190 bytes, a 413 page of its own, no Server header. */
export function applicationServerPages(): Hooks {
  return pagesInFront(GUNICORN_HEADER_LINE_BYTES, { body: APPLICATION_SERVER_413_PAGE, header: GUNICORN_400_HEADER_PAGE });
}

/** A media type that is JSON: application/json or application/*+json, in any letter case, with or without parameters. */
const JSON_MEDIA_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** A create or update (of the caller) whose body is not labelled JSON (text/plain, a form, no Content-Type) is refused with 415 and the envelope (section 1). */
export function refuseUnlabelledBodies(): Hooks {
  return {
    intercept: (request, { accounts }) =>
      is(request, 'create', 'update') && callerOf(request, accounts) && request.bodyText !== '' && !JSON_MEDIA_TYPE.test(request.headers['content-type'] ?? '')
        ? errorReply(new ApiError(415, 'unsupported_media_type', 'Request bodies are JSON: send Content-Type application/json', [{ field: '(body)', error: 'not labelled application/json' }]))
        : undefined,
  };
}

/** The fields of a body its request schema does not name, at any depth, as dotted paths ("customer.nickname", "items.0.colour"). */
function undeclaredFields(value: unknown, schema: JsonSchema, path: string): string[] {
  const object = objectBranch(schema);
  if (object && isObject(value)) {
    const properties = (object.properties as Record<string, JsonSchema> | undefined) ?? {};
    return Object.entries(value).flatMap(([key, inner]) => (key in properties ? undeclaredFields(inner, properties[key], `${path}${key}.`) : [`${path}${key}`]));
  }
  const items = contract().resolve(schema).items as JsonSchema | undefined;
  return Array.isArray(value) && items ? value.flatMap((element, index) => undeclaredFields(element, items, `${path}${index}.`)) : [];
}

/** A create or update (of the caller) with a field the document does not name, at any depth, is refused with 422 and the envelope (ORD-OBS-012). */
export function refuseUndeclaredFieldsAnywhere(): Hooks {
  return {
    intercept: (request, { accounts }) => {
      if (!is(request, 'create', 'update') || !callerOf(request, accounts)) return undefined;
      const unknown = undeclaredFields(jsonBodyOf(request), contract().schema(is(request, 'create') ? 'OrderCreate' : 'OrderUpdate'), '');
      return unknown.length
        ? errorReply(new ApiError(422, 'unknown_field', 'The request body has fields the interface does not name', unknown.map((field) => ({ field, error: 'unknown field' }))))
        : undefined;
    },
  };
}

/** The sales-channel reference of a body or an order: the channel kind and the order's identifier in it, where there is one. */
function channelReference(value: unknown): string | undefined {
  const channel = isObject(value) ? value.sales_channel : undefined;
  return isObject(channel) && typeof channel.order_id === 'string' && channel.order_id !== '' ? `${String(channel.id)}\n${channel.order_id}` : undefined;
}

/** A create whose sales-channel reference a live order of the account already carries is refused with 409 and the envelope (ORD-OBS-032). */
export function uniqueChannelReferences(): Hooks {
  return {
    intercept: (request, { accounts, services }) => {
      const caller = callerOf(request, accounts);
      const reference = is(request, 'create') && caller ? channelReference(jsonBodyOf(request)) : undefined;
      if (!reference || !caller) return undefined;
      const holder = allOrders(services.store, caller.id).find((order) => (order.deleted_at === null || order.deleted_at === undefined) && channelReference(order) === reference);
      return holder
        ? errorReply(new ApiError(409, 'duplicate_channel_order', `Order ${holder.id} already carries this sales channel order`, [{ field: 'sales_channel.order_id', error: 'already used by a live order' }]))
        : undefined;
    },
  };
}

/** shipments and activities, while they are empty, answered as `value` (null, or left out: undefined) in every full form (ORD-OBS-031). */
export function emptyServiceArrays(value: null | undefined): Hooks {
  const empty = (field: unknown) => Array.isArray(field) && field.length === 0;
  return {
    rewriteReply: (request, reply) =>
      onFullForm(request, reply, (order) => {
        const changed = { ...order };
        for (const field of ['shipments', 'activities']) {
          if (!empty(changed[field])) continue;
          if (value === null) changed[field] = null;
          else delete changed[field];
        }
        return changed;
      }),
  };
}

/** Every object with no field ({}), at any depth, left out (an array keeps its elements: an empty items array has its own meaning, ORD-OBS-006). */
function withoutEmptyObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmptyObjects);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, inner]) => !(isObject(inner) && Object.keys(inner).length === 0))
      .map(([key, inner]) => [key, withoutEmptyObjects(inner)]),
  );
}

/** An object sent with no field ({}) is not stored: the full form and the summary leave it out, as a field never sent (ORD-OBS-011). */
export function emptyObjectsDropped(request: ApiRequest): ApiRequest {
  return is(request, 'create', 'update') ? withJsonBody(request, (body) => withoutEmptyObjects(body) as Json) : request;
}

/**
 * The summaries leave out every object with no field of the summary's (a payment sent as {}: its summary form
 * has neither method nor status), as a server does that builds them from what it was given.
 */
export function summariesWithoutEmptyObjects(): Hooks {
  return { rewriteReply: (request, reply) => onSummaries(request, reply, withoutEmptyObjects) };
}

/**
 * A second delete of an order this server hard-deleted answers 200 with the message again, as an idempotent
 * DELETE does (ORD-OBS-004); an id it never held still answers 404.
 */
export function repeatedDeleteAccepted(): Hooks {
  return afterHardDelete('delete', () => ({ status: 200, body: { message: 'Order deleted' } }));
}

/** A number that is not finite (NaN, Infinity), anywhere in a value read from JSON text. */
function holdsNonFinite(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  return value !== null && typeof value === 'object' && Object.values(value).some(holdsNonFinite);
}

/**
 * A create or update body read by a lenient parser (ORD-OBS-033): NaN and Infinity read as numbers (Python's json),
 * or a trailing comma ignored; what it reads is validated as any body is, so a number left non-finite (no later key
 * replaced it) is refused like a body that does not read (400), and a duplicate key keeps its last value.
 */
export function lenientBodies(options: { nonFinite?: boolean; trailingComma?: boolean }): Hooks {
  return {
    rewriteRequest: (request) => {
      if (!is(request, 'create', 'update') || jsonBodyOf(request) !== undefined) return request;
      const read = lenientJson(request.bodyText, options);
      return read === undefined || holdsNonFinite(read) ? request : { ...request, bodyText: JSON.stringify(read) };
    },
  };
}

/** A create or update (of the caller) whose JSON gives a key twice is refused with 400 (a parser that detects it, as serde does for a struct). */
export function refuseDuplicateKeys(): Hooks {
  return {
    intercept: (request, { accounts }) =>
      is(request, 'create', 'update') && callerOf(request, accounts) && duplicateKeyIn(request.bodyText)
        ? errorReply(new ApiError(400, 'invalid_json', 'The request body gives a key twice', [{ field: '(body)', error: 'duplicate key' }]))
        : undefined,
  };
}

/**
 * A create or update whose bytes are not UTF-8, decoded as Python's json.loads decodes bytes (ORD-OBS-033): a UTF-16
 * half in UTF-8 form (ED A0 80 to ED BF BF) read as that half ('surrogatepass'), any other byte that is not UTF-8
 * refused with 400 (a UnicodeDecodeError, caught as the ValueError it is). The clean server reads each as Node: U+FFFD.
 */
export function bytesDecodedAsPython(): Hooks {
  return {
    rewriteRequest: (request, { accounts }) => {
      if (!request.nonUtf8Body || !is(request, 'create', 'update') || !callerOf(request, accounts)) return request;
      const text = surrogatePassUtf8(request.nonUtf8Body);
      if (text === undefined) throw new ApiError(400, 'invalid_json', 'The request body is not UTF-8', [{ field: '(body)', error: 'invalid utf-8' }]);
      return { ...request, bodyText: text };
    },
  };
}

/** UTF-8 with each UTF-16 half in UTF-8 form taken as that half, as Python decodes with 'surrogatepass'; undefined for any other byte that is not UTF-8. */
function surrogatePassUtf8(bytes: Buffer): string | undefined {
  let text = '';
  let from = 0;
  for (let index = 0; index + 2 < bytes.length; index++) {
    if (bytes[index] !== 0xed || bytes[index + 1] < 0xa0 || bytes[index + 1] > 0xbf || (bytes[index + 2] & 0xc0) !== 0x80) continue;
    const before = bytes.subarray(from, index);
    if (!isUtf8(before)) return undefined;
    text += before.toString('utf8') + String.fromCharCode(0xd000 | ((bytes[index + 1] & 0x3f) << 6) | (bytes[index + 2] & 0x3f));
    from = index + 3;
    index += 2;
  }
  const rest = bytes.subarray(from);
  return isUtf8(rest) ? text + rest.toString('utf8') : undefined;
}

/** An update with an empty body (Content-Type application/json, zero bytes) read as {}, as Express's JSON body parser reads it: an update of nothing. */
export function emptyUpdateBodyAsObject(): Hooks {
  return { rewriteRequest: (request) => (is(request, 'update') && request.bodyText.trim() === '' ? { ...request, bodyText: '{}' } : request) };
}

/**
 * Every answer with a body gzipped (Content-Encoding: gzip) whatever Accept-Encoding says, as a service or a proxy in
 * front of it may do: the sign-in's (POST /token), errors and 401s included (ORD-OBS-020). A client decodes by
 * Content-Encoding before it reads a byte (RFC 9110 8.4).
 */
export function gzipEveryAnswer(): Hooks {
  return {
    rewriteReply: (_request, reply) => {
      const text = reply.rawBody ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
      const encoded = Object.keys(reply.headers ?? {}).some((name) => name.toLowerCase() === 'content-encoding');
      if (reply.stream || text.length === 0 || encoded) return reply;
      // The Content-Type the body had stays (the server adds JSON's to a body that names none).
      return { ...reply, headers: { ...(reply.headers ?? {}), 'Content-Encoding': 'gzip' }, rawBody: gzipSync(typeof text === 'string' ? Buffer.from(text, 'utf8') : text) };
    },
  };
}
