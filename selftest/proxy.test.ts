import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { EXIT_CODE } from '../config/exit-codes';
import { minimalOrder } from '../contract/examples';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import type { TrafficReport } from '../reporter/traffic-report';
import { behavioursFromEnvironment } from './reference/behaviours';
import { BIN, DEV_TOKEN_A, startServer } from './support/cli';
import { clientCalls, endsWithin, isListening, oneOrderSession, rawRequest, startProxy, stopIfRunning, type OrderStep, type StartedProxy } from './support/proxy';

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

const CLIENT = DEVELOPMENT_ACCOUNTS[0].client;

/** Every file the proxy wrote, and what it printed: where no byte of a secret may be. */
function everythingWritten(out: string, run: { stdout: string; stderr: string }): string {
  return [run.stdout, run.stderr, ...readdirSync(out).map((name) => readFileSync(join(out, name), 'utf8'))].join('\n');
}

test("a storefront's client credentials never reach a file or a line: the secret in a form and a JSON body, the tokens it got, masked by where they stand", async () => {
  const server = await startServer([]);
  try {
    const proxy = startProxy(server, ['--requests', '4']);
    const address = await proxy.address;
    // As an app team's client signs in: a form body, then JSON; the proxy was told neither secret nor token.
    const form = await fetch(`${address}/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret }) });
    const { access_token: token } = (await form.json()) as { access_token: string };
    const json = await fetch(`${address}/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret }) });
    const { access_token: second } = (await json.json()) as { access_token: string };
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Cookie: `session=${second}` };
    const order = minimalOrder();
    const created = await fetch(`${address}/orders`, { method: 'POST', headers, body: JSON.stringify(order) });
    await created.text();
    await (await fetch(`${address}/orders?limit=2`, { headers })).text();
    expect([form.status, json.status, created.status]).toEqual([200, 200, 201]);
    const run = await proxy.done;
    expect(run.exitCode, run.stdout + run.stderr).toBe(EXIT_CODE.conformant);
    const written = everythingWritten(proxy.out, run);
    for (const secret of [CLIENT.secret, token, second]) expect(written).not.toContain(secret);
    const har = readFileSync(join(proxy.out, 'traffic.har'), 'utf8');
    expect(har).toContain('client_secret=[masked]');
    expect(har).toContain('\\"client_secret\\":\\"[masked]\\"');
    expect(har).toContain(`client_id=${CLIENT.id}`);
    // An order's phone.code is no credential.
    expect(har).toContain(`\\"code\\":\\"${order.customer.phone?.code ?? ''}`);
  } finally {
    await server.close();
  }
});

/** A port on 127.0.0.1 that nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const holder = await listeningOn(0);
  const { port } = holder.address() as AddressInfo;
  await new Promise((closed) => holder.close(closed));
  return port;
}

function listeningOn(port: number): Promise<Server> {
  return new Promise((resolve) => {
    const holder = createServer();
    holder.listen(port, '127.0.0.1', () => resolve(holder));
  });
}

test('a service that cannot be reached: said at start and at the first failure, failed requests count toward --requests, the summary says none reached it, exit 4', async () => {
  const port = await closedPort();
  const proxy = startProxy({ url: `http://127.0.0.1:${port}` }, ['--requests', '2']);
  const address = await proxy.address;
  const statuses = [];
  for (const path of ['/orders', '/orders/abc']) statuses.push((await fetch(`${address}${path}`, { headers: { Authorization: 'Bearer t' } })).status);
  expect(statuses).toEqual([502, 502]);
  const run = await proxy.done;
  expect(run.exitCode, run.stdout + run.stderr).toBe(EXIT_CODE.serviceUnreachable);
  expect(run.stderr).toContain(`http://127.0.0.1:${port} cannot be reached (ECONNREFUSED)`);
  expect(run.stderr).toContain(`GET /orders got no answer from http://127.0.0.1:${port} (ECONNREFUSED)`);
  expect(run.stderr.match(/got no answer/g)).toHaveLength(1);
  expect(run.stdout).toContain('None of the 2 request(s) reached the service');
  const report = JSON.parse(readFileSync(join(proxy.out, 'traffic-report.json'), 'utf8')) as TrafficReport;
  expect([report.entries, report.unanswered]).toEqual([0, { requests: 2, first: 'ECONNREFUSED' }]);
});

test('a port already in use: the message names it and how to pick another', async () => {
  const holder = await listeningOn(0);
  try {
    const { port } = holder.address() as AddressInfo;
    const proxy = startProxy({ url: 'http://127.0.0.1:9' }, ['--port', String(port)]);
    const run = await proxy.done;
    expect(run.exitCode).toBe(EXIT_CODE.configuration);
    expect(run.stderr).toContain(`--port ${port}: port ${port} on 127.0.0.1 is already in use by another program. Give another port with --port N, or --port 0 to take any free one`);
  } finally {
    await new Promise((closed) => holder.close(closed));
  }
});

test.describe('a proxy ends cleanly however it is stopped, its report written and nothing left listening', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    test(`${signal} to the proxy`, async () => {
      const server = await startServer([]);
      try {
        const proxy = startProxy(server, []);
        const address = await proxy.address;
        expect(await clientCalls(address)).toEqual([200, 201, 200]);
        proxy.signal(signal);
        const run = await proxy.done;
        expect(run.exitCode, run.stdout + run.stderr).toBe(EXIT_CODE.conformant);
        expect(run.stdout).toContain('Written: ');
        expect((JSON.parse(readFileSync(join(proxy.out, 'traffic-report.json'), 'utf8')) as TrafficReport).entries).toBe(3);
        expect(await isListening(address)).toBe(false);
      } finally {
        await server.close();
      }
    });
  }

  test('killed outright (SIGKILL): the HAR and the report on disk hold every exchange it had finished', async () => {
    const server = await startServer([]);
    try {
      const proxy = startProxy(server, []);
      expect(await clientCalls(await proxy.address)).toEqual([200, 201, 200]);
      // The client has its last answer a moment before the proxy has judged it: the exchange in flight.
      await expect.poll(() => (JSON.parse(readFileSync(join(proxy.out, 'traffic-report.json'), 'utf8')) as TrafficReport).entries, { timeout: 5000 }).toBe(3);
      proxy.signal('SIGKILL');
      await proxy.done;
      const har = JSON.parse(readFileSync(join(proxy.out, 'traffic.har'), 'utf8')) as { log: { entries: Array<{ request: { method: string } }> } };
      expect(har.log.entries.map((entry) => entry.request.method)).toEqual(['GET', 'POST', 'GET']);
      const report = JSON.parse(readFileSync(join(proxy.out, 'traffic-report.json'), 'utf8')) as TrafficReport;
      expect([report.entries, report.verdict]).toEqual([3, 'passed']);
    } finally {
      await server.close();
    }
  });

  test('the shell it was started through (as npm starts it) killed: the proxy does not outlive it', async () => {
    const server = await startServer([]);
    let proxy: StartedProxy | undefined;
    try {
      // `sh -c` waits for the proxy, as npm's does; SIGKILL ends the shell alone, which no handler can see.
      proxy = startProxy(server, [], BIN, { command: 'sh', args: ['-c', `"${process.execPath}" "${BIN}" "$@"`, 'sh'] });
      const [address, pid] = await Promise.all([proxy.address, proxy.pid]);
      expect(await clientCalls(address)).toEqual([200, 201, 200]);
      proxy.signal('SIGKILL');
      expect(await endsWithin(pid, 10_000), `the proxy (process ${pid}) still runs`).toBe(true);
      expect(await isListening(address)).toBe(false);
      expect((JSON.parse(readFileSync(join(proxy.out, 'traffic-report.json'), 'utf8')) as TrafficReport).entries).toBe(3);
    } finally {
      // A proxy this test failed to see end is ended here, by its id.
      if (proxy) stopIfRunning(await proxy.pid.catch(() => 0));
      await server.close();
    }
  });
});
