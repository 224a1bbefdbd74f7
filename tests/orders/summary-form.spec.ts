import { skipTest } from '../../harness/record/skips';
import { listedAfterCreate, summaryCarriesFullForm } from '../../checks/listing';
import { createAccepted, createAnswersWhatWasSent, getAnswersOrderAsked, idAssigned, refusalProvesNothing } from '../../checks/orders';
import { check, ensure } from '../../harness/record/findings';
import { test } from '../../harness/fixtures';
import { findInList, judgedWhenSettled } from '../../harness/requests/listing';
import { createOrder, getOrder } from '../../harness/requests/orders';
import { fullOrder, item, minimalOrder } from '../../contract/examples';
import { verifies } from '../../harness/record/verifies';

/**
 * Section 2.7 on the summary of an order that carries every field, so that each summary field (payment
 * included, which a minimal order lacks) is checked against OrderSummary: the api checks every list
 * page it receives (checks/body.ts), this test makes sure such an order is on one.
 */
test('answers the summary of a fully filled order in the form of section 2.7', verifies('ORD-FORM-002'), async ({ api }) => {
  const created = await createOrder(api, fullOrder());
  check(await judgedWhenSettled(api, () => findInList(api, [created.id]), (search) => listedAfterCreate(created.id, search)));
});

/**
 * An object sent with nothing in it (payment: {}) may come back absent, null or empty, in the full form and
 * in the summary alike, as a field never sent may (ORD-OBS-011): the summary still carries the full form's values.
 */
test('lists an order sent with empty objects with the values of its full form', verifies('ORD-LIST-008', 'ORD-CREATE-004'), async ({ api }) => {
  const sent = minimalOrder({ payment: {}, items: [item({ dimensions: {} })] });
  const exchange = await api.create(sent);
  if (refusalProvesNothing(sent, exchange)) skipTest({ kind: 'precondition', reason: `the server refuses a payment sent empty (${exchange.status}): which nested fields it requires is open (ORD-OBS-026)` });
  ensure(createAccepted(exchange));
  ensure(idAssigned(exchange));
  check(createAnswersWhatWasSent(sent, exchange));
  const id = String((exchange.json as { id?: unknown }).id);
  // The summary is compared with the full form of this order: a get that answers another one is ORD-GET-001's.
  const { exchange: got } = await getOrder(api, id);
  ensure(getAnswersOrderAsked(id, got));
  check(await judgedWhenSettled(api, () => findInList(api, [id]), (search) => summaryCarriesFullForm(id, got, search)));
});
