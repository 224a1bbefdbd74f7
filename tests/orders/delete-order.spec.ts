import { contract, excerpt } from '../../contract/openapi';
import { deleteAccepted, deletedOnGet, deleteUnknownIdAnswer, goneFromList, othersUntouched, remainsAfterUnknownIdDeletes, staysDeleted, writeAfterDeleteAnswered } from '../../checks/deletion';
import { reachesNoOrder } from '../../generators/order-id';
import { together } from '../../harness/requests/together';
import { isSuccess } from '../../checks/status';
import { check, ensure } from '../../harness/record/findings';
import { test } from '../../harness/fixtures';
import { findInList, judgedWhenSettled } from '../../harness/requests/listing';
import { observe } from '../../harness/record/observe';
import { createOrder, getOrder, unknownIds, writeAfterDelete } from '../../harness/requests/orders';
import type { Json } from '../../contract/exchange';
import { fullOrder, minimalOrder } from '../../contract/examples';
import { verifies, whileNoOtherTestCreates } from '../../harness/record/verifies';

test.describe('DELETE /orders/{order_id} (4.5)', () => {
  test('answers a 2xx with one of the documented shapes', verifies('ORD-DELETE-001', 'ORD-OBS-001', 'ORD-OBS-003'), async ({ api }) => {
    const created = await createOrder(api, minimalOrder());
    const exchange = await api.delete(created.id);
    ensure(deleteAccepted(exchange));
    observe('ORD-OBS-001', `delete answers ${exchange.status}`);
    const shape = (['DeleteEnvelope', 'DeleteMessage'] as const).find((name) => contract().component(name).problems(exchange.json).length === 0);
    const named = { DeleteMessage: 'the { message } shape', DeleteEnvelope: 'the envelope shape { success, meta }' };
    observe('ORD-OBS-003', `delete answers ${shape ? named[shape] : 'neither documented shape'}`);
  });

  test('takes effect: a later get answers 404/410 or the order with deleted_at set', verifies('ORD-DELETE-002', 'ORD-OBS-004', 'ORD-OBS-025'), async ({ api }) => {
    const created = await createOrder(api, minimalOrder());
    const deletion = await api.delete(created.id);
    ensure(deleteAccepted(deletion));
    const after = await api.get(created.id);
    const soft = isSuccess(after.status);
    check(deletedOnGet('get after delete', created.body, after, deletion));
    // Gone for get, so gone from the list too.
    if (!soft) check(await judgedWhenSettled(api, () => findInList(api, [created.id]), (search) => goneFromList(created.id, search)));
    observe('ORD-OBS-004', soft ? `soft delete (get answers ${after.status} with deleted_at set)` : `gone from get (get answers ${after.status}: a hard delete, or a soft one get no longer shows)`);
    observe('ORD-OBS-025', `deleted_at of a live order: ${created.body.deleted_at === undefined ? 'absent' : excerpt(created.body.deleted_at)}`);
  });

  test('answers 404 or 410 for an unknown id (another 4xx too for an id of another form), and deletes no order through an id made from its own (12abc of 12)', verifies('ORD-DELETE-003', 'ORD-DELETE-004'), async ({ api }) => {
    const { sample, ids } = await unknownIds(api);
    // Only to ids no reading lets reach the sample: a correct server may read its id with a trailing space as itself.
    const sent = ids.filter(({ madeFrom }) => !madeFrom || reachesNoOrder(madeFrom));
    const deletes = await together(sent.map(({ id }) => api.delete(id)));
    sent.forEach(({ ownForm }, index) => check(deleteUnknownIdAnswer(ownForm)(deletes[index])));
    const liveDeletedAt = (sample.exchange.json as Json | undefined)?.deleted_at;
    check(remainsAfterUnknownIdDeletes(sample.id, liveDeletedAt, sent.map(({ id }) => id), await api.get(sample.id), deletes));
  });

  test('answers an update of a deleted order without a 5xx, and the order stays deleted', whileNoOtherTestCreates(verifies('ORD-DELETE-005', 'ORD-OBS-004')), async ({ api }) => {
    const { created, shown, written, after } = await writeAfterDelete(api, (id) => api.update(id, { note: 'written after the delete' }));
    check(writeAfterDeleteAnswered('update', isSuccess(shown.status), written));
    check(staysDeleted(created.body, after, written));
    observe('ORD-OBS-004', `an update of a deleted order answers ${written.status}`);
  });

  test('answers a second delete of an order without a 5xx, and the order stays deleted', whileNoOtherTestCreates(verifies('ORD-DELETE-005', 'ORD-OBS-004')), async ({ api }) => {
    const { created, shown, written, after } = await writeAfterDelete(api, (id) => api.delete(id));
    check(writeAfterDeleteAnswered('delete', isSuccess(shown.status), written));
    check(staysDeleted(created.body, after, written));
    observe('ORD-OBS-004', `a second delete of an order answers ${written.status}`);
  });

  test('answers 404 or another 4xx for ids outside ASCII or with a percent sign', verifies('ORD-DELETE-003'), async ({ api }) => {
    for (const id of api.unknownIdsOutsideAscii()) check(deleteUnknownIdAnswer(false)(await api.delete(id)));
  });

  // A delete that removes the order created next to the one named shows only where the three were made one after another, no other create of the run between.
  test('deletes only the order named', whileNoOtherTestCreates(verifies('ORD-DELETE-004')), async ({ api }) => {
    // One after another, nothing made between: the one deleted has the other two on either side of it.
    const orders = await api.withoutOtherCreates(async () => [await createOrder(api, fullOrder()), await createOrder(api, fullOrder()), await createOrder(api, fullOrder())]);
    const survivors = [orders[0], orders[2]];
    // Compared with what the server held before the delete, not with what was sent: values it computes stay out of it.
    const before = await together(survivors.map((survivor) => getOrder(api, survivor.id)));
    const deletion = await api.delete(orders[1].id);
    ensure(deleteAccepted(deletion));
    const after = await together(survivors.map((survivor) => api.get(survivor.id)));
    survivors.forEach((survivor, index) => check(othersUntouched(survivor.id, orders[1].id, before[index].body, after[index], deletion)));
  });
});
