import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { TrafficReport } from '../reporter/traffic-report';
import { behavioursFromEnvironment } from './reference/behaviours';
import { DEV_TOKEN_A, startServer } from './support/cli';
import { clientCalls, rawRequest, startProxy } from './support/proxy';

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
