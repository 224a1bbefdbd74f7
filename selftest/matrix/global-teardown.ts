import { rmSync } from 'node:fs';
import { forgetRun } from '../../harness/record/run-knowledge';
import { forgetQuiet } from '../../harness/requests/quiet';
import { rowRunId, selectRows } from './rows';

/** After the matrix: every row's run files (violations known, quiet turns) and the ledgers, which a passing row leaves empty. */
export default function matrixTeardown(): void {
  for (const row of selectRows(process.env.OMS_MATRIX)) {
    forgetRun(rowRunId(row));
    forgetQuiet(rowRunId(row));
  }
  if (process.env.OMS_LEDGER_DIR) rmSync(process.env.OMS_LEDGER_DIR, { recursive: true, force: true });
}
