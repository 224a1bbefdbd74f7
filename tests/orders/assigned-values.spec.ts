import { randomUUID } from 'node:crypto';
import { clientValue, pathName, serviceAssignedFields, withValueAt, type AssignedField } from '../../contract/assigned';
import { createIgnoresClientValue, createRefusesClientValue, itemsOf, updateAccepted, updateIgnoresClientValue, updateKeepsCustomerId, updateKeepsItemIds } from '../../checks/orders';
import { isClientError, isSuccess } from '../../checks/status';
import { check, ensure } from '../../harness/record/findings';
import { test } from '../../harness/fixtures';
import { observe } from '../../harness/record/observe';
import { createOrder, getOrder } from '../../harness/requests/orders';
import type { Json } from '../../contract/exchange';
import { fullOrder, item, minimalOrder } from '../../contract/examples';
import { verifies } from '../../harness/record/verifies';

/**
 * 4.2, 2.3, 2.4: id, user_id, status, the timestamps, customer.id and item ids are assigned by the
 * service (the readOnly fields of openapi.yaml marked x-assigned-by-service). A client that sends them
 * may be refused (which 4xx, if any, is not shown) but never obeyed.
 */
const ASSIGNED = serviceAssignedFields();

/** A body of the shape a field lives in (two items, so item ids show on more than one element). */
function bodyWith(field: AssignedField, base: Json, sent: string): Json {
  return withValueAt(base, field.path, () => sent) as Json;
}

test.describe('Values the service assigns (4.2, 2.3, 2.4)', () => {
  for (const field of ASSIGNED) {
    test(`does not take a client-sent ${pathName(field.path)} on create`, verifies('ORD-CREATE-008', 'ORD-OBS-012'), async ({ api }) => {
      const sent = clientValue(field, randomUUID());
      const exchange = await api.create(bodyWith(field, minimalOrder({ items: [item(), item({ name: 'Second' })] }), sent));
      if (!isSuccess(exchange.status)) {
        observe('ORD-OBS-012', `a create carrying ${pathName(field.path)} answers ${exchange.status}`);
        // A refusal is one of the two answers the requirement allows; a 5xx is other requirements' to judge.
        if (isClientError(exchange.status)) check(createRefusesClientValue(field, exchange));
        return;
      }
      check(createIgnoresClientValue(field, sent, exchange, 'the create response'));
      const id = (exchange.json as Json | undefined)?.id;
      if (typeof id !== 'string' || id === '') return; // a create without an id is ORD-CREATE-003's failure
      const { exchange: stored } = await getOrder(api, id);
      check(createIgnoresClientValue(field, sent, stored, 'the stored order (get)'));
    });

    // An update that sets status may be a transition, and transitions are not shown (3): only identities and timestamps are held.
    if (field.path.join('.') === 'status') continue;
    test(`does not take a client-sent ${pathName(field.path)} on update`, verifies('ORD-UPDATE-007'), async ({ api }) => {
      const created = await createOrder(api, fullOrder());
      const sent = clientValue(field, randomUUID());
      // The nested ids ride on the parts they belong to, resent as they were created; top-level ones beside a note.
      const base: Json = field.path.length > 1 ? { [field.path[0]]: created.sent[field.path[0]] } : { note: 'assigned values stay' };
      const exchange = await api.update(created.id, bodyWith(field, base, sent));
      if (!isSuccess(exchange.status)) return;
      check(updateIgnoresClientValue(field, sent, exchange, 'the update response'));
      const { exchange: stored } = await getOrder(api, created.id);
      check(updateIgnoresClientValue(field, sent, stored, 'the stored order (get)'));
    });
  }

  test('keeps customer.id and item ids when an update does not resend them', verifies('ORD-UPDATE-007'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const customerId = (created.body.customer as Json | undefined)?.id;
    const itemIds = itemsOf(created.body).map((entry) => entry.id);
    const exchange = await api.update(created.id, { note: 'only the note changes' });
    ensure(updateAccepted(exchange));
    const { exchange: stored } = await getOrder(api, created.id);
    for (const [shown, what] of [[exchange, 'the update response'], [stored, 'the stored order (get)']] as const) {
      check(updateKeepsCustomerId(customerId, shown, what));
      check(updateKeepsItemIds(itemIds, shown, what));
    }
  });
});
