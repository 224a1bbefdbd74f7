import { expect, test } from '@playwright/test';
import Ajv2020 from 'ajv/dist/2020';
import type { Exchange } from '../harness/http/exchange';
import { registerSecret } from '../harness/http/redaction';
import { renderHar, type TimedExchange } from '../reporter/har';

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
                properties: { send: { type: 'number', minimum: -1 }, wait: { type: 'number', minimum: -1 }, receive: { type: 'number', minimum: -1 } },
              },
            },
          },
        },
      },
    },
  },
};

const SECRET = 'har-selftest-secret-token-1234';

function exchange(overrides: Partial<TimedExchange> = {}): TimedExchange {
  const base: Exchange = {
    operationId: 'listOrders',
    request: { method: 'GET', url: `http://127.0.0.1:1/orders?limit=500&page=0`, path: '/orders?limit=500&page=0', headers: { Accept: 'application/json', Authorization: `Bearer ${SECRET}` } },
    status: 200,
    headers: { 'content-type': 'application/json', 'x-echo': SECRET },
    text: JSON.stringify({ echo: `Bearer ${SECRET}`, note: 'Grüße' }),
    json: undefined,
    retries: 0,
  };
  return { ...base, ...overrides };
}

test('failures.har is HAR 1.2, one entry per exchange, with every secret redacted', () => {
  registerSecret(SECRET, '$OMS_TOKEN');
  const post = exchange({
    request: { method: 'POST', url: 'http://127.0.0.1:1/orders', path: '/orders', headers: { 'Content-Type': 'application/json' }, body: `{"note":"${SECRET}"}` },
    status: 302,
    headers: { location: `http://elsewhere/?t=${SECRET}` },
    text: '',
    startedAt: '2026-11-23T10:00:00.000Z',
    durationMs: 42,
  });
  const text = renderHar([exchange(), post], { name: 'oms-conformance', version: '1.0.0' }, new Date('2026-11-23T11:00:00Z'));
  const har = JSON.parse(text) as { log: { entries: Array<Record<string, any>> } };
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(HAR_1_2);
  expect(validate(har) ? [] : validate.errors).toEqual([]);
  expect(text).not.toContain(SECRET);
  const [get, created] = har.log.entries;
  expect(get.request.queryString).toEqual([{ name: 'limit', value: '500' }, { name: 'page', value: '0' }]);
  expect(get.request.headers).toContainEqual({ name: 'Authorization', value: 'Bearer $OMS_TOKEN' });
  expect([get.startedDateTime, get.response.statusText, get.response.content.mimeType]).toEqual(['2026-11-23T11:00:00.000Z', 'OK', 'application/json']);
  expect(get.response.content.size).toBe(Buffer.byteLength(JSON.stringify({ echo: 'Bearer $OMS_TOKEN', note: 'Grüße' })));
  expect([created.startedDateTime, created.time, created.timings.wait, created.response.redirectURL]).toEqual(['2026-11-23T10:00:00.000Z', 42, 42, 'http://elsewhere/?t=$OMS_TOKEN']);
  expect(created.request.postData).toEqual({ mimeType: 'application/json', text: '{"note":"$OMS_TOKEN"}' });
});
