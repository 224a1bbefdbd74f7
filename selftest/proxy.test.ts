import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { item, minimalOrder } from '../contract/examples';
import type { RunningReference } from '../reference/server';
import type { TrafficReport } from '../reporter/traffic-report';
import { behavioursFromEnvironment } from './reference/behaviours';
import { BIN, DEV_TOKEN_A, startServer, temporaryDirectory, type CliRun } from './support/cli';

/**
 * `oms-conformance proxy` in front of a reference server, with a client that is not the suite: a few fetch
 * calls, as an app or another team's tests would send them. A fault shows as it happens and in the report
 * of judge at the end; a correct server shows none; the token is masked everywhere; nothing goes to another host.
 */

/** The proxy, started as a user starts it; resolves its address once it prints it. */
function startProxy(server: RunningReference, args: string[]): { address: Promise<string>; done: Promise<CliRun>; out: string } {
  const out = temporaryDirectory('oms-proxy-');
  const child = spawn(process.execPath, [BIN, 'proxy', '--base-url', server.url, '--out', out, ...args], { cwd: out, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const address = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) resolve(match[1]);
    });
    child.on('close', () => reject(new Error(`the proxy ended before it listened: ${stdout}${stderr}`)));
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliRun>((resolve) => child.on('close', (code) => resolve({ exitCode: code ?? -1, stdout, stderr })));
  return { address, done, out };
}

/** An app's few calls: a list, a create with two items (out of name order), and a get of what it created. */
async function clientCalls(address: string): Promise<number[]> {
  const headers = { Authorization: `Bearer ${DEV_TOKEN_A}`, 'Content-Type': 'application/json', Accept: 'application/json' };
  const list = await fetch(`${address}/orders?limit=5`, { headers });
  await list.text();
  const order = minimalOrder({ items: [item({ name: 'Zinc bucket' }), item({ name: 'Apple crate' })], price: 50 });
  const created = await fetch(`${address}/orders`, { method: 'POST', headers, body: JSON.stringify(order) });
  const body = (await created.json()) as { id?: string };
  const got = await fetch(`${address}/orders/${encodeURIComponent(body.id ?? 'none')}`, { headers });
  await got.text();
  return [list.status, created.status, got.status];
}

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

/** Sends raw bytes and returns the raw answer: fetch cannot send a request line in absolute form. */
async function rawRequest(address: string, bytes: string): Promise<string> {
  const { connect } = await import('node:net');
  const { port } = new URL(address);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}
