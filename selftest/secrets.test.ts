import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import type { Behaviour } from '../reference/app';
import type { ApiReply, ApiRequest } from '../reference/http';
import { filesUnder, listMetaStatusOffByOne, readReport, runCli, startServer, temporaryDirectory } from './support/cli';

// Recognisable secrets: if any of them is in a byte the tool wrote, redaction missed a path.
const TOKEN_A = 'SECRET-TOKEN-A-4f7d2c9e1b';
const TOKEN_B = 'SECRET-TOKEN-B-8a3e6f0d52';
const CLIENT_SECRET = 'SECRET-CLIENT-9c1f4e7a3d';
/** What POST /token answers after the first time: a token the server never accepts. */
const LATE_TOKEN = 'SECRET-LATE-TOKEN-2b8d5f1c7e';
const SECRETS = [TOKEN_A, TOKEN_B, CLIENT_SECRET, LATE_TOKEN];

const ACCOUNTS = [
  { id: DEVELOPMENT_ACCOUNTS[0].id, developmentToken: TOKEN_A, client: { id: 'secrets-client', secret: CLIENT_SECRET } },
  { id: DEVELOPMENT_ACCOUNTS[1].id, developmentToken: TOKEN_B, client: { id: 'secrets-client-b', secret: 'not-used-b' } },
];

/** Faults that put the secrets everywhere evidence goes: request headers, request bodies and response bodies. */
function leakyServer(): Behaviour[] {
  let tokenRequests = 0;
  const tokenEndpoint: Behaviour = {
    name: 'selftest-token-endpoint-echoes-credentials',
    intercept(request: ApiRequest): ApiReply | undefined {
      if (request.path !== '/token' || !request.bodyText.includes(CLIENT_SECRET)) return undefined;
      tokenRequests++;
      if (tokenRequests === 1) return { status: 200, body: { access_token: TOKEN_A, token_type: 'Bearer' } };
      return { status: 200, body: { access_token: LATE_TOKEN, token_type: 'Bearer', echo: request.bodyText } };
    },
  };
  const anyScheme: Behaviour = {
    name: 'selftest-any-scheme-accepted',
    rewriteRequest(request: ApiRequest): ApiRequest {
      const header = String(request.headers.authorization ?? '');
      const token = [TOKEN_A, TOKEN_B].find((t) => header.includes(t));
      return token ? { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } } : request;
    },
  };
  const echo: Behaviour = {
    name: 'selftest-echo-authorization',
    rewriteReply(request: ApiRequest, reply: ApiReply): ApiReply {
      const body = reply.body;
      if (!body || typeof body !== 'object' || Array.isArray(body)) return reply;
      return { ...reply, body: { echo: { authorization: request.headers.authorization ?? null }, ...body } };
    },
  };
  return [tokenEndpoint, anyScheme, echo, listMetaStatusOffByOne];
}

test('no token or client secret appears in any byte the tool writes, even for a failing server', async () => {
  const server = await startServer(leakyServer(), ACCOUNTS);
  const work = temporaryDirectory('oms-secrets-');
  const secrets = temporaryDirectory('oms-secret-files-');
  writeFileSync(join(secrets, 'token'), `${TOKEN_A}\n`);
  writeFileSync(join(secrets, 'client-secret'), CLIENT_SECRET);
  try {
    const run = await runCli(
      [
        '--base-url', server.url,
        '--token-file', join(secrets, 'token'),
        '--client-id', 'secrets-client',
        '--client-secret-file', join(secrets, 'client-secret'),
        '--grep', 'GET /orders refuses|@ORD-AUTH-005|@ORD-GEN-002|@ORD-ISO-001|@ORD-CREATE-001',
        // Generated and model-based tests shrink every failure: slow against this server, and no other evidence path.
        '--grep-invert', 'generated|model-based',
        '--out', 'report',
      ],
      { cwd: work, env: { OMS_TOKEN_B: TOKEN_B } },
    );
    const output = run.stdout + run.stderr;
    expect(run.exitCode, output.slice(-3000)).toBe(1);

    // Every evidence path was taken: curl lines with the token in headers, response bodies echoing it, the console.
    const report = readReport(join(work, 'report'));
    const evidence = (id: string) => report.requirements.find((r) => r.id === id)!.findings;
    // Given client credentials, a curl line signs in with them, the secret read again from its file, never printed.
    expect(evidence('ORD-AUTH-003').map((e) => e.curl).join('\n')).toContain(`'Authorization: Basic '"$(curl -sS -X POST '${server.url}/token'`);
    expect(evidence('ORD-AUTH-003').map((e) => e.curl).join('\n')).toContain(`"client_secret=$(cat '${join(secrets, 'client-secret')}')"`);
    expect(evidence('ORD-GEN-002').map((e) => e.response?.body).join('\n')).toContain('"echo":{"authorization":"Bearer $OMS_TOKEN"}');
    expect(evidence('ORD-AUTH-005').length).toBeGreaterThan(0);
    expect(output).toContain('$OMS_TOKEN');
    const written = filesUnder(work);
    expect(written.some((file) => file.includes('test-results'))).toBe(true);
    expect(written.some((file) => file.includes('.oms-ledger'))).toBe(true);

    const leaks = [
      ...SECRETS.filter((secret) => output.includes(secret)).map((secret) => `console output holds ${secret}`),
      ...written.flatMap((file) => {
        const bytes = readFileSync(file);
        return SECRETS.filter((secret) => bytes.includes(secret)).map((secret) => `${file.slice(work.length + 1)} holds ${secret}`);
      }),
    ];
    expect(leaks).toEqual([]);
  } finally {
    await server.close();
  }
});

test('a one-character token is masked too: no curl line, response excerpt or report file shows "Bearer x"', async () => {
  const SHORT = 'x';
  const accounts = [{ ...ACCOUNTS[0], developmentToken: SHORT }, { ...ACCOUNTS[1], developmentToken: 'yz' }];
  const echo = leakyServer().find((behaviour) => behaviour.name === 'selftest-echo-authorization') as Behaviour;
  const server = await startServer([echo, listMetaStatusOffByOne], accounts);
  const work = temporaryDirectory('oms-short-token-');
  try {
    const run = await runCli(['--base-url', server.url, '--grep', '@ORD-GEN-002(?![\\w-])', '--grep-invert', 'generated|model-based', '--out', 'report'], {
      cwd: work,
      env: { OMS_TOKEN: SHORT, OMS_TOKEN_B: 'yz' },
    });
    const output = run.stdout + run.stderr;
    expect(run.exitCode, output.slice(-3000)).toBe(1);
    const findings = readReport(join(work, 'report')).requirements.find((r) => r.id === 'ORD-GEN-002')!.findings;
    // The evidence paths were taken: the curl line carries the header, the echoed body carries the token.
    expect(findings[0].curl).toContain(`-H 'Authorization: Bearer '"\${OMS_TOKEN}"`);
    expect(findings[0].response?.body).toContain('"echo":{"authorization":"Bearer $OMS_TOKEN"}');
    const shown = /Bearer (x|yz)(?![\w.~+/-])/;
    const leaks = [output, ...filesUnder(work).map((file) => readFileSync(file, 'utf8'))].filter((text) => shown.test(text)).map((text) => shown.exec(text)?.[0]);
    expect(leaks).toEqual([]);
  } finally {
    await server.close();
  }
});
