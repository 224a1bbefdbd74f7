import { deleteAccepted } from '../../checks/deletion';
import { listAccepted } from '../../checks/listing';
import { getAccepted, updateAccepted } from '../../checks/orders';
import { ensure } from '../../harness/record/findings';
import { test } from '../../harness/fixtures';
import { createOrder } from '../../harness/requests/orders';
import { fullOrder } from '../../contract/examples';
import { verifies } from '../../harness/record/verifies';

// The whole path in one test: every response on it is validated against openapi.yaml by the api.
test(
  'creates, gets, lists, updates and deletes an order',
  verifies('ORD-CREATE-001', 'ORD-GET-001', 'ORD-LIST-001', 'ORD-UPDATE-001', 'ORD-DELETE-001'),
  async ({ api }) => {
    // Accepted, and with an id: without one, what follows is blocked by ORD-CREATE-003 and never sent.
    const { id } = await createOrder(api, fullOrder());

    ensure(getAccepted(await api.get(id)));
    ensure(listAccepted(await api.list({ limit: 5 })));
    ensure(updateAccepted(await api.update(id, { note: 'updated by the lifecycle test' })));
    ensure(deleteAccepted(await api.delete(id)));
  },
);
