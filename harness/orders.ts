import { setTimeout as sleep } from 'node:timers/promises';
import type { OmsApi } from './api';
import type { Check } from '../checks/check';
import { createAccepted, getAccepted, getAnswersAnObject, idAssigned, requiredOnlyCreateAccepted } from '../checks/orders';
import type { Exchange } from './http/exchange';
import { ensure } from './findings';
import { minimalOrder } from '../generators/examples';

export type Json = Record<string, unknown>;

export interface CreatedOrder {
  id: string;
  sent: Json;
  /** The create response body (full form). */
  body: Json;
  exchange: Exchange;
}

/** Creates an order and stops the test unless the service accepted it (`accepted`: the requirement a refusal breaks) and assigned a string id. */
export async function createOrder(api: OmsApi, sent: Json, accepted: Check = createAccepted): Promise<CreatedOrder> {
  const exchange = await api.create(sent);
  ensure(accepted(exchange));
  ensure(idAssigned(exchange));
  const body = (exchange.json ?? {}) as Json;
  return { id: body.id as string, sent, body, exchange };
}

/** Gets an order and stops the test unless it answered a 2xx with a JSON object. */
export async function getOrder(api: OmsApi, id: string): Promise<{ body: Json; exchange: Exchange }> {
  const exchange = await api.get(id);
  ensure(getAccepted(exchange));
  ensure(getAnswersAnObject(exchange));
  return { body: exchange.json as Json, exchange };
}

/**
 * Unknown ids in two forms (see OmsApi.unknownIds): the form of an id this service assigned, taken from
 * an order created for the purpose, and another form.
 */
export async function unknownIds(api: OmsApi): Promise<Array<{ id: string; ownForm: boolean }>> {
  const sample = await createOrder(api, minimalOrder(), requiredOnlyCreateAccepted);
  return api.unknownIds(sample.id);
}

/**
 * Waits one unit of a timestamp's precision (its last digit), counted from now: the service stamped it
 * before answering, so a stamp it makes after the wait must be later. Precision is open (2.1): whole
 * seconds cost a second, milliseconds a few (a fixed wait for the next second cost every run a second).
 */
export async function pastPrecisionOf(timestamp: unknown): Promise<void> {
  const fraction = /:\d{2}[.,](\d+)/.exec(String(timestamp))?.[1].length ?? 0;
  await sleep(Math.ceil(1000 / 10 ** Math.min(fraction, 3)) + 5);
}
