import { excerpt } from '../../contract/openapi';
import { showsDeleted } from '../../checks/deletion';
import { is2xx, isRefused } from '../../checks/body';
import { check, unless } from '../../harness/findings';
import { test } from '../../harness/fixtures';
import { findInList } from '../../harness/listing';
import { createOrder, getOrder } from '../../harness/orders';
import { fullOrder } from '../../generators/examples';
import { changesBetween, formatDifferences } from '../../checks/roundtrip';
import { verifies } from '../../harness/verifies';

test.describe('Isolation between accounts (1)', () => {
  test('account B cannot read an order of account A', verifies('ORD-ISO-001'), async ({ api, apiB }) => {
    const created = await createOrder(api, fullOrder());
    check(isRefused('ORD-ISO-001')(await apiB.get(created.id)));
    const seen = (await findInList(apiB, [created.id])).get(created.id);
    check(
      unless('ORD-ISO-001', !seen, () => ({
        expected: `account A's order ${created.id} absent from account B's list`,
        received: `listed at position ${seen!.position + 1}`,
        exchange: seen!.exchange,
      })),
    );
  });

  test('account B cannot change an order of account A', verifies('ORD-ISO-002'), async ({ api, apiB }) => {
    const created = await createOrder(api, fullOrder());
    // Compared with what the server held before, not with what was sent: values it computes stay out of it.
    const before = await getOrder(api, created.id);
    check(isRefused('ORD-ISO-002')(await apiB.update(created.id, { note: 'written by account B', price: 0.01 })));
    const { body, exchange } = await getOrder(api, created.id);
    const changed = changesBetween(before.body, body);
    check(
      unless('ORD-ISO-002', changed.length === 0, () => ({
        expected: `account A's order ${created.id} unchanged`,
        received: `changed:\n${formatDifferences(changed)}`,
        exchange,
      })),
    );
  });

  test('account B cannot delete an order of account A', verifies('ORD-ISO-003'), async ({ api, apiB }) => {
    const created = await createOrder(api, fullOrder());
    check(isRefused('ORD-ISO-003')(await apiB.delete(created.id)));
    const after = await api.get(created.id);
    check(is2xx('ORD-ISO-003')(after));
    check(
      unless('ORD-ISO-003', !showsDeleted(created.body.deleted_at, after.json), () => ({
        expected: `account A's order ${created.id} not deleted (deleted_at as it was: ${excerpt(created.body.deleted_at)})`,
        received: `deleted_at is ${excerpt((after.json as { deleted_at?: unknown } | undefined)?.deleted_at)}`,
        exchange: after,
      })),
    );
  });
});
