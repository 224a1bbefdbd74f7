import { setTimeout as sleep } from 'node:timers/promises';
import { readOnlyOff, type OmsApi, type UnknownId } from './api';
import { skipTest } from '../record/skips';
import { settingName } from '../../config/settings';
import type { Check } from '../../checks/check';
import { listAccepted } from '../../checks/listing';
import { deleteAccepted, deletedOnGet, showsDeleted } from '../../checks/deletion';
import { createAccepted, getAccepted, getAnswersAnObject, idAssigned, requiredOnlyCreateAccepted } from '../../checks/orders';
import { isSuccess } from '../../checks/status';
import type { Exchange, Json } from '../../contract/exchange';
import { ensure } from '../record/findings';
import { minimalOrder } from '../../contract/examples';
import { mustRunApart } from '../record/verifies';
import { together } from './together';

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

/** Creates an order of each body, all in flight at once (none waits for another's answer), as createOrder does one. */
export function createOrders(api: OmsApi, bodies: Json[], accepted: Check = createAccepted): Promise<CreatedOrder[]> {
  return together(bodies.map((sent) => createOrder(api, sent, accepted)));
}

/** Gets an order and stops the test unless it answered a 2xx with a JSON object. */
export async function getOrder(api: OmsApi, id: string): Promise<{ body: Json; exchange: Exchange }> {
  const exchange = await api.get(id);
  ensure(getAccepted(exchange));
  ensure(getAnswersAnObject(exchange));
  return { body: exchange.json as Json, exchange };
}

/** An order a test only reads: its id, and the exchange that showed it. */
export interface OrderToRead {
  id: string;
  exchange: Exchange;
}

/**
 * Orders a test only reads (gets, lists, sends refused requests to): created from `sent` as usual, or in
 * read-only mode the newest `count` the account already holds, taken from the list and never changed. An
 * account with fewer skips the test with the reason.
 */
export async function ordersToRead(api: OmsApi, count: number, sent: () => Json = minimalOrder, accepted: Check = createAccepted): Promise<OrderToRead[]> {
  if (!api.readOnly) return createOrders(api, Array.from({ length: count }, sent), accepted);
  const exchange = await api.list({ limit: count });
  ensure(listAccepted(exchange));
  const data = (exchange.json as { data?: unknown } | undefined)?.data;
  const ids = (Array.isArray(data) ? data : []).map((order) => (order as Json | null)?.id).filter((id) => typeof id === 'string' || typeof id === 'number');
  if (ids.length < count) skipTest({ kind: 'configuration', reason: `read-only mode (${settingName('readOnly')}): this check needs to read ${count} order(s) the account already holds, and its list shows ${ids.length}`, settings: [readOnlyOff()] });
  return ids.slice(0, count).map((id) => ({ id: String(id), exchange }));
}

/** One order a test only reads (see ordersToRead). */
export async function orderToRead(api: OmsApi, sent: Json = minimalOrder(), accepted: Check = createAccepted): Promise<OrderToRead> {
  const [order] = await ordersToRead(api, 1, () => sent, accepted);
  return order;
}

/**
 * Unknown ids (see OmsApi.unknownIds): of the form of an id this service assigned, of another form, and made from
 * it (12abc of 12), taken from an order created for the purpose (in read-only mode, one the account holds): the
 * sample, which a request to an id made from it must leave as it was, and the ids.
 */
export async function unknownIds(api: OmsApi): Promise<{ sample: OrderToRead; ids: UnknownId[] }> {
  const sample = await orderToRead(api, minimalOrder(), requiredOnlyCreateAccepted);
  return { sample, ids: api.unknownIds(sample.id) };
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

/** A write sent to an order after its delete, and what the gets around it showed. */
export interface WriteAfterDelete {
  created: CreatedOrder;
  /** The get between the delete and the write: it showed the order deleted (404/410, or deleted_at set). */
  shown: Exchange;
  written: Exchange;
  /** The get after the write. */
  after: Exchange;
}

/**
 * Creates an order and a newer one, deletes the first, sees a get show it deleted (else the test stops on
 * ORD-DELETE-002), sends `write` to it and gets it again. A server may give a deleted id to a new order
 * (ORD-OBS-022): from the delete to the last get no other create of the run comes between (the test holds its
 * worker's creates back: whileNoOtherTestCreates, config/phases.ts), and with a newer order alive (a table that hands
 * out its highest free id again cannot give the deleted one) the write can only reach the deleted order. One the
 * write brought back is the cleanup's to delete again.
 */
export async function writeAfterDelete(api: OmsApi, write: (id: string) => Promise<Exchange>): Promise<WriteAfterDelete> {
  mustRunApart('a write after a delete', 'no-other-creates');
  const created = await createOrder(api, minimalOrder());
  await createOrder(api, minimalOrder());
  return api.withoutOtherCreates(async () => {
    const deletion = await api.delete(created.id);
    ensure(deleteAccepted(deletion));
    const shown = await api.get(created.id);
    ensure(deletedOnGet('get after the delete', created.body, shown, deletion));
    api.allowAfterDelete(created.id);
    const written = await write(created.id);
    const after = await api.get(created.id);
    if (isSuccess(after.status) && !showsDeleted(created.body.deleted_at, after.json)) api.reclaim(created.id);
    return { created, shown, written, after };
  });
}
