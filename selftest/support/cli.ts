import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LaunchOptions } from '@playwright/test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { AccountRegistry, DEVELOPMENT_ACCOUNTS, type Account } from '../../reference/accounts';
import type { Behaviour } from '../../reference/app';
import type { ApiReply, ApiRequest } from '../../reference/http';
import { startReferenceServer, type RunningReference } from '../../reference/server';
import type { ConformanceReport } from '../../reporter/report';
import { behavioursFromEnvironment } from '../reference/behaviours';

export const PROJECT_ROOT = join(__dirname, '..', '..');
export const BIN = join(PROJECT_ROOT, 'cli', 'oms-conformance.js');
export const DEV_TOKEN_A = DEVELOPMENT_ACCOUNTS[0].developmentToken;

/** Debian's chromium (installed by .ci/run), never a Playwright download. */
export const CHROMIUM: LaunchOptions = {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `oms-conformance` (this checkout's, or bin) as a user would, in cwd (a temporary directory by
 * default), with env on top of a clean environment: no OMS_*, Playwright or job-summary variable of the caller leaks in.
 */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  return startCli(args, options, false).done;
}

export interface CliOptions {
  env?: Record<string, string>;
  cwd?: string;
  bin?: string;
}

/**
 * The command started as runCli starts it, in a process group of its own, as a shell starts a job: `signal`
 * reaches the command, Playwright's runner and its workers at once, as Ctrl-C (SIGINT) or a kill does.
 */
export function spawnCli(args: string[], options: CliOptions = {}): { done: Promise<CliRun>; signal(name: NodeJS.Signals): void } {
  return startCli(args, options, true);
}

function startCli(args: string[], options: CliOptions, ownGroup: boolean): { done: Promise<CliRun>; signal(name: NodeJS.Signals): void } {
  const inherited = Object.fromEntries(
    // GITHUB_STEP_SUMMARY and GITHUB_OUTPUT too: the self-tests' deliberately failing runs must not annotate the project's own CI job, nor set its outputs.
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('OMS_') && !name.startsWith('PLAYWRIGHT_') && !name.startsWith('PW_') && !name.startsWith('TEST_') && name !== 'GITHUB_STEP_SUMMARY' && name !== 'GITHUB_OUTPUT',
    ),
  );
  const child = spawn(process.execPath, [options.bin ?? BIN, ...args], {
    cwd: options.cwd ?? temporaryDirectory(),
    env: { ...inherited, CI: '1', OMS_WORKERS: '2', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: ownGroup,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ exitCode: code ?? (signal === 'SIGKILL' ? 137 : -1), stdout, stderr }));
  });
  return { done, signal: (name) => process.kill(ownGroup ? -(child.pid as number) : (child.pid as number), name) };
}

export function temporaryDirectory(prefix = 'oms-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function readReport(directory: string): ConformanceReport {
  return JSON.parse(readFileSync(join(directory, 'report.json'), 'utf8')) as ConformanceReport;
}

/** Problems of a report against reporter/report.schema.json (the schema the package ships); empty when it is valid. */
export function schemaProblems(report: unknown): string[] {
  const schema = JSON.parse(readFileSync(join(PROJECT_ROOT, 'reporter', 'report.schema.json'), 'utf8')) as object;
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  return validate(report) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/** Every file under a directory, recursively. */
export function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The reference server with extra behaviours (and, optionally, other accounts), on a free port. */
export function startServer(behaviours: Behaviour[], accounts: readonly Account[] = DEVELOPMENT_ACCOUNTS): Promise<RunningReference> {
  return startReferenceServer({ behaviours, accounts: new AccountRegistry(accounts) });
}

/** How long a server in its own process may take to listen. */
const SERVER_START_MS = 30_000;

/**
 * The reference server with the behaviours these variables name (OMS_KNOBS …), in a process of its own on a free port
 * (`npm run proof:reference`): for a caller that blocks its own event loop (the round-trip probe waits synchronously).
 */
export function startServerProcess(variables: Record<string, string>): Promise<Pick<RunningReference, 'url' | 'close'>> {
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', join(PROJECT_ROOT, 'selftest', 'reference', 'server.ts')], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...variables, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ended = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const close = async () => {
    child.kill('SIGTERM');
    await ended;
  };
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => void close().then(() => reject(new Error(`the reference server did not listen within ${SERVER_START_MS} ms: ${output}`))), SERVER_START_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, close });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void ended.then(() => {
      clearTimeout(timer);
      reject(new Error(`the reference server ended before it listened: ${output}`));
    });
  });
}

/**
 * A run of the command against the reference server with the behaviours these variables name (OMS_FAULT …):
 * the server, and the option and variables that point the command at it, signed in as the development
 * accounts through POST /token, as the suite signs in to its embedded server. The caller closes the server.
 */
export async function behaviourTarget(variables: Record<string, string>): Promise<{ server: RunningReference; args: string[]; env: Record<string, string> }> {
  const server = await startServer(behavioursFromEnvironment(variables));
  const [a, b] = DEVELOPMENT_ACCOUNTS;
  return {
    server,
    args: ['--base-url', server.url],
    env: { OMS_CLIENT_ID: a.client.id, OMS_CLIENT_SECRET: a.client.secret, OMS_CLIENT_ID_B: b.client.id, OMS_CLIENT_SECRET_B: b.client.secret },
  };
}

/** A small fault: lists answer meta.status 201 while the HTTP status is 200 (breaks ORD-GEN-002, and nothing else). */
export const listMetaStatusOffByOne: Behaviour = {
  name: 'selftest-list-meta-status-off-by-one',
  rewriteReply(request: ApiRequest, reply: ApiReply): ApiReply {
    if (request.method !== 'GET' || request.path !== '/orders' || reply.status !== 200) return reply;
    const body = reply.body as { meta?: Record<string, unknown> } | undefined;
    if (!body?.meta) return reply;
    return { ...reply, body: { ...body, meta: { ...body.meta, status: 201 } } };
  },
};

/** A small fault: 403 where 401 belongs (breaks the SHOULD ORD-AUTH-006, which core does not gate on). */
export const forbiddenInsteadOfUnauthorized: Behaviour = {
  name: 'selftest-403-for-401',
  rewriteReply(_request: ApiRequest, reply: ApiReply): ApiReply {
    if (reply.status !== 401) return reply;
    const body = reply.body as { meta?: Record<string, unknown> } | undefined;
    return { ...reply, status: 403, body: body?.meta ? { ...body, meta: { ...body.meta, status: 403 } } : body };
  },
};

/** Records every request's method and path, to prove what a run sent. */
export function requestLog(): Behaviour & { requests: string[] } {
  const requests: string[] = [];
  return {
    name: 'selftest-request-log',
    requests,
    rewriteRequest(request: ApiRequest): ApiRequest {
      requests.push(`${request.method} ${request.path}`);
      return request;
    },
  };
}
