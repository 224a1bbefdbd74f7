import { spawn } from 'node:child_process';
import { item, minimalOrder } from '../../contract/examples';
import type { RunningReference } from '../../reference/server';
import { BIN, DEV_TOKEN_A, temporaryDirectory, type CliRun } from './cli';

/** The proxy, started as a user starts it; resolves its address once it prints it. */
export function startProxy(server: RunningReference, args: string[], bin = BIN): { address: Promise<string>; done: Promise<CliRun>; out: string } {
  const out = temporaryDirectory('oms-proxy-');
  const child = spawn(process.execPath, [bin, 'proxy', '--base-url', server.url, '--out', out, ...args], { cwd: out, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const address = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) resolve(match[1]);
    });
    child.on('close', () => reject(new Error(`the proxy ended before it listened: ${stdout}${stderr}`)));
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliRun>((resolve) => child.on('close', (code) => resolve({ exitCode: code ?? -1, stdout, stderr })));
  return { address, done, out };
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
