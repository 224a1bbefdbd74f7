import { randomUUID } from 'node:crypto';
import { clientValue, pathName, serviceAssignedFields, valuesAt, withValueAt, type AssignedField } from '../../contract/assigned';
import { instantOf } from '../../contract/datetime';
import { contract, excerpt } from '../../contract/openapi';
import { is2xx } from '../../checks/body';
import type { Exchange } from '../../harness/http/exchange';
import { check, ensure, unless, type Finding } from '../../harness/findings';
import { test } from '../../harness/fixtures';
import { observe } from '../../harness/observe';
import { createOrder, getOrder, holdsValue, itemsOf, type Json } from '../../harness/orders';
import { fullOrder, item, minimalOrder } from '../../generators/examples';
import { verifies } from '../../harness/verifies';

/**
 * 4.2, 2.3, 2.4: id, user_id, status, the timestamps, customer.id and item ids are assigned by the
 * service (the readOnly fields of openapi.yaml marked x-assigned-by-service). A client that sends them
 * may be refused (which 4xx, if any, is not shown) but never obeyed.
 */
const ASSIGNED = serviceAssignedFields();

/** The client's value must not be what the service answers or stores at that path (timestamps compared by instant). */
function notTaken(requirementId: string, field: AssignedField, sent: string, exchange: Exchange, what: string): Finding | undefined {
  const timestamp = contract().resolve(field.schema).format === 'date-time';
  const same = (value: unknown) => typeof value === 'string' && (value === sent || (timestamp && instantOf(value) === instantOf(sent)));
  const taken = valuesAt(exchange.json, field.path).filter(same);
  return unless(requirementId, taken.length === 0, () => ({
    expected: `${pathName(field.path)} assigned by the service (section ${field.section}), not the value the client sent, in ${what}`,
    received: `${pathName(field.path)} ${excerpt(taken[0])}: the client's value was taken`,
    exchange,
  }));
}

/** A body of the shape a field lives in (two items, so item ids show on more than one element). */
function bodyWith(field: AssignedField, base: Json, sent: string): Json {
  return withValueAt(base, field.path, () => sent) as Json;
}

test.describe('Values the service assigns (4.2, 2.3, 2.4)', () => {
  for (const field of ASSIGNED) {
    test(`does not take a client-sent ${pathName(field.path)} on create`, verifies('ORD-CREATE-008', 'ORD-OBS-012'), async ({ api }) => {
      const sent = clientValue(field, randomUUID());
      const exchange = await api.create(bodyWith(field, minimalOrder({ items: [item(), item({ name: 'Second' })] }), sent));
      if (!(exchange.status >= 200 && exchange.status < 300)) {
        observe('ORD-OBS-012', `a create carrying ${pathName(field.path)} answers ${exchange.status}`);
        return;
      }
      check(notTaken('ORD-CREATE-008', field, sent, exchange, 'the create response'));
      const id = (exchange.json as Json | undefined)?.id;
      if (typeof id !== 'string' || id === '') return; // a create without an id is ORD-CREATE-003's failure
      const { exchange: stored } = await getOrder(api, id);
      check(notTaken('ORD-CREATE-008', field, sent, stored, 'the stored order (get)'));
    });

    // An update that sets status may be a transition, and transitions are not shown (3): only identities and timestamps are held.
    if (field.path.join('.') === 'status') continue;
    test(`does not take a client-sent ${pathName(field.path)} on update`, verifies('ORD-UPDATE-007'), async ({ api }) => {
      const created = await createOrder(api, fullOrder());
      const sent = clientValue(field, randomUUID());
      // The nested ids ride on the parts they belong to, resent as they were created; top-level ones beside a note.
      const base: Json = field.path.length > 1 ? { [field.path[0]]: created.sent[field.path[0]] } : { note: 'assigned values stay' };
      const exchange = await api.update(created.id, bodyWith(field, base, sent));
      if (!(exchange.status >= 200 && exchange.status < 300)) return;
      check(notTaken('ORD-UPDATE-007', field, sent, exchange, 'the update response'));
      const { exchange: stored } = await getOrder(api, created.id);
      check(notTaken('ORD-UPDATE-007', field, sent, stored, 'the stored order (get)'));
    });
  }

  test('keeps customer.id and item ids when an update does not resend them', verifies('ORD-UPDATE-007'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const customerId = (created.body.customer as Json | undefined)?.id;
    const itemIds = itemsOf(created.body).map((entry) => entry.id);
    const exchange = await api.update(created.id, { note: 'only the note changes' });
    ensure(is2xx('ORD-UPDATE-001')(exchange));
    const { exchange: stored } = await getOrder(api, created.id);
    for (const [shown, what] of [[exchange, 'the update response'], [stored, 'the stored order (get)']] as const) {
      const order = (shown.json ?? {}) as Json;
      // Whether omitted fields are kept or cleared is not shown (4.4): only parts that come back are compared.
      const customer = order.customer as Json | undefined;
      // A customer that comes back as empty values was cleared, not reassigned.
      if (customer && typeof customer === 'object' && holdsValue(customer)) {
        check(
          unless('ORD-UPDATE-007', customer.id === customerId, () => ({
            expected: `customer.id ${excerpt(customerId)} (assigned at create, section 2.3) in ${what}: the customer was not resent`,
            received: `customer.id ${excerpt(customer.id)}`,
            exchange: shown,
          })),
        );
      }
      const returned = itemsOf(order).map((entry) => entry.id);
      const foreign = returned.filter((id) => !itemIds.includes(id));
      check(
        unless('ORD-UPDATE-007', foreign.length === 0, () => ({
          expected: `the items, not resent, with the ids assigned at create (section 2.4) in ${what}: ${itemIds.map((id) => excerpt(id)).join(', ')}`,
          received: `item ids ${returned.map((id) => excerpt(id)).join(', ')}`,
          exchange: shown,
        })),
      );
    }
  });
});
