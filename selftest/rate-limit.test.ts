import { spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';
import type { Exchange } from '../contract/exchange';
import { RateLimitedError, RequestGate } from '../harness/http/gate';
import { RunPace } from '../harness/http/pace';
import { behavioursFromEnvironment } from './reference/behaviours';
import { startServer } from './support/cli';
import { runSuite } from './support/run-suite';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';

/** An answer of the status given, as the transport hands it to the gate. */
function answer(status: number, headers: Record<string, string> = {}): Exchange {
  return { request: { method: 'GET', url: 'http://127.0.0.1/orders', path: '/orders', headers: {} }, status, headers, text: '', json: undefined, retries: 0 };
}

let runs = 0;
/** A run id of its own per test: the pace is shared by the workers of one run, through a file keyed by it. */
const runId = () => `selftest-pace-${process.pid}-${++runs}`;

test('a 429 pauses every worker of the run, not only the one that met it', async () => {
  const id = runId();
  const [first, second] = [new RunPace(id, 2), new RunPace(id, 2)];
  const before = Date.now();
  first.noteLimited(400);
  expect(second.current(Date.now()).pausedUntil).toBeGreaterThanOrEqual(before + 400);
  first.forget();
});

test('a request answered 429 is sent again once the pause is over, the retries counted; meanwhile no request of the run starts', async () => {
  const id = runId();
  const limited = new RequestGate({ maxInFlight: 4, pace: new RunPace(id, 2), retryForMs: 10_000 });
  const other = new RequestGate({ maxInFlight: 4, pace: new RunPace(id, 2), retryForMs: 10_000 });
  let attempts = 0;
  const started = Date.now();
  const retried = await limited.send(async () => (++attempts <= 2 ? answer(429, { 'retry-after': '0.3' }) : answer(200)), 'GET /orders');
  expect([retried.status, retried.retries, attempts]).toEqual([200, 2, 3]);
  expect(Date.now() - started).toBeGreaterThanOrEqual(550);
  // The other worker's request, asked for while the first was paused, went out only after the pause.
  const pace = new RunPace(id, 2);
  pace.noteLimited(300);
  const asked = Date.now();
  let sentAt = 0;
  await other.send(async () => ((sentAt = Date.now()), answer(200)), 'GET /orders');
  expect(sentAt - asked).toBeGreaterThanOrEqual(280);
  pace.forget();
});

test('a 429 that lasts longer than its retries may take leaves the request without evidence, and stops the whole run from sending', async () => {
  const id = runId();
  const gate = new RequestGate({ maxInFlight: 4, pace: new RunPace(id), retryForMs: 500 });
  await expect(gate.send(async () => answer(429, { 'retry-after': '0.2' }), 'POST /orders')).rejects.toThrow(RateLimitedError);
  await expect(gate.send(async () => answer(429, { 'retry-after': '0.2' }), 'POST /orders')).rejects.toThrow(/POST \/orders was still rate limited \(429\) after \d+ answers/);
  // Another worker of the run sends nothing more.
  let sent = 0;
  const other = new RequestGate({ maxInFlight: 4, pace: new RunPace(id), retryForMs: 500 });
  await expect(other.send(async () => (sent++, answer(200)), 'GET /orders')).rejects.toThrow(RateLimitedError);
  expect(sent).toBe(0);
  new RunPace(id).forget();
});

test('the rate the server let through before a limit spaces the run\'s requests after it', async () => {
  const id = runId();
  const pace = new RunPace(id);
  const gate = new RequestGate({ maxInFlight: 1, pace, retryForMs: 10_000 });
  // Ten answers, then a limit of 200 ms: ten requests in about the time to the pause's end.
  for (let n = 0; n < 10; n++) await gate.send(async () => answer(200), 'GET /orders');
  let limitedOnce = false;
  await gate.send(async () => (limitedOnce ? answer(200) : ((limitedOnce = true), answer(429, { 'retry-after': '0.2' }))), 'GET /orders');
  const spacing = pace.current(Date.now()).spacingMs;
  expect(spacing).toBeGreaterThanOrEqual(15);
  const times: number[] = [];
  for (let n = 0; n < 3; n++) await gate.send(async () => (times.push(Date.now()), answer(200)), 'GET /orders');
  expect(times[2] - times[0]).toBeGreaterThanOrEqual(2 * spacing * 0.9);
  pace.forget();
});

/** Two processes that keep both cores busy for at most `ms`, stopped by the caller. */
function busyLoops(ms: number): () => void {
  const loops = [0, 1].map(() => spawn(process.execPath, ['-e', `const end = Date.now() + ${ms}; while (Date.now() < end);`], { stdio: 'ignore' }));
  return () => loops.forEach((loop) => loop.kill('SIGKILL'));
}

test('a fixed window per account, met by four workers on a machine two busy loops load: the verdict an unlimited server gets, only later', async () => {
  test.setTimeout(15 * 60_000);
  const server = await startServer(behavioursFromEnvironment({ OMS_KNOBS: 'rate-limit=rate-limit-fixed-window' }));
  const stop = busyLoops(12 * 60_000);
  try {
    const [a, b] = DEVELOPMENT_ACCOUNTS;
    const run = await runSuite({ OMS_BASE_URL: server.url, OMS_CLIENT_ID: a.client.id, OMS_CLIENT_SECRET: a.client.secret, OMS_TOKEN_B: b.developmentToken, OMS_WORKERS: '4', OMS_PROFILE: 'strict', OMS_FAILURE_STORE: 'off' });
    expect([run.exitCode, run.report?.verdict], run.output.slice(-3000)).toEqual([0, 'conformant']);
    expect(run.report?.complete, run.report?.incompleteReasons.join('\n')).toBe(true);
    // The limit was met, and waited out.
    expect(run.report?.rateLimitRetries).toBeGreaterThan(0);
  } finally {
    stop();
    await server.close();
  }
});

test('429 answered forever: the run stops within its retry time, skipped as the server\'s, INCONCLUSIVE (exit 3), never CONFORMANT', async () => {
  test.setTimeout(5 * 60_000);
  const run = await runSuite({ OMS_HOSTILE: 'rate-limited-forever', OMS_REQUEST_TIMEOUT_MS: '1000', OMS_FAILURE_STORE: 'off' });
  expect([run.exitCode, run.report?.verdict], run.output.slice(-3000)).toEqual([3, 'inconclusive']);
  expect(run.report?.requirements.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual([]);
  expect(run.report?.incompleteReasons.join('\n')).toMatch(/rate limited: .* was still rate limited \(429\) after \d+ answers over [\d.]+ s, retried for as long as 4\.0 s allows/);
});
