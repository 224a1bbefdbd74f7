import { listedAfterCreate } from '../../checks/listing';
import { check } from '../../harness/findings';
import { test } from '../../harness/fixtures';
import { findInList, judgedWhenSettled } from '../../harness/listing';
import { createOrder } from '../../harness/orders';
import { fullOrder } from '../../generators/examples';
import { verifies } from '../../harness/verifies';

/**
 * Section 2.7 on the summary of an order that carries every field, so that each summary field (payment
 * included, which a minimal order lacks) is checked against OrderSummary: the api checks every list
 * page it receives (checks/body.ts), this test makes sure such an order is on one.
 */
test('answers the summary of a fully filled order in the form of section 2.7', verifies('ORD-FORM-002'), async ({ api }) => {
  const created = await createOrder(api, fullOrder());
  check(await judgedWhenSettled(api, () => findInList(api, [created.id]), (search) => listedAfterCreate(created.id, search)));
});
