import { instantOf } from '../contract/datetime';

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
