import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Exchange } from '../contract/exchange';
import { fullOrder } from '../contract/examples';
import { Ledger, ledgerFile, markerOf } from '../harness/http/ledger';
import { measureRoundTrip } from '../harness/http/round-trip';
import { fetchToken } from '../harness/http/token';
import { cleanedUp, judgeOutsideTests, noteCleanedUp, outsideTestsFile, takeOutsideFindings } from '../harness/record/outside-tests';
import { preflight } from '../harness/setup/preflight';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import { DEV_TOKEN_A, runCli, startServerProcess, temporaryDirectory } from './support/cli';

// Issue 28, item 5: an exchange no test made (the cleanup's deletes, the preflight, a token renewal) is held to
// what every response must be, and what it broke reaches the report under where it was met.

const deleteAnswer = (contentType: string, text: string): Exchange => ({
  operationId: 'deleteOrder',
  request: { method: 'DELETE', url: 'http://127.0.0.1/orders/a', path: '/orders/a', headers: {} },
  status: 200,
  headers: { 'content-type': contentType },
  text,
  json: contentType.includes('json') ? JSON.parse(text) : undefined,
  retries: 0,
});

test('a violation outside any test is kept for the report under where it was met, once; a conformant answer leaves nothing', () => {
  const runId = `outside-${process.pid}-${Date.now()}`;
  judgeOutsideTests("the worker's cleanup", deleteAnswer('application/json', '{"success":true,"message":"Order deleted"}'), runId);
  expect(existsSync(outsideTestsFile(runId))).toBe(false);
  judgeOutsideTests("the worker's cleanup", deleteAnswer('text/html', '<p>Order archived.</p>'), runId);
  const found = takeOutsideFindings(runId);
  expect(found.map(({ where, record }) => [where, record.requirementId, record.response?.status])).toEqual([["the worker's cleanup", 'ORD-GEN-001', 200]]);
  expect(takeOutsideFindings(runId)).toEqual([]);
});

test("a project's end waits for its worker's cleanup, and no longer than it is told", async () => {
  const runId = `outside-cleanup-${process.pid}-${Date.now()}`;
  expect(await cleanedUp(runId, 100)).toBe(false);
  noteCleanedUp(runId);
  expect(await cleanedUp(runId, 100)).toBe(true);
});

// Issue 38, item 4: every exchange outside the tests decoded by its Content-Encoding as the tests' own transport decodes
// theirs, before anything is judged or parsed.
test("against a server that gzips every answer whatever Accept-Encoding says, the probe, the sign-in, the preflight and the cleanup read it as the tests do", async () => {
  // In a process of its own, as a server across a network is.
  const server = await startServerProcess({ OMS_KNOBS: 'content-coding=gzip-always' });
  const runId = `outside-gzip-${process.pid}-${Date.now()}`;
  const [a] = DEVELOPMENT_ACCOUNTS;
  try {
    // The round-trip probe (raw bytes, decoded as the transport decodes them): its 401s judged as the JSON envelopes they are.
    const probed: Exchange[] = [];
    expect(await measureRoundTrip(server.url, (exchange) => probed.push(exchange))).toBeGreaterThanOrEqual(0);
    expect(probed.map((exchange) => [exchange.status, exchange.headers['content-encoding'], (exchange.json as { meta?: { status?: unknown } } | undefined)?.meta?.status])).toEqual([
      [401, 'gzip', 401],
      [401, 'gzip', 401],
    ]);
    for (const exchange of probed) judgeOutsideTests('the round-trip probe', exchange, runId);
    // The sign-in: a gzipped token answer read for its token.
    const signIns: Exchange[] = [];
    const credentials = { clientId: a.client.id, clientSecret: a.client.secret, placeholder: '$OMS_TOKEN', variables: 'OMS_CLIENT_ID and OMS_CLIENT_SECRET' };
    const issued = await fetchToken(server.url, credentials, undefined, 5_000, (exchange) => {
      signIns.push(exchange);
      judgeOutsideTests('the sign-in', exchange, runId);
    });
    expect(issued.accessToken.length).toBeGreaterThan(0);
    expect(signIns.map((exchange) => exchange.headers['content-encoding'])).toContain('gzip');
    // The preflight: the gzipped list read as the list, with nothing to say.
    expect(await preflight(server.url, issued.accessToken, 'A', 5_000, 1024 * 1024, runId)).toBeUndefined();
    expect(takeOutsideFindings(runId).map(({ where, record }) => `${where}: ${record.requirementId} ${record.expected} / ${record.received}`)).toEqual([]);

    // The cleanup: a create that got no answer is found in the gzipped list by its marker, and deleted.
    const body = fullOrder();
    const made = await fetch(`${server.url}/orders`, { method: 'POST', headers: { Authorization: `Bearer ${DEV_TOKEN_A}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const { id } = (await made.json()) as { id: string };
    const work = temporaryDirectory();
    new Ledger(ledgerFile(join(work, '.oms-ledger'), 'gzip-run'), 'gzip-run', server.url).creating('A', markerOf(body));
    const cleanup = await runCli(['cleanup', '--run-id', 'gzip-run', '--base-url', server.url], { cwd: work, env: { OMS_TOKEN: DEV_TOKEN_A } });
    expect(cleanup.exitCode, cleanup.stdout + cleanup.stderr).toBe(0);
    expect(cleanup.stdout).toContain('1 of 1 order(s) gone');
    expect((await fetch(`${server.url}/orders/${id}`, { headers: { Authorization: `Bearer ${DEV_TOKEN_A}` } })).status).toBe(404);
  } finally {
    await server.close();
  }
});
