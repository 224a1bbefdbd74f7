import { instantOf } from '../contract/datetime';
import { excerpt } from '../contract/openapi';
import type { Exchange, Json } from '../contract/exchange';
import { whereListed, type ListSearch } from './listing';
import { untouched } from './orders';
import { accepted, acceptedOrRefusedWith, isNotFound, isSuccess, REFUSALS, refusedWith, unknownIdAnswer } from './status';
import { unless, type Check, type Judgement, type Verdict } from './check';

/** Judgements of delete (4.5); the shape of its body is judged with every response (body.ts). */

/**
 * What deleted_at holds while an order is live is not shown (2.1: "Present in the full form"; ORD-OBS-025):
 * null, "", or a date-time sentinel such as 0001-01-01T00:00:00Z. So an order shows as deleted when its
 * deleted_at is a date-time other than the one it held while live, never merely because it has a value.
 */
export function showsDeleted(liveDeletedAt: unknown, body: unknown): boolean {
  const deletedAt = (body as { deleted_at?: unknown } | undefined)?.deleted_at;
  if (typeof deletedAt !== 'string' || Number.isNaN(instantOf(deletedAt))) return false;
  return typeof liveDeletedAt !== 'string' || instantOf(liveDeletedAt) !== instantOf(deletedAt);
}

export const deleteAccepted: Check = (exchange) => unless('ORD-DELETE-001', ...accepted(exchange));

/** What the create answered of an order that tells it from a later order given the same id: created_at, and deleted_at while live. */
export type AsCreated = { created_at?: unknown; deleted_at?: unknown };

/**
 * Another order now holds the id: one created at another time. The id of a deleted order may be given to
 * a new order (ORD-OBS-022), so a get of it that answers that order still shows the delete took effect.
 */
function anotherOrder(asCreated: AsCreated, body: unknown): boolean {
  const createdAt = (body as Json | undefined)?.created_at;
  if (typeof createdAt !== 'string' || typeof asCreated.created_at !== 'string' || createdAt === asCreated.created_at) return false;
  return instantOf(createdAt) !== instantOf(asCreated.created_at);
}

/** A get of a deleted order shows it deleted: 404 or 410, or (a soft delete) the order with deleted_at set, or another order that now has the id. */
const shownDeleted = (what: string, asCreated: AsCreated, exchange: Exchange): Verdict => {
  const soft = isSuccess(exchange.status);
  return [
    isNotFound(exchange.status) || (soft && (showsDeleted(asCreated.deleted_at, exchange.json) || anotherOrder(asCreated, exchange.json))),
    () => ({
      expected: `${what}: 404 or 410, or the order with deleted_at set to a date-time (it was ${excerpt(asCreated.deleted_at)} while live), or another order created since`,
      received: soft ? `${exchange.status} with deleted_at ${excerpt((exchange.json as Json | undefined)?.deleted_at)}` : `${exchange.status}`,
      exchange,
    }),
    exchange,
  ];
};

export const deletedOnGet = (what: string, asCreated: AsCreated, exchange: Exchange, deleted?: Exchange): Judgement | undefined => {
  const [holds, details] = shownDeleted(what, asCreated, exchange);
  return unless('ORD-DELETE-002', holds, details, [deleted, exchange]);
};

/**
 * A later update or delete of a deleted order (4.5 leaves its effect open, ORD-OBS-004) is refused as a
 * write to a deleted order may be, or accepted where that leaves the order deleted: a delete again (an
 * idempotent delete), or an update of an order the server keeps soft-deleted (`soft`: a get showed it with
 * deleted_at). After a hard delete an update has no order to change. Never a 5xx.
 */
export const writeAfterDeleteAnswered = (write: 'update' | 'delete', soft: boolean, exchange: Exchange): Judgement | undefined => {
  const what = `${write === 'update' ? 'an update' : 'a delete'} of an order already ${soft ? 'soft-' : ''}deleted`;
  return unless('ORD-DELETE-005', ...(write === 'delete' || soft ? acceptedOrRefusedWith : refusedWith)(exchange, REFUSALS.afterDelete, what));
};

/** After a later update or delete of a deleted order (`write`), a get still shows it deleted: the write brought nothing back. */
export const staysDeleted = (asCreated: AsCreated, exchange: Exchange, write: Exchange): Judgement | undefined => {
  const [holds, details] = shownDeleted(`a get after ${write.request.method} of the deleted order`, asCreated, exchange);
  return unless('ORD-DELETE-005', holds, details, [write, exchange]);
};

/** An order get no longer finds is gone from the list too. */
export const goneFromList = (id: string, search: ListSearch): Judgement | undefined => {
  const listed = whereListed(search, id);
  if (listed === 'unknown') return undefined;
  return unless('ORD-DELETE-002', listed === undefined, () => ({
    expected: `order ${id}, which get no longer finds, absent from the list`,
    received: `still listed at position ${(listed?.position ?? 0) + 1}`,
    exchange: listed?.exchange,
  }), search.searched);
};

export const deleteUnknownIdAnswer =
  (ownForm: boolean): Check =>
  (exchange) =>
    unless('ORD-DELETE-003', ...unknownIdAnswer(exchange, ownForm));

/** Another order of the account, got again after the delete (`deletion`), is as it was before. */
export const othersUntouched = (id: string, deleted: string, before: Json | undefined, after: Exchange, deletion: Exchange): Judgement | undefined => {
  const [holds, details] = untouched(after, before, `order ${id} untouched by the delete of ${deleted}`);
  return unless('ORD-DELETE-004', holds, details, [deletion, after]);
};

/**
 * Order `id`, got after deletes sent to ids no order has (`ids`; 12abc, 12-x of 12 among them, which an integer cast
 * of the path reads as 12), is still there and not deleted (`liveDeletedAt`: its deleted_at while live): each delete
 * named another order than it, and deleted nothing.
 */
export const remainsAfterUnknownIdDeletes = (id: string, liveDeletedAt: unknown, ids: readonly string[], after: Exchange, deletes: readonly Exchange[]): Judgement | undefined =>
  unless('ORD-DELETE-004', isSuccess(after.status) && !showsDeleted(liveDeletedAt, after.json), () => ({
    expected: `order ${id} still there after deletes of ${ids.map((made) => JSON.stringify(made)).join(', ')}, ids no order has`,
    received: isSuccess(after.status) ? `it shows deleted (deleted_at ${excerpt((after.json as Json | undefined)?.deleted_at)})` : `it is gone (get answers ${after.status})`,
    exchange: after,
  }), [...deletes, after]);
