import { contract, type JsonSchema } from '../../../contract/openapi';
import { textAroundLoneSurrogates } from '../../../config/safe-text';
import type { ApiRequest } from '../../../reference/http';
import type { StoredOrder } from '../../../reference/store';
import { is, isSuccess, jsonBodyOf, mapStrings, onFullForm, withJsonBody, withStore, type Hooks, type Json } from '../faults/kit';
import { emptyUnsentFields, storedAs } from './freedoms';

/**
 * The readings of checks/readings.ts made real: servers that read a value the document does not define another
 * way than the clean one, each as a stack users build on reads it (shared frameworks.md). Each is a value of a
 * knob of ORD-OBS-034 (knobs.ts); selftest/readings.test.ts pairs every value the suite sends with these.
 */

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON value with every null in an object dropped, at any depth: Go's encoding/json into pointer fields, a binder that skips null. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== null).map(([key, inner]) => [key, withoutNulls(inner)]));
}

/**
 * What a Go service's zero values give an optional object of the create the client did not send: every field
 * empty, and the defaults its code sets (payment.type "online"; sales_channel.updated_at stamped with the time of
 * the create). The full form then always shows them, sent or not.
 */
function goDefaults(order: StoredOrder, operation: 'create' | 'update'): StoredOrder {
  if (operation !== 'create') return order;
  const stored = order as unknown as Json;
  const properties = contract().schema('OrderCreate').properties as Record<string, JsonSchema>;
  const zero = (schema: JsonSchema): Json =>
    Object.fromEntries(
      Object.entries((contract().resolve(schema).properties ?? {}) as Record<string, JsonSchema>).flatMap(([field, inner]): Array<[string, unknown]> => {
        const type = [contract().resolve(inner).type].flat();
        if (type.includes('string')) return [[field, '']];
        if (type.includes('boolean')) return [[field, false]];
        if (type.includes('number') || type.includes('integer')) return [[field, 0]];
        return [];
      }),
    );
  const filled: Json = { ...stored };
  if (stored.payment === undefined) filled.payment = { ...zero(properties.payment), type: 'online' };
  if (stored.sales_channel === undefined) filled.sales_channel = { ...zero(properties.sales_channel), updated_at: new Date().toISOString() };
  if (stored.billing === undefined) filled.billing = zero(properties.billing);
  return filled as unknown as StoredOrder;
}

/** null read as not sent on create: dropped at any depth, and the service's defaults filled in for an object it did not get. */
export function nullsNotSentOnCreate(): Hooks {
  return {
    rewriteRequest: (request) => (is(request, 'create') ? withJsonBody(request, (body) => withoutNulls(body) as Json) : request),
    ...storedAs(goDefaults),
  };
}

/** A JSON value with every null where its schema puts an object read as {}, at any depth (a binder that allocates the struct a null names). */
function nullObjectsAsEmpty(value: unknown, schema: JsonSchema): unknown {
  const resolved = contract().resolve(schema);
  const branches = ((resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined)?.map((branch) => contract().resolve(branch)) ?? [resolved];
  const object = branches.find((branch) => branch.type === 'object');
  const array = branches.find((branch) => branch.type === 'array');
  if (value === null) return object ? {} : null;
  if (Array.isArray(value)) return array?.items ? value.map((element) => nullObjectsAsEmpty(element, array.items as JsonSchema)) : value;
  if (!isObject(value) || !object?.properties) return value;
  const properties = object.properties as Record<string, JsonSchema>;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, properties[key] ? nullObjectsAsEmpty(inner, properties[key]) : inner]));
}

/**
 * null where an object goes read as {} on create, at any depth, by a service that leaves unsent fields out of its
 * answers and stamps the time of the create into every sales channel that comes without updated_at: it answers
 * "sales_channel": null exactly as it answers "sales_channel": {}, with {"updated_at": "…"} (issue 44).
 */
export function nullObjectsAsEmptyStamped(): Hooks {
  const unstamped = (channel: unknown): channel is Json => isObject(channel) && [undefined, null, ''].includes(channel.updated_at as string | null | undefined);
  return {
    rewriteRequest: (request) => (is(request, 'create') ? withJsonBody(request, (body) => nullObjectsAsEmpty(body, contract().schema('OrderCreate')) as Json) : request),
    wrapServices: (services) =>
      withStore(services, (store) => ({
        insert: (order) => {
          const channel = (order as unknown as Json).sales_channel;
          store.insert(unstamped(channel) ? ({ ...order, sales_channel: { ...channel, updated_at: new Date().toISOString() } } as unknown as StoredOrder) : order);
        },
      })),
    // The create answers the sales channel as it stored it (a later get shows the same time).
    rewriteReply: (request, reply, { services }) =>
      is(request, 'create')
        ? onFullForm(request, reply, (order) => {
            const stored = services.store.get(String(order.user_id), String(order.id)) as unknown as Json | undefined;
            const at = isObject(stored?.sales_channel) ? stored.sales_channel.updated_at : undefined;
            return unstamped(order.sales_channel) && typeof at === 'string' ? { ...order, sales_channel: { ...order.sales_channel, updated_at: at } } : order;
          })
        : reply,
  };
}

/**
 * An update that replaces the updatable part of the order (4.4), as a PUT that binds a whole struct: each field of
 * OrderUpdate it omits is cleared to the empty value of its type (customer: every text "", its id kept; items [];
 * note and currency ""; price 0), and a field sent as null counts as omitted (issue 44).
 */
export function replacingUpdateNullAsOmitted(): Hooks {
  const cleared = emptyUnsentFields({}, contract().schema('OrderUpdate'));
  return {
    rewriteRequest: (request) => (is(request, 'update') ? withJsonBody(request, (body) => Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null))) : request),
    // After validation: the empty values it clears to are its own (a country_code of "" no request may send).
    rewriteReply: (request, reply, { services }) => {
      const sent = jsonBodyOf(request);
      if (!is(request, 'update') || !isSuccess(reply) || !isObject(sent)) return reply;
      const order = { ...(reply.body as Json) };
      for (const [field, empty] of Object.entries(structuredClone(cleared))) {
        if (field in sent) continue;
        order[field] = field === 'customer' ? { ...(empty as Json), id: (order.customer as Json | undefined)?.id } : empty;
      }
      services.store.replace(order as unknown as StoredOrder);
      return { ...reply, body: order };
    },
  };
}

/** null ignored by an update, at any depth: the field kept (a merge that skips null, Go's pointer fields). */
export function nullsIgnoredOnUpdate(): Hooks {
  return { rewriteRequest: (request) => (is(request, 'update') ? withJsonBody(request, (body) => withoutNulls(body) as Json) : request) };
}

/**
 * null where the schema allows no null read as the zero value of the field's type, at any depth, on create and update:
 * a number's 0, a boolean's false, text's "" (Ajv's coerceTypes, Fastify's default; Jackson's primitives). A null
 * where an object or array goes is left to the other knobs.
 */
function nullScalarsAsZero(value: unknown, schema: JsonSchema): unknown {
  const resolved = contract().resolve(schema);
  if (Array.isArray(value)) return resolved.items ? value.map((element) => nullScalarsAsZero(element, resolved.items as JsonSchema)) : value;
  if (!isObject(value) || !resolved.properties) return value;
  const properties = resolved.properties as Record<string, JsonSchema>;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      const inside = properties[key];
      if (!inside) return [key, inner];
      if (inner !== null) return [key, nullScalarsAsZero(inner, inside)];
      const zero = zeroValue(inside);
      return [key, zero === undefined || allowsNull(inside) ? null : zero];
    }),
  );
}

function allowsNull(schema: JsonSchema): boolean {
  const resolved = contract().resolve(schema);
  const branches = ((resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined)?.map((branch) => contract().resolve(branch)) ?? [resolved];
  return resolved.nullable === true || branches.some((branch) => [branch.type].flat().includes('null'));
}

/** null read as the zero value of a scalar field's type, on create and update (nullScalarsAsZero). */
export function nullScalarsAsZeroValues(): Hooks {
  return {
    rewriteRequest: (request) =>
      is(request, 'create', 'update') ? withJsonBody(request, (body) => nullScalarsAsZero(body, contract().schema(is(request, 'create') ? 'OrderCreate' : 'OrderUpdate')) as Json) : request,
  };
}

/** The JSON types a schema allows, null aside (null has knobs of its own). */
function allowsType(schema: JsonSchema, value: unknown): boolean {
  const resolved = contract().resolve(schema);
  const branches = ((resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined)?.map((branch) => contract().resolve(branch)) ?? [resolved];
  const types = branches.flatMap((branch) => [branch.type].flat()).filter((type): type is string => typeof type === 'string');
  if (types.length === 0 || value === null) return true;
  if (Array.isArray(value)) return types.includes('array');
  if (typeof value === 'object') return types.includes('object');
  if (typeof value === 'number') return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
  return types.includes(typeof value);
}

/** The zero value a Go struct field of this schema holds when nothing was bound to it; undefined for an object or array (a nil pointer, left out). */
function zeroValue(schema: JsonSchema): unknown {
  const type = [contract().resolve(schema).type].flat();
  if (type.includes('string')) return '';
  if (type.includes('number') || type.includes('integer')) return 0;
  if (type.includes('boolean')) return false;
  return undefined;
}

/**
 * A body with every value of a type its schema does not allow dropped, at any depth, as a lax binder skips what it
 * cannot bind: a field of the order itself is then not sent (a required one missing), a nested scalar holds its
 * zero value, a nested object or array is left out; an array holding an element of the wrong type is dropped whole.
 */
function wrongTypesDropped(value: unknown, schema: JsonSchema, depth = 0): unknown {
  const resolved = contract().resolve(schema);
  if (Array.isArray(value)) return value.map((element) => (resolved.items ? wrongTypesDropped(element, resolved.items as JsonSchema, depth + 1) : element));
  if (!isObject(value) || !resolved.properties) return value;
  const properties = resolved.properties as Record<string, JsonSchema>;
  const bound = Object.entries(value).map(([key, inner]): [string, unknown] => {
    const inside = properties[key];
    if (!inside) return [key, inner];
    const items = contract().resolve(inside).items as JsonSchema | undefined;
    const unbound = !allowsType(inside, inner) || (Array.isArray(inner) && items !== undefined && inner.some((element) => !allowsType(items, element)));
    if (unbound) return [key, depth === 0 ? undefined : zeroValue(inside)];
    return [key, wrongTypesDropped(inner, inside, depth + 1)];
  });
  return Object.fromEntries(bound.filter(([, inner]) => inner !== undefined));
}

/** A value of the wrong type dropped by a lax binder, on create and update: read as not sent (a required field dropped is then missing). */
export function wrongTypesDroppedByBinder(): Hooks {
  return {
    rewriteRequest: (request) =>
      is(request, 'create', 'update')
        ? withJsonBody(request, (body) => wrongTypesDropped(body, contract().schema(is(request, 'create') ? 'OrderCreate' : 'OrderUpdate')) as Json)
        : request,
  };
}

/** An update whose body is JSON but no object (7, true, "text", null, []) read as an update of no fields, as Rails wraps it under _json and strong parameters ignore it. */
export function nonObjectUpdateAsNoFields(): Hooks {
  return {
    rewriteRequest: (request) => {
      if (!is(request, 'update')) return request;
      try {
        return isObject(JSON.parse(request.bodyText)) ? request : { ...request, bodyText: '{}' };
      } catch {
        return request;
      }
    },
  };
}

/**
 * Each lone surrogate of the text sent replaced by `by` (a parser's stand-in: "?" as Ruby's writes it; "" dropped),
 * with the space after it taken along, as a parser that stops at the escape and skips on does.
 */
export function loneSurrogatesAs(by: string): (request: ApiRequest) => ApiRequest {
  const replaced = (text: string) => {
    const parts = textAroundLoneSurrogates(text);
    return parts.length < 2 ? text : parts.reduce((joined, part) => `${joined}${by}${part.replace(/^ /, '')}`);
  };
  return (request) => (is(request, 'create', 'update') ? withJsonBody(request, (body) => mapStrings(body, replaced) as Json) : request);
}
