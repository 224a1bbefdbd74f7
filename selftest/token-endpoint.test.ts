import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from '@playwright/test';
import { fetchToken, TokenSource, type ClientCredentials, type IssuedToken } from '../harness/http/token';
import type { TokenAuth } from '../config/token-auth';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import type { Behaviour } from '../reference/app';
import { operationOf } from './reference/faults/kit';
import { issueToken } from '../reference/routes/token';
import { VARIANTS } from './reference/variants';
import { readReport, requestLog, runCli, schemaProblems, startServer, temporaryDirectory } from './support/cli';

const [A, B] = DEVELOPMENT_ACCOUNTS;
const credentialsA: ClientCredentials = { clientId: A.client.id, clientSecret: A.client.secret, placeholder: '$OMS_TOKEN', variables: 'OMS_CLIENT_ID and OMS_CLIENT_SECRET' };

/** A token endpoint that takes the credentials only one way. */
function tokenEndpointTaking(format: TokenAuth): Behaviour {
  return {
    name: `selftest-token-${format}-only`,
    intercept: (request, { accounts }) =>
      operationOf(request).operation === 'token' ? issueToken(request, accounts, { accepts: [format], lifetimeSeconds: 60 }) : undefined,
  };
}

test.describe('POST /token as real token endpoints take it', () => {
  for (const format of ['form', 'json', 'basic'] as const) {
    test(`without --token-auth, a server that takes only ${format} credentials gives a token, and says ${format} worked`, async () => {
      const server = await startServer([tokenEndpointTaking(format)]);
      try {
        const issued = await fetchToken(server.url, credentialsA, undefined, 5_000);
        expect([issued.auth, issued.lifetimeMs]).toEqual([format, 60_000]);
        expect(server.app.accounts.accountFor(issued.accessToken)?.id).toBe(A.id);
      } finally {
        await server.close();
      }
    });
  }

  test('with --token-auth json, a form-only server refuses, and the message names the way tried and what to fix, without the secret', async () => {
    const server = await startServer([tokenEndpointTaking('form')]);
    try {
      const error = await fetchToken(server.url, credentialsA, 'json', 5_000).then(() => undefined, (e: Error) => e);
      expect(error?.message).toContain('with OMS_TOKEN_AUTH=json: json: status 400');
      expect(error?.message).toContain('Check OMS_CLIENT_ID and OMS_CLIENT_SECRET, or OMS_TOKEN_AUTH');
      expect(error?.message).not.toContain(A.client.secret);
    } finally {
      await server.close();
    }
  });

  test('a token source renews shortly before expiry, shares one renewal between callers, and renews a refused token once', async () => {
    let issuedCount = 0;
    const source = new TokenSource(async (): Promise<IssuedToken> => {
      issuedCount++;
      await sleep(20);
      return { accessToken: `token-${issuedCount}`, auth: 'form', lifetimeMs: 400, expiresAt: Date.now() + 400 };
    });
    expect(await Promise.all([source.current(), source.current(), source.current()])).toEqual(['token-1', 'token-1', 'token-1']);
    expect(await source.current()).toBe('token-1');
    // A quarter of the lifetime before expiry the next caller gets a new one.
    await sleep(320);
    expect(await source.current()).toBe('token-2');
    // Two requests refused with the same token: one renewal serves both.
    const [first, second] = await Promise.all([source.renew('token-2'), source.renew('token-2')]);
    expect([first.accessToken, second.accessToken, issuedCount]).toEqual(['token-3', 'token-3', 3]);
    // Seeded with the global setup's token: used as is until refused, then replaced.
    const seeded = new TokenSource(async () => ({ accessToken: 'fetched', auth: 'form' }), 'from-global-setup');
    expect(await seeded.current()).toBe('from-global-setup');
    expect([(await seeded.renew('from-global-setup')).accessToken, await seeded.current()]).toEqual(['fetched', 'fetched']);
  });
});

test.describe('a run far longer than the token lifetime', () => {
  test.setTimeout(15 * 60_000);

  test('a form-only token endpoint with 1-second tokens passes both profiles, both accounts signing in with client credentials', async () => {
    const variant = VARIANTS.find((v) => v.name === 'oauth-form-1s-tokens');
    const log = requestLog();
    const server = await startServer([log, variant!.behaviour()]);
    try {
      for (const profile of ['core', 'strict']) {
        const work = temporaryDirectory();
        const started = Date.now();
        const before = log.requests.length;
        const run = await runCli(
          ['--base-url', server.url, '--profile', profile, '--out', 'report', '--client-id', A.client.id, '--client-id-b', B.client.id],
          { cwd: work, env: { OMS_CLIENT_SECRET: A.client.secret, OMS_CLIENT_SECRET_B: B.client.secret } },
        );
        const seconds = (Date.now() - started) / 1000;
        const report = readReport(join(work, 'report'));
        const failed = report.requirements.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.evidence[0] ?? ''}`);
        expect(failed, run.stdout.slice(-3000)).toEqual([]);
        expect([run.exitCode, report.verdict, report.unattributedFailures]).toEqual([0, 'conformant', []]);
        expect(report.target.tokenAuth).toBe('form');
        expect(schemaProblems(report)).toEqual([]);
        // Account B's checks ran with its own token: isolation was tested, not skipped.
        expect(report.requirements.filter((r) => r.id.startsWith('ORD-ISO-')).map((r) => r.status)).toEqual(['passed', 'passed', 'passed']);
        const tokenRequests = log.requests.slice(before).filter((r) => r === 'POST /token').length;
        // Measured: 5 to 47 s a run here, so even the fastest run outlasts several 1-second lifetimes and tokens had to be renewed.
        expect(seconds, 'the run must outlast three token lifetimes to prove renewal: if the suite got this fast, shorten lifetimeSeconds of the oauth-form-1s-tokens variant').toBeGreaterThan(3);
        // New tokens were fetched as the old ones aged, not once per run: at least one per two lifetimes.
        expect(tokenRequests).toBeGreaterThan(seconds / 2);
        test.info().annotations.push({ type: 'measured', description: `${profile}: ${seconds.toFixed(0)} s, ${tokenRequests} POST /token` });
      }
    } finally {
      await server.close();
    }
  });

  test('an unknown --token-auth: exit 2, one line naming the flag, nothing written', async () => {
    const work = temporaryDirectory();
    const run = await runCli(['--token-auth', 'oauth', '--out', 'report'], { cwd: work });
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim()).toBe('oms-conformance: --token-auth (OMS_TOKEN_AUTH) must be one of form, json, basic, got "oauth"');
    expect(existsSync(join(work, 'report'))).toBe(false);
  });
});
