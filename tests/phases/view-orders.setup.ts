import { test } from '../../harness/fixtures';
import { ensureOrders, VIEW_ORDERS } from '../../harness/requests/listing';

// The first step of the list views' phases (config/phases.ts): their orders, made while no test of the run reads a view.
// A step of the run, no test of a requirement of its own (no --grep for one selects it): its creates are judged as everywhere.
test('makes the orders the list views read, and waits until the list shows them', async ({ api, settings }) => {
  // Other tests of the run write beside this one: the account is counted as it was before any of them did (the preflight's count).
  await ensureOrders(api, VIEW_ORDERS, settings.ordersAtStart);
  // Not deleted when this worker stops: the views read them in the next phase, and view-orders.teardown.ts deletes them.
  api.handOver();
});
