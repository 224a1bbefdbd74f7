import { operationOf } from './micro';
import type { RecordedRequest } from './reference';
import type { SuiteRun } from './suite';
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
