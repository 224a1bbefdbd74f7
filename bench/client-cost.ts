import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import { startBenchReference } from './reference';
import { median } from './stats';
import { PROJECT_ROOT } from './suite';

/** Microseconds per request, by client, then by how many requests the test sent (the key). */
export type PerRequest = Record<string, Record<string, number>>;

export interface ClientCost {
  /** Wall time per request. */
  microseconds: PerRequest;
  /** CPU time of the worker per request: hardly moved by machine load. */
  cpuMicroseconds: PerRequest;
}

/**
 * What one request costs inside a Playwright worker, by client (bench/client-cost/client-cost.spec.ts),
 * for each request count, median of `rounds` runs of the spec (one worker, against the bench's server).
 */
export async function clientCost(counts: number[], rounds: number): Promise<ClientCost> {
  const [a] = DEVELOPMENT_ACCOUNTS;
  const server = await startBenchReference({ prefill: 1 });
  const scratch = mkdtempSync(join(tmpdir(), 'oms-bench-client-'));
  const samples: Record<'microseconds' | 'cpuMicroseconds', Record<string, Record<string, number[]>>> = { microseconds: {}, cpuMicroseconds: {} };
  try {
    const id = server.app.services.store.page(a.id, 0, 1).orders[0].id;
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(OMS_|PLAYWRIGHT_|TEST_)/.test(name)));
    for (let round = 0; round < rounds; round++) {
      const output = join(scratch, `round-${round}`);
      mkdirSync(output);
      const env = { ...inherited, CI: '1', BENCH_URL: server.url, BENCH_TOKEN: a.developmentToken, BENCH_PATH: `/orders/${id}`, BENCH_COUNTS: counts.join(','), BENCH_OUTPUT: output };
      const args = [require.resolve('@playwright/test/cli'), 'test', '--config', join(__dirname, 'client-cost', 'playwright.config.ts'), '--output', join(scratch, 'test-results')];
      const { code, text } = await new Promise<{ code: number; text: string }>((resolve, reject) => {
        const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => (text = (text + chunk.toString()).slice(-3000)));
        child.stderr.on('data', (chunk: Buffer) => (text = (text + chunk.toString()).slice(-3000)));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code: code ?? -1, text }));
      });
      if (code !== 0) throw new Error(`bench: the client-cost run failed (${code}): ${text}`);
      for (const file of readdirSync(output)) {
        const result = JSON.parse(readFileSync(join(output, file), 'utf8')) as { name: string; count: number; microseconds: number; cpuMicroseconds: number };
        for (const figure of ['microseconds', 'cpuMicroseconds'] as const) {
          ((samples[figure][result.name] ??= {})[String(result.count)] ??= []).push(result[figure]);
        }
      }
      server.take();
    }
  } finally {
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  const medians = (byClient: Record<string, Record<string, number[]>>): PerRequest =>
    Object.fromEntries(Object.entries(byClient).map(([name, byCount]) => [name, Object.fromEntries(Object.entries(byCount).map(([count, values]) => [count, Math.round(median(values))]))]));
  return { microseconds: medians(samples.microseconds), cpuMicroseconds: medians(samples.cpuMicroseconds) };
}
