import { contract, excerpt } from '../../contract/openapi';
import { instantOf } from '../../contract/datetime';
import { is2xx, isUnknownAnswer } from '../../checks/body';
import { check, ensure, unless } from '../../harness/findings';
import { test } from '../../harness/fixtures';
import { observe } from '../../harness/observe';
import { carriesWhatWasSent, createOrder, getOrder, keepsAssignedValues, pastPrecisionOf, serviceAssignedParts, unknownIds, type Json } from '../../harness/orders';
import { fullOrder, item, updateAddress } from '../../generators/examples';
import { differences } from '../../checks/roundtrip';
import { verifies } from '../../harness/verifies';

/** A value for every field the update request declares (4.4), each different from fullOrder()'s. */
function fullUpdate(): Json {
  const values: Json = {
    customer: {
      name: 'Katherine Johnson',
      company: 'Langley Research',
      tax_id: 'US998877',
      email: { main: 'katherine@example.com', work: 'kj@langley.example' },
      phone: { main: '+17575550100', work: '+17575550101', cell: '+17575550102', code: '1' },
      address: updateAddress(),
    },
    items: [item({ name: 'Slide rule', quantity: 1, price: 30.1 }), item({ name: 'Notebook', quantity: 4, price: 2.2 })],
    note: 'Updated: ring twice',
    currency: 'USD',
    price: 38.9,
  };
  const declared = Object.keys(contract().schema('OrderUpdate').properties as object);
  return Object.fromEntries(declared.map((field) => [field, values[field]]));
}

test.describe('PUT /orders/{order_id} (4.4)', () => {
  for (const field of Object.keys(contract().schema('OrderUpdate').properties as object)) {
    test(`accepts an update of ${field} alone`, verifies('ORD-UPDATE-001', 'ORD-UPDATE-002'), async ({ api }) => {
      const created = await createOrder(api, fullOrder());
      const sent = { [field]: fullUpdate()[field] };
      const exchange = await api.update(created.id, sent);
      ensure(is2xx('ORD-UPDATE-001')(exchange));
      check(carriesWhatWasSent('ORD-UPDATE-002', sent, exchange, 'the update response'));
    });
  }

  test('accepts every optional field together and returns them', verifies('ORD-UPDATE-001', 'ORD-UPDATE-002', 'ORD-OBS-001'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const sent = fullUpdate();
    const exchange = await api.update(created.id, sent);
    ensure(is2xx('ORD-UPDATE-001')(exchange));
    observe('ORD-OBS-001', `update answers ${exchange.status}`);
    check(carriesWhatWasSent('ORD-UPDATE-002', sent, exchange, 'the update response'));
  });

  test('makes the update visible on the next get', verifies('ORD-UPDATE-003'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    // Read before the update too, as clients do: a cache filled by that read must not outlive the update.
    await getOrder(api, created.id);
    const sent = fullUpdate();
    ensure(is2xx('ORD-UPDATE-001')(await api.update(created.id, sent)));
    const { exchange } = await getOrder(api, created.id);
    check(carriesWhatWasSent('ORD-UPDATE-003', sent, exchange, 'the order after the update'));
  });

  test('advances updated_at', verifies('ORD-UPDATE-004'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    // Timestamp precision is open (it may be whole seconds): update one unit of it later.
    await pastPrecisionOf(created.body.updated_at);
    const exchange = await api.update(created.id, { note: 'moves updated_at' });
    ensure(is2xx('ORD-UPDATE-001')(exchange));
    const { body, exchange: after } = await getOrder(api, created.id);
    const before = instantOf(String(created.body.updated_at));
    for (const [what, value, shown] of [
      ['the update response', (exchange.json as Json).updated_at, exchange],
      ['the next get', body.updated_at, after],
    ] as const) {
      check(
        unless('ORD-UPDATE-004', typeof value === 'string' && instantOf(value) > before, () => ({
          expected: `updated_at in ${what} later than ${String(created.body.updated_at)}`,
          received: `updated_at ${excerpt(value)}`,
          exchange: shown,
        })),
      );
    }
  });

  test('shows the customer id, item ids and item totals after an update that sends customer and items', verifies('ORD-CREATE-005'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const exchange = await api.update(created.id, { customer: fullUpdate().customer, items: fullUpdate().items });
    ensure(is2xx('ORD-UPDATE-001')(exchange));
    const { exchange: after } = await getOrder(api, created.id);
    for (const shown of [exchange, after]) check(serviceAssignedParts(shown));
  });

  test('keeps id, user_id and created_at', verifies('ORD-UPDATE-005'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const exchange = await api.update(created.id, fullUpdate());
    ensure(is2xx('ORD-UPDATE-001')(exchange));
    const { exchange: after } = await getOrder(api, created.id);
    for (const shown of [exchange, after]) check(keepsAssignedValues('ORD-UPDATE-005', created.body, shown, 'unchanged by the update'));
  });

  test('answers 404 or 410 for an unknown id (another 4xx too for an id of another form) and does not create it', verifies('ORD-UPDATE-006'), async ({ api }) => {
    for (const { id, ownForm } of await unknownIds(api)) {
      check(isUnknownAnswer('ORD-UPDATE-006', ownForm)(await api.update(id, fullUpdate())));
      check(isUnknownAnswer('ORD-UPDATE-006', ownForm)(await api.get(id)));
    }
  });

  test('keeps or clears the fields an update omits', verifies('ORD-OBS-005'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    ensure(is2xx('ORD-UPDATE-001')(await api.update(created.id, { note: 'only the note changes' })));
    const { body } = await getOrder(api, created.id);
    const { note: _note, ...omitted } = created.sent;
    const cleared = [...new Set(differences(omitted, body).map((d) => d.pointer.split('/')[1]))];
    observe('ORD-OBS-005', cleared.length ? `replace: omitted fields changed (${cleared.join(', ')})` : 'merge: omitted fields kept');
  });

  test('handles an empty items array', verifies('ORD-OBS-006'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const exchange = await api.update(created.id, { items: [] });
    const { body } = await getOrder(api, created.id);
    const items = Array.isArray(body.items) ? body.items.length : 'no items array';
    observe('ORD-OBS-006', `update with items [] answered ${exchange.status}; the order then has ${items} item(s)`);
  });
});
