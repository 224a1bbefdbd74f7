import { requestLine } from '../../contract/operations';
import { contentTypeIsJson, fullFormTimestampsCarryOffset, metaStatusMatches, promisedFieldsPresent, summaryTimestampsCarryOffset } from '../../checks/body';
import { updateAccepted } from '../../checks/orders';
import { check, ensure } from '../../harness/record/findings';
import { test } from '../../harness/fixtures';
import { createOrder, orderToRead } from '../../harness/requests/orders';
import { fullOrder, item, minimalOrder } from '../../contract/examples';
import { verifies } from '../../harness/record/verifies';

test.describe('JSON bodies and meta.status (1, 4.1)', () => {
  test('answers every operation with a JSON body and content type application/json', verifies('ORD-GEN-001'), async ({ api }) => {
    const created = await orderToRead(api);
    const exchanges = [created.exchange, await api.get(created.id), await api.list({ limit: 2 })];
    // In read-only mode the order is not the run's: it is read, never updated or deleted.
    if (!api.readOnly) exchanges.push(await api.update(created.id, { note: 'json?' }), await api.delete(created.id));
    exchanges.push(await api.get(api.unknownId()));
    for (const exchange of exchanges) {
      check(contentTypeIsJson(exchange));
    }
  });

  test('gives the HTTP status in meta.status', verifies('ORD-GEN-002'), async ({ api }) => {
    for (const exchange of [
      await api.list({ limit: 1 }),
      await api.get(api.unknownId()),
      await api.send({ ...requestLine('listOrders'), authorization: null }),
    ]) {
      check(metaStatusMatches(exchange));
    }
  });

  test('returns customer.id, customer.tax_office, payment.type and item totals in every full form', verifies('ORD-FORM-003'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const update = await api.update(created.id, { customer: { ...fullOrder().customer, name: 'Mary Jackson' }, items: [item({ name: 'Slide rule', price: 30.1 })] });
    ensure(updateAccepted(update));
    for (const exchange of [created.exchange, await api.get(created.id), update]) check(promisedFieldsPresent(exchange));
  });

  test('writes the timestamps it assigns with an offset', verifies('ORD-FORM-004'), async ({ api }) => {
    const created = await createOrder(api, minimalOrder());
    const update = await api.update(created.id, { note: 'a timestamp with an offset' });
    // Any summaries will do: their timestamps are the service's too.
    for (const exchange of [created.exchange, update, await api.get(created.id)]) check(fullFormTimestampsCarryOffset(exchange));
    check(summaryTimestampsCarryOffset(await api.list({ limit: 5 })));
  });
});
