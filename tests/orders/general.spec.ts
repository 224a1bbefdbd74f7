import { requestLine } from '../../contract/operations';
import { contentTypeIsJson, metaStatusMatches } from '../../checks/body';
import { check } from '../../harness/findings';
import { test } from '../../harness/fixtures';
import { orderToRead } from '../../harness/orders';
import { verifies } from '../../harness/verifies';

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
});
