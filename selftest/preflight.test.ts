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

test('stops with exit code 2 when the base URL answers something other than JSON', async () => {
  const html = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>welcome</html>'));
  await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
  try {
    const run = await runSuite({ OMS_BASE_URL: `http://127.0.0.1:${(html.address() as AddressInfo).port}`, OMS_TOKEN: 'any-token-123' });
    expect(run.exitCode).toBe(2);
    expectOneClearMessage(run.output, 'OMS_BASE_URL');
  } finally {
    html.close();
  }
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
