import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const AUTOCANNON_CLI = require.resolve('autocannon/autocannon.js');

export interface Throughput {
  /** Mean requests per second over the run. */
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  /** Answers outside 2xx, errors and timeouts: a run with any of these does not count. */
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  durationSeconds: number;
  connections: number;
}

/**
 * autocannon in its own process (it must not share the server's event loop), bounded by duration,
 * against a loopback URL only.
 */
export async function load(options: LoadOptions): Promise<Throughput> {
  const target = new URL(options.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error(`bench: load is only sent to loopback, not ${target.hostname}`);
  const args = [AUTOCANNON_CLI, '--json', '--no-progress', '-c', String(options.connections), '-d', String(options.durationSeconds)];
  for (const [name, value] of Object.entries(options.headers)) args.push('-H', `${name}=${value}`);
  args.push(options.url);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    const timer = setTimeout(() => child.kill(), (options.durationSeconds + 30) * 1000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`autocannon exited with ${code}: ${stderr}`));
    });
  });
  const result = JSON.parse(output) as {
    requests: { mean: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  return {
    requestsPerSecond: result.requests.mean,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * A bare node:http server that answers every request with the same bytes: what Node's HTTP layer
 * alone reaches on this machine at this moment, to read the reference server's figure against.
 */
export async function startCeilingServer(body: string, contentType: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(body)) });
    response.end(body);
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
