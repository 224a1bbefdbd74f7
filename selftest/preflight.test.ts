import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
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
async function expectStopAgainst(status: number, contentType: string, body: string): Promise<void> {
  const standIn = createServer((_req, res) => res.writeHead(status, { 'Content-Type': contentType }).end(body));
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  try {
    const run = await runSuite({ OMS_BASE_URL: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`, OMS_TOKEN: 'any-token-123' });
    expect(run.exitCode).toBe(2);
    expectOneClearMessage(run.output, 'OMS_BASE_URL');
  } finally {
    standIn.close();
  }
}

test('stops with exit code 2 when the base URL answers a page of HTML', async () => {
  await expectStopAgainst(200, 'text/html', '<html>welcome</html>');
});

test('stops with exit code 2 when every path answers 404 (a base URL without its path prefix)', async () => {
  await expectStopAgainst(404, 'application/json', '{"error":"not found"}');
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
