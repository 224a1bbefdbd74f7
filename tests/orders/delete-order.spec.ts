import { contract, excerpt } from '../../contract/openapi';
import { is2xx, isUnknownAnswer } from '../../checks/body';
import { showsDeleted } from '../../checks/deletion';
import { check, ensure, unless } from '../../harness/findings';
import { test } from '../../harness/fixtures';
import { findInList } from '../../harness/listing';
import { observe } from '../../harness/observe';
import { createOrder, getOrder, unknownIds, type Json } from '../../harness/orders';
import { fullOrder, minimalOrder } from '../../generators/examples';
import { changesBetween, formatDifferences } from '../../checks/roundtrip';
import { verifies } from '../../harness/verifies';

test.describe('DELETE /orders/{order_id} (4.5)', () => {
  test('answers a 2xx with one of the documented shapes', verifies('ORD-DELETE-001', 'ORD-OBS-001', 'ORD-OBS-003'), async ({ api }) => {
    const created = await createOrder(api, minimalOrder());
    const exchange = await api.delete(created.id);
    ensure(is2xx('ORD-DELETE-001')(exchange));
    observe('ORD-OBS-001', `delete answers ${exchange.status}`);
    const shape = (['DeleteEnvelope', 'DeleteMessage'] as const).find((name) => contract().component(name).problems(exchange.json).length === 0);
    const named = { DeleteMessage: 'the { message } shape', DeleteEnvelope: 'the envelope shape { success, meta }' };
    observe('ORD-OBS-003', `delete answers ${shape ? named[shape] : 'neither documented shape'}`);
  });

  test('takes effect: a later get answers 404/410 or the order with deleted_at set', verifies('ORD-DELETE-002', 'ORD-OBS-004', 'ORD-OBS-025'), async ({ api }) => {
    const created = await createOrder(api, minimalOrder());
    ensure(is2xx('ORD-DELETE-001')(await api.delete(created.id)));
    const after = await api.get(created.id);
    const deletedAt = (after.json as Json | undefined)?.deleted_at;
    const soft = after.status >= 200 && after.status < 300;
    check(
      unless('ORD-DELETE-002', after.status === 404 || after.status === 410 || (soft && showsDeleted(created.body.deleted_at, after.json)), () => ({
        expected: `get after delete: 404 or 410, or the order with deleted_at set to a date-time (it was ${excerpt(created.body.deleted_at)} while live)`,
        received: soft ? `${after.status} with deleted_at ${excerpt(deletedAt)}` : `${after.status}`,
        exchange: after,
      })),
    );
    if (!soft) {
      // Gone for get, so gone from the list too.
      const listed = (await findInList(api, [created.id])).get(created.id);
      check(
        unless('ORD-DELETE-002', !listed, () => ({
          expected: `order ${created.id}, which get no longer finds, absent from the list`,
          received: `still listed at position ${listed!.position + 1}`,
          exchange: listed!.exchange,
        })),
      );
    }
    observe('ORD-OBS-004', soft ? `soft delete (get answers ${after.status} with deleted_at set)` : `hard delete (get answers ${after.status})`);
    observe('ORD-OBS-025', `deleted_at of a live order: ${created.body.deleted_at === undefined ? 'absent' : excerpt(created.body.deleted_at)}`);
  });

  test('answers 404 or 410 for an unknown id (another 4xx too for an id of another form)', verifies('ORD-DELETE-003'), async ({ api }) => {
    for (const { id, ownForm } of await unknownIds(api)) check(isUnknownAnswer('ORD-DELETE-003', ownForm)(await api.delete(id)));
  });

  test('deletes only the order named', verifies('ORD-DELETE-004'), async ({ api }) => {
    const orders = [await createOrder(api, fullOrder()), await createOrder(api, fullOrder()), await createOrder(api, fullOrder())];
    // Compared with what the server held before the delete, not with what was sent: values it computes stay out of it.
    const before = new Map<string, Json>();
    for (const survivor of [orders[0], orders[2]]) before.set(survivor.id, (await getOrder(api, survivor.id)).body);
    ensure(is2xx('ORD-DELETE-001')(await api.delete(orders[1].id)));
    for (const survivor of [orders[0], orders[2]]) {
      const exchange = await api.get(survivor.id);
      const body = exchange.json as Json | undefined;
      const changed = body ? changesBetween(before.get(survivor.id), body) : [];
      check(
        unless('ORD-DELETE-004', exchange.status >= 200 && exchange.status < 300 && changed.length === 0, () => ({
          expected: `order ${survivor.id} untouched by the delete of ${orders[1].id}`,
          received: exchange.status >= 300 ? `get answers ${exchange.status}` : `it changed:\n${formatDifferences(changed)}`,
          exchange,
        })),
      );
    }
  });
});
