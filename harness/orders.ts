import { excerpt } from '../contract/openapi';
import type { OmsApi } from './api';
import { is2xx } from './checks';
import type { Exchange } from './exchange';
import { ensure, unless, type Finding } from './findings';
import { differences, formatDifferences } from './roundtrip';

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
    unless(typeof body.id === 'string' && body.id !== '', () => ({
      requirementId: 'ORD-CREATE-003',
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
    unless(typeof exchange.json === 'object' && exchange.json !== null, () => ({
      requirementId,
      expected: 'the order as a JSON object',
      received: exchange.text === '' ? 'an empty body' : excerpt(exchange.text),
      exchange,
    })),
  );
  return { body: exchange.json as Json, exchange };
}

/** Everything sent must come back with the value sent (see roundtrip.ts for what "equal" means). */
export function carriesWhatWasSent(requirementId: string, sent: unknown, exchange: Exchange, what: string): Finding | undefined {
  const found = differences(sent, exchange.json);
  return unless(found.length === 0, () => ({
    requirementId,
    expected: `${what} to carry every field sent, with the value sent`,
    received: `${found.length} field(s) differ:\n${formatDifferences(found)}`,
    exchange,
  }));
}

export function itemsOf(order: Json): Json[] {
  return Array.isArray(order.items) ? (order.items as Json[]) : [];
}

/** Waits until the wall clock is in a later second, so a timestamp of second precision must move. */
export async function nextSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1100 - (Date.now() % 1000)));
}
