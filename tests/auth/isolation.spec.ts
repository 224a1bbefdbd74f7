import { otherAccountCannotDelete, otherAccountCannotList, otherAccountCannotRead, otherAccountCannotUpdate, remainsAfterOtherAccountsDelete, unchangedByOtherAccount } from '../../checks/isolation';
import { check } from '../../harness/record/findings';
import { test } from '../../harness/fixtures';
import { findInList } from '../../harness/requests/listing';
import { createOrder, getOrder, orderToRead } from '../../harness/requests/orders';
import { fullOrder } from '../../contract/examples';
import { verifies } from '../../harness/record/verifies';

test.describe('Isolation between accounts (1)', () => {
  test('account B cannot read an order of account A', verifies('ORD-ISO-001'), async ({ api, apiB }) => {
    const created = await orderToRead(api, fullOrder());
    check(otherAccountCannotRead(`account B's get of account A's order ${created.id}`)(await apiB.get(created.id)));
    check(otherAccountCannotList(`account A's order ${created.id}`, 'account B', await findInList(apiB, [created.id]), created.id));
  });

  test('account B cannot change an order of account A', verifies('ORD-ISO-002'), async ({ api, apiB }) => {
    const created = await createOrder(api, fullOrder());
    // Compared with what the server held before, not with what was sent: values it computes stay out of it.
    const before = await getOrder(api, created.id);
    check(otherAccountCannotUpdate(`account B's update of account A's order ${created.id}`)(await apiB.update(created.id, { note: 'written by account B', price: 0.01 })));
    const { exchange } = await getOrder(api, created.id);
    check(unchangedByOtherAccount(`account A's order ${created.id}`, before.body, exchange));
  });

  test('account B cannot delete an order of account A', verifies('ORD-ISO-003'), async ({ api, apiB }) => {
    const created = await createOrder(api, fullOrder());
    check(otherAccountCannotDelete(`account B's delete of account A's order ${created.id}`)(await apiB.delete(created.id)));
    check(remainsAfterOtherAccountsDelete(`account A's order ${created.id}`, created.body.deleted_at, await api.get(created.id)));
  });
});
