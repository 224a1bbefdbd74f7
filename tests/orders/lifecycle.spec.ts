import { is2xx } from '../../checks/body';
import { ensure } from '../../harness/findings';
import { test } from '../../harness/fixtures';
import { fullOrder } from '../../generators/examples';
import { verifies } from '../../harness/verifies';

// The whole path in one test: every response on it is validated against openapi.yaml by the api.
test(
  'creates, gets, lists, updates and deletes an order',
  verifies('ORD-CREATE-001', 'ORD-GET-001', 'ORD-LIST-001', 'ORD-UPDATE-001', 'ORD-DELETE-001'),
  async ({ api }) => {
    const created = await api.create(fullOrder());
    ensure(is2xx('ORD-CREATE-001')(created));
    const id = String((created.json as { id: string }).id);

    ensure(is2xx('ORD-GET-001')(await api.get(id)));
    ensure(is2xx('ORD-LIST-001')(await api.list({ limit: 5 })));
    ensure(is2xx('ORD-UPDATE-001')(await api.update(id, { note: 'updated by the lifecycle test' })));
    ensure(is2xx('ORD-DELETE-001')(await api.delete(id)));
  },
);
