import { operationOf } from '../contract/operations';
import { startBenchReference, type RecordedRequest } from './reference';
import { replay } from './replay';
import { cpuMsSince } from './stats';
import { runAgainst, type Effort, type SuiteRun } from './suite';
import type { TestTiming } from './timing-reporter';

/** What one suite run against the bench's server did, from its recording. */
export interface RunProfile {
  wallMs: number;
  exitCode: number;
  /** CPU time of the suite's processes (runner and workers), and of the server meanwhile. */
  suiteCpuMs: number;
  serverCpuMs: number;
  requests: number;
  /** Requests per operation (or "other": unknown paths, 405s). */
  byOperation: Record<string, number>;
  /** 429 and 503 answers (the reference sends none: any here would be a bench problem). */
  rateLimited: number;
  /** Command start to the first request: Playwright start-up, TypeScript transform, global setup. */
  startupMs: number;
  /** First request to the last response: the tests themselves. */
  inRunMs: number;
  /** Last response to exit: worker teardown, reporters. */
  teardownMs: number;
  /** Sum of arrival-to-response times in the server (overlapping requests counted twice). */
  serverMs: number;
  serverMsByOperation: Record<string, number>;
  tests: Record<string, TestTiming>;
}

export function profileRun(run: SuiteRun, recorded: RecordedRequest[], serverCpuMs: number): RunProfile {
  const byOperation: Record<string, number> = {};
  const serverMsByOperation: Record<string, number> = {};
  let first = Infinity;
  let last = -Infinity;
  let serverMs = 0;
  for (const request of recorded) {
    const name = operationOf(request.method, request.url) ?? 'other';
    byOperation[name] = (byOperation[name] ?? 0) + 1;
    serverMsByOperation[name] = (serverMsByOperation[name] ?? 0) + request.serverMs;
    first = Math.min(first, request.arrivedAt);
    last = Math.max(last, request.arrivedAt + request.serverMs);
    serverMs += request.serverMs;
  }
  const end = run.startedAt + run.wallMs;
  const any = recorded.length > 0;
  return {
    wallMs: run.wallMs,
    exitCode: run.exitCode,
    suiteCpuMs: run.cpuMs ?? NaN,
    serverCpuMs,
    requests: recorded.length,
    byOperation,
    rateLimited: recorded.filter((request) => request.status === 429 || request.status === 503).length,
    startupMs: any ? first - run.startedAt : run.wallMs,
    inRunMs: any ? last - first : 0,
    teardownMs: any ? end - last : 0,
    serverMs,
    serverMsByOperation,
    tests: run.tests ?? {},
  };
}

/** One suite run against a fresh server of the bench (account A pre-filled), recorded, then replayed on the same server. */
export async function recordedRun(effort: Effort, accountOrders: number, replayCount: number) {
  const server = await startBenchReference({ prefill: accountOrders });
  try {
    const cpu = process.cpuUsage();
    const run = await runAgainst(server.url, effort);
    const serverCpuMs = cpuMsSince(cpu);
    const recorded = server.take();
    const profile = profileRun(run, recorded, serverCpuMs);
    const replayed = [];
    for (let i = 0; i < replayCount; i++) {
      replayed.push(await replay(server.url, recorded));
      server.take();
    }
    return { run, profile, recorded, replayed };
  } finally {
    await server.close();
  }
}
