import { relative } from 'node:path';
import { expect, test } from '@playwright/test';
import { minimalOrder } from '../contract/examples';
import { OmsClient } from '../harness/http/client';
import { RequestGate } from '../harness/http/gate';
import { RunPace } from '../harness/http/pace';
import { ledgerFile, readLedger } from '../harness/http/ledger';
import type { Sender } from '../harness/http/stage';
import { currentTest, runInRecord } from '../harness/record/current-test';
import { deferredRecord, settledBody } from '../harness/record/deferred';
import { trafficOfTest } from '../harness/record/requests';
import { CreatedOrders } from '../harness/requests/created-orders';
import { accountApi } from '../harness/requests/pipeline';
import { DEV_TOKEN_A, startServer, temporaryDirectory } from './support/cli';
import { PROJECT_ROOT } from './support/run-suite';

/** The files of the frames of a stack, innermost first, each run of frames of one file once. */
function filesOf(stack: string): string[] {
  const files = [...stack.matchAll(/\(?((?:\/|[A-Za-z]:\\)[^():]+\.ts):\d+:\d+\)?/g)].map((match) => relative(PROJECT_ROOT, match[1]));
  return files.filter((file, index) => file !== files[index - 1]);
}

test('a create passes each stage of the request pipeline once, in order: the read-only guard, ownership, the ledger, the rate gate, the transport; then the record and the checks', async () => {
  const server = await startServer([]);
  const ledgerDir = temporaryDirectory('oms-pipeline-');
  process.env.OMS_LEDGER_DIR = ledgerDir;
  process.env.OMS_RUN_ID = `selftest-pipeline-${process.pid}`;
  try {
    const client = new OmsClient({ baseUrl: server.url, token: DEV_TOKEN_A, timeoutMs: 10_000, maxResponseBytes: 1 << 20 });
    let stack = '';
    // The transport, as the rate gate hands it the request: where the request is when it goes out.
    const transport: Sender & Pick<OmsClient, 'baseUrl' | 'bearerToken'> = {
      baseUrl: client.baseUrl,
      bearerToken: () => client.bearerToken(),
      send: (request) => {
        const limit = Error.stackTraceLimit;
        Error.stackTraceLimit = 50;
        stack = new Error('sent').stack ?? '';
        Error.stackTraceLimit = limit;
        return client.send(request);
      },
    };
    const gate = new RequestGate({ maxInFlight: 2, pace: new RunPace(`selftest-pipeline-${process.pid}`), retryForMs: 10_000 });
    const created = new CreatedOrders();
    const api = accountApi('A', { client: transport, gate, created }, { readOnly: false, listSettleMs: 0 });
    const exchange = await api.create(minimalOrder());
    expect(exchange.status).toBe(201);
    const id = String((exchange.json as { id: unknown }).id);

    // Innermost first: the transport, then each stage around it, each file entered once, then the api the test called.
    const stages = filesOf(stack).filter((file) => file.startsWith('harness/'));
    expect(stages).toEqual([
      'harness/http/gate.ts',
      'harness/http/ledger.ts',
      'harness/requests/created-orders.ts',
      'harness/requests/read-only.ts',
      'harness/record/requests.ts',
      'harness/record/checked.ts',
      'harness/requests/api.ts',
    ]);
    // What each stage did: the ledger has the create before and after its answer; the order is this run's to change; the test counted the request.
    const entries = readLedger(ledgerFile(ledgerDir, process.env.OMS_RUN_ID)).map((entry) => `${entry.event} ${entry.orderId}`);
    expect(entries).toEqual(['creating ', `created ${id}`]);
    expect(created.ownerOf(id)).toBe('A');
    expect(trafficOfTest(currentTest()!)).toEqual({ requests: 1, chain: 1 });
    // Ownership holds: no request changes an order this run did not create, and it is never sent.
    const sentBefore = stack;
    await expect(api.update('someone-elses-order', { note: 'x' })).rejects.toThrow('refuses to change or delete order someone-elses-order');
    expect(stack).toBe(sentBefore);
    await api.delete(id);
    expect(readLedger(ledgerFile(ledgerDir, process.env.OMS_RUN_ID)).map((entry) => entry.event)).toEqual(['creating', 'created', 'deleted']);
    client.close();
  } finally {
    delete process.env.OMS_LEDGER_DIR;
    delete process.env.OMS_RUN_ID;
    await server.close();
  }
});

test('in read-only mode a write is not sent, and its test is skipped with the setting that would let it run', async () => {
  let sent = 0;
  const transport = { baseUrl: 'http://127.0.0.1:9', bearerToken: async () => '', send: async () => (sent++, Promise.reject(new Error('sent'))) };
  const gate = new RequestGate({ maxInFlight: 1, pace: new RunPace(`selftest-read-only-${process.pid}`), retryForMs: 1_000 });
  const api = accountApi('A', { client: transport, gate, created: new CreatedOrders() }, { readOnly: true, listSettleMs: 0 });
  const record = deferredRecord({ title: 'a write', titlePath: ['a write'], file: __filename, line: 1, tags: [] });
  await settledBody(() => runInRecord(record, () => api.create(minimalOrder())));
  expect(sent).toBe(0);
  expect(record.skipped).toBe('read-only mode (OMS_READ_ONLY): this check needs to send POST /orders');
});
