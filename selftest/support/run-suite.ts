import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leftovers, readLedger } from '../../harness/http/ledger';
import { BEHAVIOUR_VARIABLES } from '../reference/behaviours';
import type { RequirementResult } from '../../reporter/conformance-reporter';
import type { ConformanceReport } from '../../reporter/report';

export const PROJECT_ROOT = join(__dirname, '..', '..');

/** The suite's config with the self-proof's global setup first: the reference server with the behaviours OMS_FAULT, OMS_VARIANT, OMS_HOSTILE and OMS_KNOBS name. */
export const PROOF_CONFIG = join(PROJECT_ROOT, 'selftest', 'reference', 'playwright.config.ts');

/** What a run wrote to report.json. */
export type SuiteReport = ConformanceReport;

export interface SuiteRun {
  exitCode: number;
  output: string;
  reportDir: string;
  report?: SuiteReport;
}

/**
 * Runs the conformance suite as a user would (a child process), with the given environment on top of
 * a clean one: no OMS_* variable of the caller leaks in, and a failure store of its own (unless OMS_FAILURE_STORE is given), so no
 * run replays what another found. OMS_BASE_URL unset means the embedded server; with
 * OMS_FAULT, OMS_VARIANT, OMS_HOSTILE or OMS_KNOBS, the reference server with those behaviours (PROOF_CONFIG).
 */
export function runSuite(env: Record<string, string | undefined>, args: string[] = []): Promise<SuiteRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'oms-run-'));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OMS_') && !name.startsWith('PLAYWRIGHT_') && name !== 'TEST_WORKER_INDEX' && name !== 'TEST_PARALLEL_INDEX'));
  return new Promise((resolve, reject) => {
    // Each run keeps its own config (unless given) and its own output folder: runs side by side never wipe each other's.
    // Behaviours of the reference server are the self-proof's: its config starts that server before the suite's setup.
    const config = BEHAVIOUR_VARIABLES.some((name) => env[name]) ? PROOF_CONFIG : join(PROJECT_ROOT, 'playwright.config.ts');
    const defaults = [
      ...(args.includes('--config') ? [] : ['--config', config]),
      ...(args.includes('--output') ? [] : ['--output', join(reportDir, 'test-results')]),
    ];
    const child = spawn(process.execPath, [require.resolve('@playwright/test/cli'), 'test', ...defaults, ...args], {
      cwd: PROJECT_ROOT,
      env: { ...inherited, CI: '1', OMS_WORKERS: '1', OMS_REPORT_DIR: reportDir, OMS_LEDGER_DIR: join(reportDir, 'ledger'), OMS_FAILURE_STORE: join(reportDir, 'failures'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const file = join(reportDir, 'report.json');
      const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SuiteReport) : undefined;
      resolve({ exitCode: code ?? -1, output, reportDir, report });
    });
  });
}

/** Orders the run created and did not delete, as its ledger records them (a run on a conformant server leaves none). */
export function ordersLeftBehind(run: SuiteRun): number {
  const ledger = join(run.reportDir, 'ledger');
  if (!existsSync(ledger)) return 0;
  return readdirSync(ledger).reduce((sum, file) => sum + leftovers(readLedger(join(ledger, file))).length, 0);
}

/** Ids of the requirements a run failed, with their levels. */
export function failedRequirements(report: SuiteReport | undefined): RequirementResult[] {
  return (report?.requirements ?? []).filter((r) => r.status === 'failed');
}
