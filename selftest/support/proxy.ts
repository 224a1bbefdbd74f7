import { execFileSync, spawn } from 'node:child_process';
import { item, minimalOrder } from '../../contract/examples';
import type { RunningReference } from '../../reference/server';
import { BIN, DEV_TOKEN_A, temporaryDirectory, type CliRun } from './cli';

/** A proxy started by a test: its address and process once it prints them, its end, its --out folder. */
export interface StartedProxy {
  address: Promise<string>;
  /** The proxy's own process (not the shell it may have been started through). */
  pid: Promise<number>;
  done: Promise<CliRun>;
  out: string;
  /** Signals the process the test started: the proxy, or the shell or npm in front of it. */
  signal(name: NodeJS.Signals): void;
}

/**
 * The proxy, started as a user starts it; resolves its address once it prints it. `launcher` starts it
 * through another program, as npm does (`sh -c …`, `npx …`): the command and its arguments, to which the
 * proxy's own are appended.
 */
export function startProxy(server: RunningReference | { url: string }, args: string[], bin = BIN, launcher?: { command: string; args: string[]; cwd?: string }): StartedProxy {
  const out = temporaryDirectory('oms-proxy-');
  const own = ['proxy', '--base-url', server.url, '--out', out, ...args];
  const child = launcher
    ? spawn(launcher.command, [...launcher.args, ...own], { cwd: launcher.cwd ?? out, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, [bin, ...own], { cwd: out, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const printed = new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+).*kill (\d+) to stop/.exec(stdout);
      if (match) resolve(match);
    });
    child.on('close', () => reject(new Error(`the proxy ended before it listened: ${stdout}${stderr}`)));
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliRun>((resolve) => child.on('close', (code, signal) => resolve({ exitCode: code ?? (signal ? -1 : -2), stdout, stderr })));
  const address = printed.then((match) => match[1]);
  const pid = printed.then((match) => Number(match[2]));
  // A proxy meant to end before it listens (a port in use) rejects them with no one awaiting them.
  for (const awaited of [address, pid]) awaited.catch(() => undefined);
  return { address, pid, done, out, signal: (name) => child.kill(name) };
}

/** True while something accepts connections at the address. */
export async function isListening(address: string): Promise<boolean> {
  const { connect } = await import('node:net');
  const { port } = new URL(address);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** True while a process of that id runs: one that ended and waits to be reaped (a zombie, state Z) runs no more. */
export function isRunning(pid: number): boolean {
  try {
    return !execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8', timeout: 5000 }).trim().startsWith('Z');
  } catch {
    // ps exits 1 when no process has the id.
    return false;
  }
}

/** Ends a proxy a failed test left running (by its id, never by name). */
export function stopIfRunning(pid: number): void {
  if (pid > 0 && isRunning(pid)) process.kill(pid, 'SIGKILL');
}

/** Waits, a bounded time, until the process is gone; true when it is. */
export async function endsWithin(pid: number, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; ) {
    if (!isRunning(pid)) return true;
    await new Promise((next) => setTimeout(next, 100));
  }
  return !isRunning(pid);
}

/** An app's few calls: a list, a create with two items (out of name order), and a get of what it created. */
export async function clientCalls(address: string): Promise<number[]> {
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

/** A step of a client's session on one order it created: each update sends a note of its own; a pause sends nothing for a second. */
export type OrderStep = 'update' | 'get' | 'delete' | 'list' | 'pause';

/** An app's session on one order: a create, then `steps` on that order in turn; the statuses, the create's first. */
export async function oneOrderSession(address: string, steps: readonly OrderStep[]): Promise<number[]> {
  const headers = { Authorization: `Bearer ${DEV_TOKEN_A}`, 'Content-Type': 'application/json', Accept: 'application/json' };
  const created = await fetch(`${address}/orders`, { method: 'POST', headers, body: JSON.stringify(minimalOrder({ note: 'as created' })) });
  const url = `${address}/orders/${encodeURIComponent(((await created.json()) as { id?: string }).id ?? 'none')}`;
  const statuses = [created.status];
  let updates = 0;
  for (const step of steps) {
    if (step === 'pause') {
      await new Promise((resume) => setTimeout(resume, 1_000));
      continue;
    }
    const answer =
      step === 'update' ? await fetch(url, { method: 'PUT', headers, body: JSON.stringify({ note: `update ${++updates}` }) })
      : step === 'delete' ? await fetch(url, { method: 'DELETE', headers })
      : await fetch(step === 'get' ? url : `${address}/orders?limit=100`, { headers });
    await answer.arrayBuffer();
    statuses.push(answer.status);
  }
  return statuses;
}

/** Sends raw bytes and returns the raw answer: fetch cannot send a request line in absolute form. */
export async function rawRequest(address: string, bytes: string): Promise<string> {
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
