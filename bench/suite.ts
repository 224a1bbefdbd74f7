import type { ConformanceReport } from '../reporter/report';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import type { WallTimes } from './results';
import { median, nowMs, round } from './stats';
import type { TestTiming } from './timing-reporter';

export const PROJECT_ROOT = join(__dirname, '..');
const PLAYWRIGHT_CLI = require.resolve('@playwright/test/cli');
/** No suite run may take longer than this (the thorough target is 3 minutes). */
const RUN_TIME_LIMIT_MS = 10 * 60_000;

export type Effort = 'quick' | 'thorough';

export interface SuiteRun {
  /** When the command started, on the bench's clock (stats.nowMs). */
  startedAt: number;
  /** Command start to exit. */
  wallMs: number;
  /** CPU time (user + system) of the command and every process it started; undefined off Linux. */
  cpuMs?: number;
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
}

/**
 * `npm run conformance` as a user types it, against the embedded reference server (started by the
 * suite's global setup, so its start-up is in the time).
 */
export function runEmbedded(effort: Effort, args: string[] = [], env: Record<string, string> = {}): Promise<SuiteRun> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return timedRun(npm, ['run', '--silent', 'conformance', '--', ...args], { OMS_EFFORT: effort, ...env }, false);
}

/** The run's fixed costs: the same command selecting one cheap test (start-up, one worker, reports). */
export const ONE_TEST = ['--grep', '@ORD-GET-004'];

/**
 * The same suite against a server the bench started (so it can count and record the requests), with
 * the bench's timing reporter added (bench/timed.config.ts). Account A signs in through POST /token and
 * B uses its development token, exactly as the embedded set-up does.
 */
export function runAgainst(baseUrl: string, effort: Effort, nodeOptions: string[] = []): Promise<SuiteRun> {
  const [a, b] = DEVELOPMENT_ACCOUNTS;
  const env = { OMS_EFFORT: effort, OMS_BASE_URL: baseUrl, OMS_CLIENT_ID: a.client.id, OMS_CLIENT_SECRET: a.client.secret, OMS_TOKEN_B: b.developmentToken };
  return timedRun(process.execPath, [...nodeOptions, PLAYWRIGHT_CLI, 'test', '--config', join(__dirname, 'timed.config.ts')], env, true);
}

async function timedRun(command: string, args: string[], env: Record<string, string>, perTest: boolean): Promise<SuiteRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'oms-bench-'));
  const timingsFile = join(scratch, 'timings.json');
  // A clean environment (no OMS_* of the caller), private output, report and ledger directories: other runs in the tree are untouched.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(OMS_|PLAYWRIGHT_|TEST_)/.test(name)));
  const cpuBefore = childrenCpuMs();
  const started = nowMs();
  let outputLines = 0;
  let outputBytes = 0;
  const { exitCode, output } = await new Promise<{ exitCode: number; output: string }>((resolve, reject) => {
    const child = spawn(command, [...args, '--output', join(scratch, 'test-results')], {
      cwd: PROJECT_ROOT,
      env: { ...inherited, CI: '1', OMS_REPORT_DIR: join(scratch, 'report'), OMS_LEDGER_DIR: join(scratch, 'ledger'), BENCH_TIMINGS_FILE: timingsFile, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a run that overstays is stopped with everything it started.
      detached: true,
    });
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, RUN_TIME_LIMIT_MS);
    let text = '';
    const keep = (chunk: Buffer) => {
      outputBytes += chunk.length;
      for (const byte of chunk) if (byte === 10) outputLines++;
      text = (text + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? -1, output: text });
    });
  });
  const wallMs = nowMs() - started;
  const cpuAfter = childrenCpuMs();
  const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  const tests = perTest && existsSync(timingsFile) ? readTimings(timingsFile) : undefined;
  const testsRun = testsInReport(join(scratch, 'report', 'report.json'));
  rmSync(scratch, { recursive: true, force: true });
  return { startedAt: started, wallMs, cpuMs, exitCode, tests, outputTail: output, outputLines, outputBytes, testsRun };
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

/** The tests a run ran, as its report.json counts them (0 when it wrote no report). */
function testsInReport(file: string): number {
  if (!existsSync(file)) return 0;
  const { tests } = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
  return tests.passed + tests.failed + tests.skipped;
}

function readTimings(file: string): Record<string, TestTiming> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, TestTiming>;
}

/** Wall and CPU time of repeated runs, as medians. */
export function wallTimes(runs: SuiteRun[]): WallTimes {
  const cpu = runs.flatMap((r) => (r.cpuMs === undefined ? [] : [r.cpuMs]));
  return {
    runs: runs.length,
    wallMs: runs.map((r) => round(r.wallMs)),
    medianMs: runs.length ? round(median(runs.map((r) => r.wallMs))) : null,
    medianCpuMs: cpu.length ? round(median(cpu)) : null,
    exitCodes: runs.map((r) => r.exitCode),
  };
}
