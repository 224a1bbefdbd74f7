import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { preflight } from '../harness/setup/preflight';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import { createReferenceApp } from '../reference/app';
import { behavioursFromEnvironment } from './reference/behaviours';
import { startReferenceServer } from '../reference/server';
import { runSuite } from './support/run-suite';

function expectOneClearMessage(output: string, variable: string) {
  const lines = output.split('\n').filter((line) => line.startsWith('oms-conformance:'));
  expect(lines, output).toHaveLength(1);
  expect(lines[0]).toContain(variable);
  expect(output).not.toMatch(/✘|failed/);
}

test('stops with exit code 2 and one message naming OMS_BASE_URL when the server cannot be reached', async () => {
  const started = Date.now();
  const run = await runSuite({ OMS_BASE_URL: 'http://127.0.0.1:9', OMS_TOKEN: 'any-token-123' });
  expect(run.exitCode).toBe(2);
  expectOneClearMessage(run.output, 'OMS_BASE_URL');
  expect(Date.now() - started).toBeLessThan(30_000);
});

/** The suite against a stand-in that answers every request with one status, content type and body: it must stop at once, naming OMS_BASE_URL. */
async function expectStopAgainst(status: number, contentType: string, body: string): Promise<string> {
  const standIn = createServer((_req, res) => res.writeHead(status, { 'Content-Type': contentType }).end(body));
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  try {
    const run = await runSuite({ OMS_BASE_URL: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`, OMS_TOKEN: 'any-token-123' });
    expect(run.exitCode).toBe(2);
    expectOneClearMessage(run.output, 'OMS_BASE_URL');
    return run.output;
  } finally {
    standIn.close();
  }
}

test('stops with exit code 2 when the base URL answers a page of HTML', async () => {
  await expectStopAgainst(200, 'text/html', '<html>welcome</html>');
});

test('stops with exit code 2 when every path answers 404 (a base URL without its path prefix), naming the prefix for a JSON 404 too', async () => {
  const output = await expectStopAgainst(404, 'application/json', '{"error":"not found"}');
  expect(output).toContain('There is no /orders at http://127.0.0.1:');
  expect(output).toContain('check OMS_BASE_URL, including any path prefix such as /api/v1.');
});

test('a TLS certificate from a private CA stops the run with a message naming NODE_EXTRA_CA_CERTS, and that variable is the fix', async () => {
  const work = mkdtempSync(join(tmpdir(), 'oms-tls-'));
  const [key, cert] = [join(work, 'key.pem'), join(work, 'cert.pem')];
  // A self-signed certificate for 127.0.0.1: its own CA, as a private CA's certificate is to Node.
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=oms-selftest', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  const app = createReferenceApp();
  const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, app.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  app.start();
  try {
    const env = { OMS_BASE_URL: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, OMS_TOKEN: DEVELOPMENT_ACCOUNTS[0].developmentToken };
    const refused = await runSuite(env, ['--grep', '@ORD-GET-004']);
    expect(refused.exitCode, refused.output).toBe(2);
    expectOneClearMessage(refused.output, 'NODE_EXTRA_CA_CERTS=/path/to/ca.pem');
    expect(refused.output).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(refused.output).not.toContain('that the server is running');
    const trusted = await runSuite({ ...env, NODE_EXTRA_CA_CERTS: cert }, ['--grep', '@ORD-GET-004']);
    expect(trusted.exitCode, trusted.output).toBe(0);
  } finally {
    app.stop();
    server.closeAllConnections();
    server.close();
  }
});

test('runs on, and fails ORD-GEN-001, when the list answers 200 in text/plain: a defect of the interface, not another site', async () => {
  const run = await runSuite({ OMS_FAULT: 'generated-list-2xx-text-plain' }, ['--grep', '@ORD-GEN-001(?![0-9])']);
  expect(run.exitCode, run.output).toBe(1);
  expect(run.output).toContain('oms-conformance: GET /orders?limit=1 answered 200 with "text/plain; charset=utf-8" and a body that is not JSON: the run goes on');
  expect(run.report?.requirements.find((r) => r.id === 'ORD-GEN-001')?.status).toBe('failed');
});

test('stops with exit code 2 and names OMS_TOKEN when the token is rejected, without printing it', async () => {
  const server = await startReferenceServer();
  try {
    const run = await runSuite({ OMS_BASE_URL: server.url, OMS_TOKEN: 'rejected-token-4711' });
    expect(run.exitCode).toBe(2);
    expectOneClearMessage(run.output, 'OMS_TOKEN');
    expect(run.output).not.toContain('rejected-token-4711');
  } finally {
    await server.close();
  }
});

test('stops with exit code 2 when a setting is invalid or missing', async () => {
  for (const [env, variable] of [
    [{ OMS_PROFILE: 'lenient' }, 'OMS_PROFILE'],
    [{ OMS_BASE_URL: 'http://127.0.0.1:9' }, 'OMS_TOKEN'],
    [{ OMS_CLIENT_ID: 'only-the-id' }, 'OMS_CLIENT_SECRET'],
  ] as const) {
    const run = await runSuite(env);
    expect(run.exitCode, run.output).toBe(2);
    expect(run.output).toContain(variable);
  }
});

test.describe('a slow server is slow, not unreachable: the preflight has the run\'s request timeout', () => {
  test('slower than OMS_REQUEST_TIMEOUT_MS: exit 2, one message naming the setting to raise, never "cannot be reached"', async () => {
    const server = await startReferenceServer({ behaviours: behavioursFromEnvironment({ OMS_HOSTILE: 'slow-2500ms' }) });
    try {
      const run = await runSuite({ OMS_BASE_URL: server.url, OMS_TOKEN: DEVELOPMENT_ACCOUNTS[0].developmentToken, OMS_REQUEST_TIMEOUT_MS: '1000' });
      expect(run.exitCode, run.output).toBe(2);
      expectOneClearMessage(run.output, 'OMS_REQUEST_TIMEOUT_MS');
      expect(run.output).toContain(`OMS_BASE_URL=${server.url} accepts connections but did not answer GET /orders?limit=1 within 1000 ms (OMS_REQUEST_TIMEOUT_MS). If the server is only slow, raise OMS_REQUEST_TIMEOUT_MS`);
      expect(run.output).not.toMatch(/cannot be reached|that the server is running/);
    } finally {
      await server.close();
    }
  });

  test('with a timeout it fits in, the same server passes the preflight and the run goes on', async () => {
    const server = await startReferenceServer({ behaviours: behavioursFromEnvironment({ OMS_HOSTILE: 'slow-2500ms' }) });
    try {
      const run = await runSuite({ OMS_BASE_URL: server.url, OMS_TOKEN: DEVELOPMENT_ACCOUNTS[0].developmentToken, OMS_REQUEST_TIMEOUT_MS: '6000' }, ['--grep', 'answers 404 or 410 for an unknown id']);
      expect(run.exitCode, run.output.slice(-2000)).toBe(0);
      expect(run.report?.requirements.find((r) => r.id === 'ORD-GET-004')?.status).toBe('passed');
    } finally {
      await server.close();
    }
  });

  test('the preflight waits as long as the setting says, past the 10 s it used to stop at', async () => {
    const late = createServer((_request, response) => void setTimeout(() => response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"success":true,"meta":{"status":200},"data":[]}'), 10_500));
    await new Promise<void>((resolve) => late.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(late.address() as AddressInfo).port}`;
      await expect(preflight(url, 'any-token-123', 'A', 12_000, 1024 * 1024)).resolves.toBeUndefined();
    } finally {
      late.closeAllConnections();
      late.close();
    }
  });

  test('nothing listening: "cannot be reached", naming OMS_BASE_URL', async () => {
    await expect(preflight('http://127.0.0.1:9', 'any-token-123', 'A', 2000, 1024 * 1024)).rejects.toThrow(/OMS_BASE_URL=http:\/\/127\.0\.0\.1:9 cannot be reached \(.*\)\. Check OMS_BASE_URL and that the server is running\./);
  });
});
