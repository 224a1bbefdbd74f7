import type { ConformanceReport } from '../reporter/report';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import type { WallTimes } from './stats';
import { runBounded } from './processes';
import { median, nowMs, round } from './stats';
import type { TestTiming } from './timing-reporter';
import { BEHAVIOUR_VARIABLES } from '../selftest/reference/behaviours';
import { ledgerFile, ledgerRuns, readLedger } from '../harness/http/ledger';

export const PROJECT_ROOT = join(__dirname, '..');
const PLAYWRIGHT_CLI = require.resolve('@playwright/test/cli');
/** No suite run may take longer than this (the thorough target is 3 minutes). */
const RUN_TIME_LIMIT_MS = 10 * 60_000;

export type Effort = 'quick' | 'thorough';

export interface SuiteRun {
  /** When the command started, on the bench's clock (stats.nowMs). */
  startedAt: number;
  /** The same moment as a date (epoch ms), to set beside the tests' own times (TestTiming). */
  startedAtEpochMs: number;
  /** Command start to exit. */
  wallMs: number;
  /** CPU time (user + system) of the command and every process it started; undefined off Linux. */
  cpuMs?: number;
  /** The most resident memory the command and every process it started held at once; undefined off Linux. */
  peakRssBytes?: number;
  exitCode: number;
  /** Per test ("file › describe › title"): duration and step counts, when the run was timed per test. */
  tests?: Record<string, TestTiming>;
  /** The end of the output, to show when a run did not pass. */
  outputTail: string;
  /** What the run printed to the terminal (stdout and stderr): lines and bytes. */
  outputLines: number;
  outputBytes: number;
  /** Tests the run reported (Playwright's summary line); a run of none measures nothing. */
  testsRun: number;
  /** The verdict of its report.json; undefined when it wrote none. */
  verdict?: ConformanceReport['verdict'];
  /** Requests its tests sent (report.json), and orders it created (its ledger's created entries); undefined without a report or a ledger. */
  requests?: number;
  ordersCreated?: number;
}

/**
 * `npm run conformance` as a user types it, against the embedded reference server (started by the
 * suite's global setup, so its start-up is in the time).
 */
export function runEmbedded(effort: Effort, args: string[] = [], env: Record<string, string> = {}): Promise<SuiteRun> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // A faulty or slow reference server (OMS_FAULT, OMS_KNOBS …) is the self-proof's: npm run proof:conformance starts it.
  const script = BEHAVIOUR_VARIABLES.some((name) => env[name]) ? 'proof:conformance' : 'conformance';
  return timedRun(npm, ['run', '--silent', script, '--', ...args], { OMS_EFFORT: effort, ...env }, false);
}

/**
 * `npm run conformance` as a user types it against a server elsewhere (OMS_BASE_URL): account A with client
 * credentials (POST /token), account B with its development token, as a developer points it at staging.
 */
export function runRemote(baseUrl: string, effort: Effort, env: Record<string, string> = {}): Promise<SuiteRun> {
  const [a, b] = DEVELOPMENT_ACCOUNTS;
  // Account A signs in through POST /token, as a user with client credentials runs it (the token endpoint is then judged too).
  return runEmbedded(effort, [], { OMS_BASE_URL: baseUrl, OMS_CLIENT_ID: a.client.id, OMS_CLIENT_SECRET: a.client.secret, OMS_TOKEN_B: b.developmentToken, ...env });
}

/** The run's fixed costs: the same command selecting one cheap test (start-up, one worker, reports). */
export const ONE_TEST = ['--grep', '@ORD-GET-004'];

/**
 * The same suite against a server the bench started (so it can count and record the requests), with
 * the bench's timing reporter added (bench/timed.config.ts). Account A signs in through POST /token and
 * B uses its development token, exactly as the embedded set-up does.
 */
export function runAgainst(baseUrl: string, effort: Effort, nodeOptions: string[] = [], checkout = PROJECT_ROOT): Promise<SuiteRun> {
  const [a, b] = DEVELOPMENT_ACCOUNTS;
  const env = { OMS_EFFORT: effort, OMS_BASE_URL: baseUrl, OMS_CLIENT_ID: a.client.id, OMS_CLIENT_SECRET: a.client.secret, OMS_TOKEN_B: b.developmentToken };
  if (checkout === PROJECT_ROOT) return timedRun(process.execPath, [...nodeOptions, PLAYWRIGHT_CLI, 'test', '--config', join(__dirname, 'timed.config.ts')], env, true);
  // Another checkout (the commit measured beside this one): its own Playwright and configuration, with this bench's timing reporter added.
  const config = join(checkout, 'bench', `.bench-timed-${process.pid}.config.ts`);
  writeFileSync(
    config,
    `import { join } from 'node:path';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import suite from '../playwright.config';
` +
      `export default defineConfig({ ...suite, testDir: join(__dirname, '..', 'tests'), reporter: [...(suite.reporter as ReporterDescription[]), [${JSON.stringify(require.resolve('./timing-reporter'))}]] });
`,
  );
  const cli = require.resolve('@playwright/test/cli', { paths: [checkout] });
  return timedRun(process.execPath, [...nodeOptions, cli, 'test', '--config', config], env, true, checkout).finally(() => rmSync(config, { force: true }));
}

async function timedRun(command: string, args: string[], env: Record<string, string>, perTest: boolean, cwd = PROJECT_ROOT): Promise<SuiteRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'oms-bench-'));
  const timingsFile = join(scratch, 'timings.json');
  const cpuBefore = childrenCpuMs();
  const started = nowMs();
  const startedAtEpochMs = Date.now();
  const { exitCode, output, outputLines, outputBytes, peakRssBytes } = await runBounded(command, [...args, '--output', join(scratch, 'test-results')], {
    cwd,
    // A failure store of its own: a measured run replays nothing another run found.
    env: { CI: '1', OMS_REPORT_DIR: join(scratch, 'report'), OMS_LEDGER_DIR: join(scratch, 'ledger'), OMS_FAILURE_STORE: join(scratch, 'failures'), BENCH_TIMINGS_FILE: timingsFile, ...env },
    timeLimitMs: RUN_TIME_LIMIT_MS,
  });
  const wallMs = nowMs() - started;
  const cpuAfter = childrenCpuMs();
  const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  const tests = perTest && existsSync(timingsFile) ? readTimings(timingsFile) : undefined;
  const { testsRun, verdict, requests } = readReport(join(scratch, 'report', 'report.json'));
  const ordersCreated = ordersInLedger(join(scratch, 'ledger'));
  rmSync(scratch, { recursive: true, force: true });
  return { startedAt: started, startedAtEpochMs, wallMs, cpuMs, peakRssBytes, exitCode, tests, outputTail: output, outputLines, outputBytes, testsRun, verdict, requests, ordersCreated };
}

/** The orders a run created, as its ledger records them (harness/http/ledger.ts: one created entry per order); undefined when it kept none. */
function ordersInLedger(directory: string): number | undefined {
  if (!existsSync(directory)) return undefined;
  return ledgerRuns(directory).reduce((sum, run) => sum + readLedger(ledgerFile(directory, run)).filter((entry) => entry.event === 'created').length, 0);
}

/**
 * CPU time of this process's finished children and everything they waited for (cutime + cstime of
 * /proc/self/stat, in clock ticks of 10 ms): unlike wall time, it hardly moves when others load the machine.
 */
function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

/** The tests a run ran, as its report.json counts them, its verdict and the requests its tests sent (0 and none when it wrote no report). */
function readReport(file: string): { testsRun: number; verdict?: ConformanceReport['verdict']; requests?: number } {
  if (!existsSync(file)) return { testsRun: 0 };
  const { tests, verdict, requests } = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
  return { testsRun: tests.passed + tests.failed + tests.skipped, verdict, requests };
}

function readTimings(file: string): Record<string, TestTiming> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, TestTiming>;
}

/** The median of the runs' memory peaks, in MiB; null off Linux or without runs. */
export function medianPeakMiB(runs: Array<{ peakRssBytes?: number }>): number | null {
  const peaks = runs.flatMap((r) => (r.peakRssBytes === undefined ? [] : [r.peakRssBytes]));
  return peaks.length ? Math.round(median(peaks) / 2 ** 20) : null;
}

/** The median of the values the runs have, or null when none has one. */
function medianOf(values: Array<number | undefined>): number | null {
  const known = values.flatMap((value) => (value === undefined ? [] : [value]));
  return known.length ? median(known) : null;
}

/** Wall and CPU time, memory peak, requests and orders created of repeated runs, as medians. */
export function wallTimes(runs: SuiteRun[]): WallTimes {
  const cpu = runs.flatMap((r) => (r.cpuMs === undefined ? [] : [r.cpuMs]));
  return {
    runs: runs.length,
    wallMs: runs.map((r) => round(r.wallMs)),
    medianMs: runs.length ? round(median(runs.map((r) => r.wallMs))) : null,
    medianCpuMs: cpu.length ? round(median(cpu)) : null,
    medianPeakMiB: medianPeakMiB(runs),
    exitCodes: runs.map((r) => r.exitCode),
    medianRequests: medianOf(runs.map((r) => r.requests)),
    medianOrdersCreated: medianOf(runs.map((r) => r.ordersCreated)),
  };
}
