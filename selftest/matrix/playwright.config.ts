import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import type { WorkerOptions } from '../../harness/fixtures';
import { newRunId } from '../../harness/http/ledger';
import { referenceTarget } from '../reference/target';
import { ALL_ROWS, MATRIX_LEDGERS, rowGrep, rowName, rowRunId, rowSettings, rowVariables, selectRows, SLOW_ROWS } from './rows';

const ROOT = join(__dirname, '..', '..');

// Read in the runner and in each worker: the runner fixes the run id and the ledger folder, the workers inherit them.
process.env.OMS_RUN_ID ??= `matrix-${newRunId()}`;
// The rows' ledgers go to the matrix's own folder, whatever the caller's OMS_LEDGER_DIR: the teardown removes it.
process.env.OMS_LEDGER_DIR = MATRIX_LEDGERS;
// Every row runs the whole suite under the strict profile (reporter/conformance-reporter.ts reads it here).
process.env.OMS_PROFILE = 'strict';
// No failure store: the projects test different servers side by side, and one's counterexamples replayed on another
// would make a project's verdict depend on which ran first (and on earlier runs).
process.env.OMS_FAILURE_STORE = 'off';
/**
 * One seed for every row, so a row's verdict is the same run after run (as Hypothesis' derandomize is meant for
 * CI): with a new seed each run, the generated inputs that show a fault's legitimate collateral (two items of one
 * name, an account holding only multi-item orders) turned up in one run of three, and a row failed at random.
 * The suite's own default (the suite version's seed, config/seed.ts) is as fixed, but changes with each release:
 * the matrix keeps a seed of its own, the one its rows are known to hold on, so a version bump changes no row.
 * New inputs are explored by the random points of the conformant space and by OMS_SEED=<another> npm run matrix.
 */
const MATRIX_SEED = '20261125';
process.env.OMS_SEED ??= MATRIX_SEED;

const rows = selectRows(process.env.OMS_MATRIX);

/**
 * The fault and variant matrix in one Playwright run (`npm run matrix`): one project per row, each the whole suite
 * (tests/) or, for most faults, the tests of their requirements (rowGrep), against a reference server with that row's fault or variant, started in each of the project's workers
 * (referenceTarget, the suite's `target` option) with a run id of its own; conformance-reporter.ts builds a
 * conformance report per project and judges each row (selftest/matrix/README.md). OMS_MATRIX selects rows.
 */
export default defineConfig<{}, WorkerOptions>({
  testDir: join(ROOT, 'tests'),
  outputDir: join(ROOT, 'test-results', 'matrix', 'output'),
  fullyParallel: true,
  // The rows that spend their time waiting (latency, Retry-After) hold a worker with little to compute: a third one keeps both cores busy
  // (a fourth made npm test no shorter: 9.5 min against 9.0 to 9.2, the self-tests beside the matrix fill the cores).
  workers: rows.some((row) => SLOW_ROWS.includes(rowName(row))) ? 3 : 2,
  retries: 0,
  timeout: 120_000,
  reporter: [[require.resolve('./conformance-reporter'), { full: rows.length === ALL_ROWS.length }]],
  globalTeardown: require.resolve('./global-teardown'),
  projects: rows.map((row) => ({
    name: rowName(row),
    // One worker, one server: each row's tests meet one store, as a run of the suite against one server does.
    workers: 1,
    grep: rowGrep(row),
    use: { target: referenceTarget(rowVariables(row), rowRunId(row), { settings: rowSettings(row) }), soleWorker: true },
  })),
});
