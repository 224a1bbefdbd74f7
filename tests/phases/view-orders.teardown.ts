import { deleteAccepted } from '../../checks/deletion';
import { test } from '../../harness/fixtures';
import { handedOver, readLedger, runLedger } from '../../harness/http/ledger';
import { check } from '../../harness/record/findings';
import { together } from '../../harness/requests/together';
import { existsSync } from 'node:fs';

// The last step of the list views' phases (config/phases.ts), once every view and every test that runs alone has ended.
// A step of the run, no test of a requirement of its own: its deletes are judged (ORD-DELETE-001) as everywhere.
test('deletes the orders made for the list views', async ({ api }) => {
  const { file } = runLedger();
  const ids = existsSync(file) ? handedOver(readLedger(file)).filter((entry) => entry.account === api.account).map((entry) => entry.orderId) : [];
  api.adopt(ids);
  // What a failed delete leaves, this worker's own cleanup tries again when it stops (and the ledger keeps for `oms-conformance cleanup`).
  for (const exchange of await together(ids.map((id) => api.delete(id)))) check(deleteAccepted(exchange));
});
