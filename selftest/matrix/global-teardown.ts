import { rmSync } from 'node:fs';
import { forgetRun } from '../../harness/record/run-knowledge';
import { MATRIX_LEDGERS, rowRunId, selectRows } from './rows';

/** After the matrix: every row's run files (violations known) and the ledgers, which a passing row leaves empty. */
export default function matrixTeardown(): void {
  for (const row of selectRows(process.env.OMS_MATRIX)) forgetRun(rowRunId(row));
  rmSync(MATRIX_LEDGERS, { recursive: true, force: true });
}
