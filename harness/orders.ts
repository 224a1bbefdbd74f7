import { instantOf } from '../contract/datetime';
import { excerpt } from '../contract/openapi';
import type { OmsApi } from './api';
import { is2xx } from '../checks/body';
import type { Exchange } from './http/exchange';
import { ensure, unless, type Finding } from './findings';
import { minimalOrder } from '../generators/examples';
import { differences, formatDifferences } from '../checks/roundtrip';

export type Json = Record<string, unknown>;

export interface CreatedOrder {
  id: string;
  sent: Json;
  /** The create response body (full form). */
  body: Json;
  exchange: Exchange;
}

/** Creates an order and stops the test unless the service accepted it and assigned a string id. */
export async function createOrder(api: OmsApi, sent: Json, requirementId = 'ORD-CREATE-001'): Promise<CreatedOrder> {
  const exchange = await api.create(sent);
  ensure(is2xx(requirementId)(exchange));
  const body = (exchange.json ?? {}) as Json;
  ensure(
    unless('ORD-CREATE-003', typeof body.id === 'string' && body.id !== '', () => ({
      expected: 'id: a non-empty string assigned by the service',
      received: `id ${excerpt(body.id)}`,
      exchange,
    })),
  );
  return { id: body.id as string, sent, body, exchange };
}

/** Gets an order and stops the test unless it answered a 2xx with a JSON object. */
export async function getOrder(api: OmsApi, id: string, requirementId = 'ORD-GET-001'): Promise<{ body: Json; exchange: Exchange }> {
  const exchange = await api.get(id);
  ensure(is2xx(requirementId)(exchange));
  ensure(
    unless(requirementId, typeof exchange.json === 'object' && exchange.json !== null, () => ({
      expected: 'the order as a JSON object',
      received: exchange.text === '' ? 'an empty body' : excerpt(exchange.text),
      exchange,
    })),
  );
  return { body: exchange.json as Json, exchange };
}

/**
 * Unknown ids in two forms (see OmsApi.unknownIds): the form of an id this service assigned, taken from
 * an order created for the purpose, and another form.
 */
export async function unknownIds(api: OmsApi): Promise<Array<{ id: string; ownForm: boolean }>> {
  const sample = await createOrder(api, minimalOrder(), 'ORD-CREATE-002');
  return api.unknownIds(sample.id);
}

/** Everything sent must come back with the value sent (see roundtrip.ts for what "equal" means). */
export function carriesWhatWasSent(requirementId: string, sent: unknown, exchange: Exchange, what: string): Finding | undefined {
  const found = differences(sent, exchange.json);
  return unless(requirementId, found.length === 0, () => ({
    expected: `${what} to carry every field sent, with the value sent`,
    received: `${found.length} field(s) differ:\n${formatDifferences(found)}`,
    exchange,
  }));
}

export function itemsOf(order: Json): Json[] {
  return Array.isArray(order.items) ? (order.items as Json[]) : [];
}

/**
 * Waits one unit of a timestamp's precision (its last digit), counted from now: the service stamped it
 * before answering, so a stamp it makes after the wait must be later. Precision is open (2.1): whole
 * seconds cost a second, milliseconds a few (a fixed wait for the next second cost every run a second).
 */
export async function pastPrecisionOf(timestamp: unknown): Promise<void> {
  const fraction = /:\d{2}[.,](\d+)/.exec(String(timestamp))?.[1].length ?? 0;
  await new Promise((resolve) => setTimeout(resolve, Math.ceil(1000 / 10 ** Math.min(fraction, 3)) + 5));
}

/** True when a value carries anything but empty values ("", 0, false, null, empty objects and arrays) at any depth. */
export function holdsValue(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsValue);
  if (value && typeof value === 'object') return Object.values(value).some(holdsValue);
  return value !== undefined && value !== null && value !== '' && value !== 0 && value !== false;
}

/** Section 2.3/2.4: the full form carries customer.id, and each item's id and total, assigned by the service. */
export function serviceAssignedParts(exchange: Exchange): Finding | undefined {
  const order = (exchange.json ?? {}) as Json;
  const customer = (order.customer ?? {}) as Json;
  const problems: string[] = [];
  // A customer cleared by an update (replace semantics, 4.4) comes back absent, null or as empty values: nothing to assign.
  if (holdsValue(order.customer) && (typeof customer.id !== 'string' || customer.id === '')) problems.push(`customer.id is ${excerpt(customer.id)}`);
  itemsOf(order).forEach((item, index) => {
    if (typeof item.id !== 'string' || item.id === '') problems.push(`items[${index}].id is ${excerpt(item.id)}`);
    if (typeof item.total !== 'number') problems.push(`items[${index}].total is ${excerpt(item.total)}`);
  });
  return unless('ORD-CREATE-005', problems.length === 0, () => ({
    expected: 'customer.id and each item id (non-empty strings) and total (a number) in the full form',
    received: problems.join('; '),
    exchange,
  }));
}

/** The service-assigned id, user_id and created_at (4.2) of `before`, unchanged in the order an exchange shows. */
export function keepsAssignedValues(requirementId: string, before: Json, exchange: Exchange, what: string): Finding | undefined {
  const body = (exchange.json ?? {}) as Json;
  const changed = (['id', 'user_id', 'created_at'] as const).filter((field) =>
    field === 'created_at'
      ? typeof body.created_at !== 'string' || instantOf(body.created_at) !== instantOf(String(before.created_at))
      : body[field] !== before[field],
  );
  return unless(requirementId, changed.length === 0, () => ({
    expected: `id, user_id and created_at ${what}`,
    received: changed.map((field) => `${field} ${excerpt(before[field])} became ${excerpt(body[field])}`).join('; '),
    exchange,
  }));
}
