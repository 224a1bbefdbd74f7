import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request, test, type APIRequestContext } from '@playwright/test';
import { OmsClient } from '../../harness/http/client';
import { RequestGate } from '../../harness/http/gate';
import { RunPace } from '../../harness/http/pace';
import { accountApi } from '../../harness/requests/pipeline';
import { responseChecks } from '../../checks/body';
import { CreatedOrders } from '../../harness/requests/created-orders';
import { check } from '../../harness/record/findings';
import { nowMs } from '../stats';

/**
 * Run by bench/client-cost.ts (BENCH_URL, BENCH_TOKEN, BENCH_PATH, BENCH_COUNTS, BENCH_OUTPUT): the
 * same GET, sent one after another inside a Playwright test, by each client, each count in a test of
 * its own (Playwright's per-step cost grows with the steps already in the test, so counts are compared).
 * Wall time and the worker's CPU time per request (the server runs in the bench's process, not here).
 */
const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this through bench/client-cost.ts`);
  return value;
};

type Send = (context: APIRequestContext) => () => Promise<unknown>;

const client = () => new OmsClient({ baseUrl: env('BENCH_URL'), token: env('BENCH_TOKEN'), timeoutMs: 15_000, maxResponseBytes: 10 * 1024 * 1024 });
const api = () => accountApi('A', { client: client(), gate: new RequestGate({ maxInFlight: 1, pace: new RunPace(`bench-${process.pid}`), retryForMs: 60_000 }), created: new CreatedOrders() }, { readOnly: false, listSettleMs: 0 });
const get = () => ({ spec: { operationId: 'getOrder' as const, method: 'GET' as const, path: env('BENCH_PATH') } });

const CLIENTS: Record<string, Send> = {
  fetch: () => {
    const url = `${env('BENCH_URL')}${env('BENCH_PATH')}`;
    const headers = { Authorization: `Bearer ${env('BENCH_TOKEN')}`, Accept: 'application/json' };
    return async () => (await fetch(url, { headers })).text();
  },
  'Playwright APIRequestContext': (context) => {
    const url = `${env('BENCH_URL')}${env('BENCH_PATH')}`;
    const headers = { Authorization: `Bearer ${env('BENCH_TOKEN')}`, Accept: 'application/json' };
    return async () => (await context.fetch(url, { headers, failOnStatusCode: false })).text();
  },
  'harness OmsClient (no checks)': () => {
    const bare = client();
    return () => bare.send(get());
  },
  'harness OmsApi (client and response checks)': () => {
    const checkedApi = api();
    return () => checkedApi.send(get().spec);
  },
  'harness OmsClient, checks, expect only on a finding': () => {
    const bare = client();
    return async () => {
      const exchange = await bare.send(get());
      for (const finding of responseChecks(exchange)) if (finding) check(finding);
    };
  },
  'harness OmsApi inside one test.step': () => {
    const checkedApi = api();
    return () => checkedApi.send(get().spec);
  },
};

const counts = (process.env.BENCH_COUNTS ?? '100').split(',').map(Number);

test('warm-up: every client, unmeasured', async () => {
  const context = await request.newContext();
  for (const make of Object.values(CLIENTS)) {
    const send = make(context);
    for (let i = 0; i < 30; i++) await send();
  }
  await context.dispose();
});

for (const count of counts) {
  for (const [name, make] of Object.entries(CLIENTS)) {
    test(`${count} requests: ${name}`, async () => {
      const context = await request.newContext();
      const send = make(context);
      const body = async () => {
        const cpu = process.cpuUsage();
        const started = nowMs();
        for (let i = 0; i < count; i++) await send();
        const used = process.cpuUsage(cpu);
        return { microseconds: ((nowMs() - started) * 1000) / count, cpuMicroseconds: (used.user + used.system) / count };
      };
      const cost = name.endsWith('inside one test.step') ? await test.step('requests', body) : await body();
      await context.dispose();
      writeFileSync(join(env('BENCH_OUTPUT'), `${encodeURIComponent(name)}.${count}.json`), JSON.stringify({ name, count, ...cost }));
    });
  }
}
