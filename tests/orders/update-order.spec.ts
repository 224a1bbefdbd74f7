import { contract } from '../../contract/openapi';
import {
  emptyUpdateAnswered,
  emptyUpdateLeftOrder,
  serviceAssignedParts,
  updateAccepted,
  updateAnswersWhatWasSent,
  updatedAtAdvanced,
  updateAnswersTheStoredOrder,
  updateKeepsAssignedValues,
  updateUnknownIdAnswer,
  updateVisibleOnGet,
  unchangedByUnknownIdUpdates,
  REFUSED_NOTE,
} from '../../checks/orders';
import { reachesNoOrder } from '../../generators/order-id';
import { together } from '../../harness/requests/together';
import { isClientError } from '../../checks/status';
import { check, ensure } from '../../harness/record/findings';
import { test } from '../../harness/fixtures';
import { observe } from '../../harness/record/observe';
import { createOrder, createOrders, getOrder, pastPrecisionOf, unknownIds } from '../../harness/requests/orders';
import type { Json } from '../../contract/exchange';
import { fullOrder, item, updateAddress } from '../../contract/examples';
import { differences } from '../../checks/roundtrip';
import { verifies } from '../../harness/record/verifies';

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
      ensure(updateAccepted(exchange));
      check(updateAnswersWhatWasSent(sent, exchange));
    });
  }

  test('accepts every optional field together and returns them', verifies('ORD-UPDATE-001', 'ORD-UPDATE-002', 'ORD-OBS-001'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const sent = fullUpdate();
    const exchange = await api.update(created.id, sent);
    ensure(updateAccepted(exchange));
    observe('ORD-OBS-001', `update answers ${exchange.status}`);
    check(updateAnswersWhatWasSent(sent, exchange));
  });

  test('returns two items of one name and sku as two items, each with its quantity', verifies('ORD-UPDATE-002'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const twin = item({ name: 'Notebook', sku: 'NB-1', quantity: 1, price: 2.2 });
    const sent = { items: [twin, { ...twin, quantity: 4 }] };
    const exchange = await api.update(created.id, sent);
    ensure(updateAccepted(exchange));
    check(updateAnswersWhatWasSent(sent, exchange));
  });

  test('answers an update with no field with a 2xx, or a 4xx that leaves the order as it was', verifies('ORD-UPDATE-009'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const { body: before } = await getOrder(api, created.id);
    const exchange = await api.update(created.id, {});
    check(emptyUpdateAnswered(exchange));
    if (isClientError(exchange.status)) check(emptyUpdateLeftOrder(before, await api.get(created.id), exchange));
  });

  test('makes the update visible on the next get', verifies('ORD-UPDATE-003'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    // Read before the update too, as clients do: a cache filled by that read must not outlive the update.
    await getOrder(api, created.id);
    const sent = fullUpdate();
    const update = await api.update(created.id, sent);
    ensure(updateAccepted(update));
    const { exchange } = await getOrder(api, created.id);
    check(updateVisibleOnGet(sent, exchange, 'the order after the update', update));
  });

  test('answers the order as it now stands, also the fields it did not send', verifies('ORD-UPDATE-008'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const sent = { note: 'only the note changes' };
    const answer = await api.update(created.id, sent);
    ensure(updateAccepted(answer));
    const { exchange: next } = await getOrder(api, created.id);
    check(updateAnswersTheStoredOrder(created.sent, sent, answer, next));
  });

  test('advances updated_at on an update of each updatable field alone', verifies('ORD-UPDATE-004'), async ({ api }) => {
    // Each field alone: an ORM that writes only changed columns leaves the order row untouched when only items or the customer change.
    const fields = Object.keys(contract().schema('OrderUpdate').properties as object);
    const created = await createOrders(api, fields.map(() => fullOrder()));
    // The updated_at the server holds before each update: the create answer's, or a get's where that lacks it (ORD-CREATE-003's to judge).
    const held = await together(created.map(async ({ id, body }) => body.updated_at ?? (await getOrder(api, id)).body.updated_at));
    // Timestamp precision is open (it may be whole seconds): update one unit of it later, once for all.
    await pastPrecisionOf(held.find((value) => value !== undefined));
    const updates = await together(created.map(({ id }, index) => api.update(id, { [fields[index]]: fullUpdate()[fields[index]] })));
    updates.forEach((exchange) => ensure(updateAccepted(exchange)));
    const after = await together(created.map(({ id }) => getOrder(api, id)));
    fields.forEach((field, index) => {
      check(updatedAtAdvanced(held[index], updates[index], `the answer to an update of ${field} alone`));
      check(updatedAtAdvanced(held[index], after[index].exchange, `the next get after an update of ${field} alone`));
    });
  });

  test('shows the customer id, item ids and item totals after an update that sends customer and items', verifies('ORD-CREATE-005'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const exchange = await api.update(created.id, { customer: fullUpdate().customer, items: fullUpdate().items });
    ensure(updateAccepted(exchange));
    const { exchange: after } = await getOrder(api, created.id);
    for (const shown of [exchange, after]) check(serviceAssignedParts(shown));
  });

  test('keeps id, user_id and created_at', verifies('ORD-UPDATE-005'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const exchange = await api.update(created.id, fullUpdate());
    ensure(updateAccepted(exchange));
    // The answer first: a server that moved the order to another id leaves nothing at the old one to get.
    check(updateKeepsAssignedValues(created.body, exchange));
    const { exchange: after } = await getOrder(api, created.id);
    check(updateKeepsAssignedValues(created.body, after));
  });

  test('answers 404 or 410 for an unknown id (another 4xx too for an id of another form), creates none, and changes no order through an id made from its own (12abc of 12)', verifies('ORD-UPDATE-006'), async ({ api }) => {
    const { sample, ids } = await unknownIds(api);
    // Only to ids no reading lets reach the sample: a correct server may read its id with a trailing space as itself.
    const written = ids.filter(({ madeFrom }) => !madeFrom || reachesNoOrder(madeFrom));
    const updates = await together(written.map(({ id }) => api.update(id, { ...fullUpdate(), note: REFUSED_NOTE })));
    const unmade = written.filter(({ madeFrom }) => !madeFrom);
    const [after, ...gets] = await together([api.get(sample.id), ...unmade.map(({ id }) => api.get(id))]);
    written.forEach(({ ownForm }, index) => check(updateUnknownIdAnswer(ownForm)(updates[index])));
    unmade.forEach(({ ownForm }, index) => check(updateUnknownIdAnswer(ownForm)(gets[index])));
    check(unchangedByUnknownIdUpdates(sample.id, written.map(({ id }) => id))(after));
  });

  test('answers 404 or another 4xx for ids outside ASCII or with a percent sign', verifies('ORD-UPDATE-006'), async ({ api }) => {
    for (const id of api.unknownIdsOutsideAscii()) check(updateUnknownIdAnswer(false)(await api.update(id, { note: 'no such order' })));
  });

  test('keeps or clears the fields an update omits', verifies('ORD-OBS-005'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    ensure(updateAccepted(await api.update(created.id, { note: 'only the note changes' })));
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
