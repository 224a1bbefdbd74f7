import { execFile } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import { behaviourTarget, DEV_TOKEN_A, filesUnder, PROJECT_ROOT, runCli, temporaryDirectory } from './support/cli';

const exec = promisify(execFile);

// Issue 39: a curl line runs as printed with only what the run was given. A token given as --token-file is
// read again from that file; client credentials sign in again, the secret read from its file; no variable the
// user did not set, no secret printed.

/** The curl lines a failure printed: the terminal's "Reproduce:" lines, and junit.xml's, unescaped. */
function curlLines(stdout: string, report: string): { terminal: string[]; junit: string[] } {
  const reproduce = (text: string) => [...text.matchAll(/^ *Reproduce: +(curl .+)$/gm)].map((match) => match[1]);
  const xml = readFileSync(join(report, 'junit.xml'), 'utf8').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return { terminal: reproduce(stdout), junit: reproduce(xml) };
}

/** Runs a line in bash with no OMS_ variable set, the server's address swapped for a listener's: the headers of each request it received. */
async function requestsOfLine(line: string, serverUrl: string, cwd: string): Promise<IncomingHttpHeaders[]> {
  const received: IncomingHttpHeaders[] = [];
  const listener = createServer((request, response) => {
    received.push(request.headers);
    request.resume();
    // A POST /token gets a token of its own making, as a server would answer it.
    const token = request.url?.endsWith('/token') ? { access_token: 'issued-by-the-listener', token_type: 'Bearer' } : {};
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(token));
  });
  await new Promise<void>((listening) => listener.listen(0, '127.0.0.1', listening));
  try {
    const address = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    await exec('bash', ['-c', line.split(serverUrl).join(address)], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 30_000 });
    return received;
  } finally {
    listener.closeAllConnections();
    await new Promise((closed) => listener.close(closed));
  }
}

test('a run given --token-file prints curl lines that read the token from that file: pasted into bash with no OMS_TOKEN, they send it', async () => {
  test.setTimeout(180_000);
  const target = await behaviourTarget({ OMS_FAULT: 'update-not-persisted' });
  const work = temporaryDirectory('oms-printed-');
  writeFileSync(join(work, "a's.token"), `${DEV_TOKEN_A}\n`);
  try {
    const run = await runCli([...target.args, '--token-file', "a's.token", '--grep', '@ORD-UPDATE-003', '--profile', 'strict', '--out', 'report'], { cwd: work, env: { OMS_FAILURE_STORE: 'off', OMS_LEDGER_DIR: join(work, 'ledger') } });
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const { terminal, junit } = curlLines(run.stdout, join(work, 'report'));
    expect(terminal.length, run.stdout).toBeGreaterThan(0);
    // The terminal shows the first finding of each failure, junit.xml every one: a line of each is run.
    expect(junit).toEqual(expect.arrayContaining(terminal));
    for (const line of [terminal[0], junit.at(-1) as string]) {
      // The path as given, made absolute, one shell word; never the variable the user did not set, never the token.
      expect(line).toContain(`'Authorization: Bearer '"$(cat '${join(work, "a'\\''s.token")}')"`);
      expect(line).not.toContain('OMS_TOKEN');
      expect(line).not.toContain(DEV_TOKEN_A);
      // As printed, against the server: the token was taken (the order itself is gone: the run deletes what it made).
      const { stdout } = await exec('bash', ['-c', line], { cwd: PROJECT_ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 30_000 });
      expect(stdout).toMatch(/^HTTP\/1\.1 404 [^]*No order with id/);
      expect((await requestsOfLine(line, target.server.url, PROJECT_ROOT)).map((headers) => headers.authorization)).toEqual([`Bearer ${DEV_TOKEN_A}`]);
    }
  } finally {
    await target.server.close();
  }
});

test('a run given --client-id and --client-secret-file prints curl lines that sign in with them first: the secret read from its file, never printed', async () => {
  test.setTimeout(180_000);
  const target = await behaviourTarget({ OMS_FAULT: 'update-not-persisted' });
  const work = temporaryDirectory('oms-printed-');
  const [{ client }] = DEVELOPMENT_ACCOUNTS;
  writeFileSync(join(work, 'client.secret'), `${client.secret}\n`);
  try {
    const run = await runCli([...target.args, '--client-id', client.id, '--client-secret-file', 'client.secret', '--grep', '@ORD-UPDATE-003', '--profile', 'strict', '--out', 'report'], { cwd: work, env: { OMS_FAILURE_STORE: 'off', OMS_LEDGER_DIR: join(work, 'ledger') } });
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const { terminal, junit } = curlLines(run.stdout, join(work, 'report'));
    expect(terminal.length, run.stdout).toBeGreaterThan(0);
    // The terminal shows the first finding of each failure, junit.xml every one: a line of each is run.
    expect(junit).toEqual(expect.arrayContaining(terminal));
    for (const line of [terminal[0], junit.at(-1) as string]) {
      expect(line).toContain(`"client_secret=$(cat '${join(work, 'client.secret')}')"`);
      expect(line).not.toContain('OMS_');
      expect(line).not.toContain(client.secret);
      const { stdout } = await exec('bash', ['-c', line], { cwd: PROJECT_ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 30_000 });
      expect(stdout).toMatch(/^HTTP\/1\.1 404 [^]*No order with id/);
      // Against a listener: POST /token with the secret from the file, then the request with the token it answered.
      const requests = await requestsOfLine(line, target.server.url, PROJECT_ROOT);
      expect(requests.map((headers) => headers.authorization)).toEqual([undefined, 'Bearer issued-by-the-listener']);
    }
    expect(filesUnder(join(work, 'report')).filter((file) => readFileSync(file, 'latin1').includes(client.secret))).toEqual([]);
  } finally {
    await target.server.close();
  }
});
