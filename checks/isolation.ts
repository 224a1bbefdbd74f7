import { excerpt } from '../contract/openapi';
import type { Exchange, Json } from '../contract/exchange';
import { showsDeleted } from './deletion';
import { whereListed, type ListSearch } from './listing';
import { untouched } from './orders';
import { hiddenFromOtherAccount, isSuccess, refused } from './status';
import { unless, type Check, type Judgement } from './check';

/** Judgements of isolation between accounts (1): another account can neither see nor change an account's orders. */

/** Another account's get of an order: 404, 403 or 410. */
export const otherAccountCannotRead =
  (what: string): Check =>
  (exchange) =>
    unless('ORD-ISO-001', ...hiddenFromOtherAccount(exchange, what));

/** Another account's list does not show the order (`listed`: where it showed it, if it did). */
export const otherAccountCannotList = (what: string, reader: string, search: ListSearch, id: string): Judgement | undefined => {
  const listed = whereListed(search, id);
  if (listed === 'unknown') return undefined;
  return unless('ORD-ISO-001', listed === undefined, () => ({
    expected: `${what} absent from ${reader}'s list`,
    received: `listed at position ${(listed?.position ?? 0) + 1}`,
    exchange: listed?.exchange,
  }), search.searched);
};

/** Another account's update is refused (which status is not stated). */
export const otherAccountCannotUpdate =
  (what: string): Check =>
  (exchange) =>
    unless('ORD-ISO-002', ...refused(exchange, what));

/** The order, got by its owner after another account's update, is as it was before. */
export const unchangedByOtherAccount = (what: string, before: Json, after: Exchange): Judgement | undefined =>
  unless('ORD-ISO-002', ...untouched(after, before, `${what} unchanged`));

/** Another account's delete is refused (which status is not stated). */
export const otherAccountCannotDelete =
  (what: string): Check =>
  (exchange) =>
    unless('ORD-ISO-003', ...refused(exchange, what));

/** The order, got by its owner after another account's delete, is still there (`liveDeletedAt`: what deleted_at held before). */
export function remainsAfterOtherAccountsDelete(what: string, liveDeletedAt: unknown, after: Exchange): Judgement | undefined {
  const deletedAt = (after.json as Json | undefined)?.deleted_at;
  return unless('ORD-ISO-003', isSuccess(after.status) && !showsDeleted(liveDeletedAt, after.json), () => ({
    expected: `${what} not deleted (deleted_at as it was: ${excerpt(liveDeletedAt)})`,
    received: isSuccess(after.status) ? `deleted_at is ${excerpt(deletedAt)}` : `get answers ${after.status}`,
    exchange: after,
  }), after);
}
