import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import Ajv2020 from 'ajv/dist/2020';
import { nonUtf8Byte, type Exchange } from '../contract/exchange';
import { registerSecret } from '../config/redaction';
import { readHar, renderHar, type HarExchange } from '../reporter/har';
import { runSuite } from './support/run-suite';

const nameValues = { type: 'array', items: { type: 'object', required: ['name', 'value'], properties: { name: { type: 'string' }, value: { type: 'string' } } } };
const size = { type: 'integer', minimum: -1 };

/** The required structure of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/). */
const HAR_1_2 = {
  type: 'object',
  required: ['log'],
  properties: {
    log: {
      type: 'object',
      required: ['version', 'creator', 'entries'],
      properties: {
        version: { const: '1.2' },
        creator: { type: 'object', required: ['name', 'version'], additionalProperties: false, properties: { name: { type: 'string' }, version: { type: 'string' } } },
        entries: {
          type: 'array',
          items: {
            type: 'object',
            required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
            properties: {
              startedDateTime: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$' },
              time: { type: 'number', minimum: 0 },
              request: {
                type: 'object',
                required: ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'],
                properties: {
                  method: { type: 'string' },
                  url: { type: 'string' },
                  httpVersion: { type: 'string' },
                  cookies: nameValues,
                  headers: nameValues,
                  queryString: nameValues,
                  postData: { type: 'object', required: ['mimeType', 'text'] },
                  headersSize: size,
                  bodySize: size,
                },
              },
              response: {
                type: 'object',
                required: ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize'],
                properties: {
                  status: { type: 'integer' },
                  statusText: { type: 'string' },
                  httpVersion: { type: 'string' },
                  cookies: nameValues,
                  headers: nameValues,
                  content: { type: 'object', required: ['size', 'mimeType'], properties: { size: { type: 'integer', minimum: 0 }, mimeType: { type: 'string' } } },
                  redirectURL: { type: 'string' },
                  headersSize: size,
                  bodySize: size,
                },
              },
              cache: { type: 'object' },
              timings: {
                type: 'object',
                required: ['send', 'wait', 'receive'],
                properties: Object.fromEntries(['blocked', 'dns', 'connect', 'send', 'wait', 'receive', 'ssl'].map((phase) => [phase, { type: 'number', minimum: -1 }])),
              },
            },
          },
        },
      },
    },
  },
};

const SECRET = 'har-selftest-secret-token-1234';

function exchange(overrides: Partial<Exchange> = {}): Exchange {
  return {
    operationId: 'listOrders',
    request: { method: 'GET', url: `http://127.0.0.1:1/orders?limit=500&page=0`, path: '/orders?limit=500&page=0', headers: { Accept: 'application/json', Authorization: `Bearer ${SECRET}` } },
    status: 200,
    headers: { 'content-type': 'application/json', 'x-echo': SECRET },
    text: JSON.stringify({ echo: `Bearer ${SECRET}`, note: 'Grüße' }),
    json: undefined,
    retries: 0,
    ...overrides,
  };
}

type Entries = { log: { entries: Array<Record<string, any>> } };

function expectHar12(har: unknown): void {
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(HAR_1_2);
  expect(validate(har) ? [] : validate.errors).toEqual([]);
}

test('failures.har is HAR 1.2, one entry per exchange, with its timings, requirement and test, every secret redacted', () => {
  registerSecret(SECRET, '$OMS_TOKEN');
  const post: HarExchange = {
    exchange: exchange({
      request: { method: 'POST', url: 'http://127.0.0.1:1/orders', path: '/orders', headers: { 'Content-Type': 'application/json' }, body: `{"note":"${SECRET}"}` },
      status: 302,
      headers: { location: `http://elsewhere/?t=${SECRET}` },
      text: '',
      timing: { startedAt: '2026-11-23T10:00:00.000Z', connect: 1.5, send: 0.5, wait: 40, receive: 2 },
    }),
    requirement: 'ORD-CREATE-001',
    test: 'orders/create-order.spec.ts › POST /orders (4.2) › accepts',
    context: { ownForm: true },
    truncated: { response: true },
  };
  const text = renderHar([{ exchange: exchange() }, post], { name: 'oms-conformance', version: '1.0.0' }, new Date('2026-11-23T11:00:00Z'));
  const har = JSON.parse(text) as Entries;
  expectHar12(har);
  expect(text).not.toContain(SECRET);
  const [get, created] = har.log.entries;
  expect(get.request.queryString).toEqual([{ name: 'limit', value: '500' }, { name: 'page', value: '0' }]);
  expect(get.request.headers).toContainEqual({ name: 'Authorization', value: 'Bearer $OMS_TOKEN' });
  // Without a recorded clock: the stand-in time, and no phase made up.
  expect([get.startedDateTime, get.time, get.timings.connect, get.response.statusText, get.response.content.mimeType]).toEqual(['2026-11-23T11:00:00.000Z', 0, -1, 'OK', 'application/json']);
  expect(get.response.content.size).toBe(Buffer.byteLength(JSON.stringify({ echo: 'Bearer $OMS_TOKEN', note: 'Grüße' })));
  expect([get._requirement, get._test]).toEqual([undefined, undefined]);
  expect([created.startedDateTime, created.time, created.response.redirectURL]).toEqual(['2026-11-23T10:00:00.000Z', 44, 'http://elsewhere/?t=$OMS_TOKEN']);
  expect(created.timings).toEqual({ blocked: -1, dns: -1, connect: 1.5, send: 0.5, wait: 40, receive: 2, ssl: -1 });
  expect([created._requirement, created._test, created._context, created.response.content._truncated]).toEqual([post.requirement, post.test, { ownForm: true }, true]);
  expect(created.request.postData).toEqual({ mimeType: 'application/json', text: '{"note":"$OMS_TOKEN"}' });

  // Read back as judge reads it: the operation from the path, the notes of the run, the clock.
  const [first, second] = readHar(text);
  expect([first.exchange.operationId, first.exchange.request.path, first.exchange.json]).toEqual(['listOrders', '/orders?limit=500&page=0', { echo: 'Bearer $OMS_TOKEN', note: 'Grüße' }]);
  expect([second.exchange.operationId, second.requirement, second.context, second.truncated, second.exchange.timing]).toEqual(['createOrder', post.requirement, { ownForm: true }, { response: true }, post.exchange.timing]);
});

test('a body sent with bytes that are not UTF-8 keeps them in HAR as the suite keeps them, says so, counts its bytes, and reads back the same', () => {
  const body = `{"note":"read ${nonUtf8Byte(0xff)}${nonUtf8Byte(0xfe)} leniently"}`;
  const sent = exchange({ operationId: 'createOrder', request: { method: 'POST', url: 'http://127.0.0.1:1/orders', path: '/orders', headers: { 'Content-Type': 'application/json' }, body }, status: 400 });
  const text = renderHar([{ exchange: sent }], { name: 'oms-conformance', version: '1.0.0' });
  const har = JSON.parse(text) as Entries;
  expectHar12(har);
  const [entry] = har.log.entries;
  expect([entry.request.postData.text, entry.request.bodySize]).toEqual([body, Buffer.byteLength('{"note":"read  leniently"}') + 2]);
  expect(entry.request.postData.comment).toMatch(/not UTF-8.*U\+DC80 to U\+DCFF.*0x80 to 0xFF/);
  expect(readHar(text)[0].exchange.request.body).toBe(body);
});

test('readHar takes the path prefix of the base URL, or finds it, and leaves other URLs without an operation', () => {
  const entry = (url: string, method = 'GET') => ({ startedDateTime: '2026-11-23T10:00:00Z', time: 1, request: { method, url, headers: [] }, response: { status: 200, headers: [{ name: 'Content-Type', value: 'application/json' }], content: { size: 2, mimeType: 'application/json', text: 'e30=', encoding: 'base64' } }, timings: { send: 0, wait: 1, receive: 0 } });
  const text = JSON.stringify({ log: { version: '1.2', creator: { name: 'browser', version: '1' }, entries: [entry('https://shop.example/api/v1/orders/7'), entry('https://shop.example/static/app.js'), entry('https://shop.example/api/v1/orders', 'PUT')] } });
  const found = readHar(text);
  expect(found.map((e) => [e.exchange.operationId, e.exchange.request.path])).toEqual([['getOrder', '/orders/7'], [undefined, 'https://shop.example/static/app.js'], [undefined, '/orders']]);
  expect(found[0].exchange.json).toEqual({});
  expect(found[0].exchange.headers).toEqual({ 'content-type': 'application/json' });
  expect(readHar(text, 'https://shop.example/api').map((e) => e.exchange.request.path)[0]).toBe('/v1/orders/7');
  expect(readHar(text, 'https://other.example/api/v1')[0].exchange.operationId).toBeUndefined();
  expect(() => readHar('{"log":{}}')).toThrow('no log.entries');
  expect(() => readHar('not json')).toThrow('not JSON');
});

test('a failing run with --har writes the exchange of each failure with its own start time and timings, its requirement and its test', async () => {
  const started = Date.now();
  const run = await runSuite({ OMS_FAULT: 'format-text-plain', OMS_HAR: '1' }, ['--grep', '@ORD-GEN-001(?![0-9])']);
  expect(run.exitCode, run.output).toBe(1);
  const har = JSON.parse(readFileSync(join(run.reportDir, 'failures.har'), 'utf8')) as Entries;
  expectHar12(har);
  const entries = har.log.entries;
  expect(entries.length).toBeGreaterThan(1);
  const times = entries.map((e) => Date.parse(e.startedDateTime));
  expect(times.every((t) => t >= started - 1000 && t <= Date.now())).toBe(true);
  expect(new Set(times).size).toBeGreaterThan(1);
  for (const e of entries) {
    const { connect, send, wait, receive } = e.timings;
    expect(e.time).toBeCloseTo([connect, send, wait, receive].filter((ms: number) => ms > 0).reduce((a: number, b: number) => a + b, 0), 6);
    expect(e.time).toBeGreaterThan(0);
    expect(e._requirement).toBe('ORD-GEN-001');
    expect(run.report?.requirements.find((r) => r.id === 'ORD-GEN-001')?.findings.map((f) => f.test)).toContain(e._test);
  }
});
