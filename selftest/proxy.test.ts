import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { TrafficReport } from '../reporter/traffic-report';
import { behavioursFromEnvironment } from './reference/behaviours';
import { DEV_TOKEN_A, startServer } from './support/cli';
import { clientCalls, oneOrderSession, rawRequest, startProxy, type OrderStep } from './support/proxy';

/**
 * `oms-conformance proxy` in front of a reference server, with a client that is not the suite: a few fetch
 * calls, as an app or another team's tests would send them. A fault shows as it happens and in the report
 * of judge at the end; a correct server shows none; the token is masked everywhere; nothing goes to another host.
 */

test('a fault in traffic that is not the suite\'s shows as it happens, and in the report and HAR written on exit; the token masked', async () => {
  const server = await startServer(behavioursFromEnvironment({ OMS_FAULT: 'create-sorts-items-by-name' }));
  try {
    const proxy = startProxy(server, ['--requests', '3']);
    const statuses = await clientCalls(await proxy.address);
    expect(statuses).toEqual([200, 201, 200]);
    const run = await proxy.done;
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    // Printed live, with the exchange, before the summary of judge.
    const [live] = run.stdout.split('\nJudged ');
    expect(live).toMatch(/FAIL ORD-CREATE-004 .*\n {4}entry 1: POST http:\/\/127\.0\.0\.1:\d+\/orders → 201/);
    expect(run.stdout).toContain('VIOLATIONS FOUND (ORD-CREATE-004, ORD-GET-002)');
    const report = JSON.parse(readFileSync(join(proxy.out, 'traffic-report.json'), 'utf8')) as TrafficReport;
    expect(report.requirements.find((r) => r.id === 'ORD-CREATE-004')?.status).toBe('failed');
    const har = readFileSync(join(proxy.out, 'traffic.har'), 'utf8');
    expect((JSON.parse(har) as { log: { entries: unknown[] } }).log.entries).toHaveLength(3);
    for (const text of [run.stdout, run.stderr, har]) expect(text).not.toContain(DEV_TOKEN_A);
    expect(har).toContain('Bearer $OMS_TOKEN');
  } finally {
    await server.close();
  }
});

test('a correct server, the same calls: no violation, exit 0; an absolute URL is refused, not forwarded', async () => {
  const server = await startServer([]);
  try {
    const proxy = startProxy(server, ['--requests', '3']);
    const address = await proxy.address;
    // A request in absolute form would go wherever the client says: the proxy answers it itself.
    const elsewhere = await rawRequest(address, 'GET http://example.com/orders HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n');
    expect(elsewhere).toMatch(/^HTTP\/1\.1 400 /);
    expect(await clientCalls(address)).toEqual([200, 201, 200]);
    const run = await proxy.done;
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/^(FAIL|WARN) /m);
    expect(run.stdout).toContain('NO VIOLATION SEEN');
    expect(existsSync(join(proxy.out, 'traffic.har'))).toBe(true);
  } finally {
    await server.close();
  }
});

/** A session on one order through the proxy in front of a server with these behaviours; the statuses, the proxy's run and its report. */
async function sessionThroughProxy(variables: Record<string, string>, steps: OrderStep[], args: string[] = []) {
  const server = await startServer(behavioursFromEnvironment(variables));
  try {
    const proxy = startProxy(server, ['--requests', String(steps.filter((step) => step !== 'pause').length + 1), ...args]);
    const statuses = await oneOrderSession(await proxy.address, steps);
    const run = await proxy.done;
    const report = JSON.parse(readFileSync(join(proxy.out, 'traffic-report.json'), 'utf8')) as TrafficReport;
    const requirement = (id: string) => report.requirements.find((r) => r.id === id);
    return { statuses, run, output: run.stdout + run.stderr, requirement };
  } finally {
    await server.close();
  }
}

test('an update the service did not save, then a get of the order: ORD-UPDATE-003 fails at SHOULD, as it happens and in the report', async () => {
  const { statuses, run, output, requirement } = await sessionThroughProxy({ OMS_FAULT: 'update-not-persisted' }, ['update', 'get'], ['--profile', 'strict']);
  expect(statuses).toEqual([201, 200, 200]);
  expect(run.exitCode, output).toBe(1);
  expect(requirement('ORD-UPDATE-003')).toMatchObject({ status: 'failed', level: 'SHOULD', occurrences: 1 });
  expect(run.stdout).toMatch(/FAIL ORD-UPDATE-003 \(SHOULD, §4\.4\).*\n {4}entry 2: GET .*\/orders\/\S+ → 200 [^\n]*\n.*\n.*\n.*at \/note: sent "update 1", got "as created"/);
});

test('a delete answered 200 that left the order, then a get of it: ORD-DELETE-002 fails at SHOULD', async () => {
  const { statuses, output, requirement } = await sessionThroughProxy({ OMS_FAULT: 'delete-no-effect' }, ['delete', 'get']);
  expect(statuses).toEqual([201, 200, 200]);
  expect(requirement('ORD-DELETE-002')).toMatchObject({ status: 'failed', level: 'SHOULD', occurrences: 1 });
  // Core gates MUST only: a SHOULD is a warning there.
  expect(output).toMatch(/WARN ORD-DELETE-002 .*\n {4}entry 2: GET [^\n]* → 200 [^\n]*\n.*404 or 410, or the order with deleted_at set.*\n.*200 with deleted_at null/);
});

test('a correct service, updates then gets, a delete then a get, hard or soft: no violation, each get judged against the last write only', async () => {
  for (const knobs of ['', 'delete-effect=soft-delete']) {
    const { statuses, run, output, requirement } = await sessionThroughProxy({ OMS_KNOBS: knobs }, ['update', 'get', 'update', 'update', 'get', 'delete', 'get'], ['--profile', 'strict']);
    expect([...statuses.slice(0, 6), statuses[7]]).toEqual([201, 200, 200, 200, 200, 200, knobs ? 200 : 404]);
    expect(run.exitCode, output).toBe(0);
    // Two gets after updates, the second after two updates in a row: judged against the last, which it shows.
    expect(requirement('ORD-UPDATE-003')).toMatchObject({ status: 'passed', judgedOn: 2 });
    expect(requirement('ORD-DELETE-002')).toMatchObject({ status: 'passed', judgedOn: 1 });
  }
});

test('a write between an update and the get is not judged as the update: the reason says which sequence the traffic lacks', async () => {
  // Neither the update nor the delete took effect: the get, after the delete, is judged as the delete's, not the update's.
  const { statuses, requirement } = await sessionThroughProxy({ OMS_FAULT: 'update-not-persisted,delete-no-effect' }, ['update', 'delete', 'get']);
  expect(statuses).toEqual([201, 200, 200, 200]);
  expect(requirement('ORD-UPDATE-003')).toMatchObject({ status: 'not-judged', reason: 'no 2xx update followed by a 2xx get of the same order, with no write to it between, in this traffic' });
  expect(requirement('ORD-DELETE-002')?.status).toBe('failed');
});

test('a list read after a delete a get no longer finds is judged on it only once the list settle time has passed', async () => {
  // The list lags 800 ms behind writes (a search index): once it shows the order, a list read at once after the delete still shows it.
  const steps: OrderStep[] = ['pause', 'delete', 'get', 'list'];
  const lagging = { OMS_KNOBS: 'list-lag=index-800ms' };
  const settling = await sessionThroughProxy(lagging, steps);
  expect(settling.requirement('ORD-DELETE-002')).toMatchObject({ status: 'passed', judgedOn: 1 });
  const atOnce = await sessionThroughProxy(lagging, steps, ['--list-settle', '0']);
  expect(atOnce.requirement('ORD-DELETE-002')).toMatchObject({ status: 'failed', judgedOn: 2 });
  expect(atOnce.requirement('ORD-DELETE-002')?.evidence[0]).toMatchObject({ entry: 3, received: expect.stringMatching(/^still listed at position \d+$/) });
});
