import { expect, test } from '@playwright/test';
import { MASK } from '../config/credentials';
import { parseJson, type Exchange } from '../contract/exchange';
import { redactedExchange } from '../harness/http/exchange';
import { renderHar } from '../reporter/har';
import { judgeTraffic } from '../reporter/traffic-report';
import { maskCredentials } from '../cli/judge';

/**
 * Credentials masked by where they stand (config/credentials.ts), with values nobody registered: the suite's
 * own exchanges (redactedExchange), every HAR written (renderHar: failures.har, the proxy's traffic.har), and
 * what judge and the proxy report. One test per form; each secret is new, so only its position can mask it.
 */

interface Form {
  what: string;
  /** The exchange, holding `secret` where a credential stands. */
  exchange(secret: string): Exchange;
  /** What must stay as sent next to it. */
  kept: string[];
}

function exchangeOf(request: Partial<Exchange['request']> & { path: string }, answer: { status?: number; headers?: Record<string, string>; text?: string } = {}): Exchange {
  const text = answer.text ?? '{"data":[],"meta":{"total":0}}';
  return {
    operationId: request.path.startsWith('/token') ? 'issueToken' : undefined,
    request: { method: 'POST', url: `http://127.0.0.1:1${request.path}`, headers: {}, ...request },
    status: answer.status ?? 200,
    headers: answer.headers ?? { 'content-type': 'application/json' },
    text,
    json: parseJson(text),
    retries: 0,
  };
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'Content-Type': 'application/json' };

const FORMS: Form[] = [
  ...['client_secret', 'password', 'refresh_token', 'client_assertion', 'code', 'code_verifier'].map(
    (field): Form => ({
      what: `${field} in a form body to POST /token`,
      exchange: (secret) => exchangeOf({ path: '/token', headers: FORM, body: `grant_type=client_credentials&client_id=shop-app&${field}=${encodeURIComponent(secret)}` }),
      kept: ['grant_type=client_credentials', 'client_id=shop-app', `${field}=${MASK}`],
    }),
  ),
  {
    what: 'client_secret in a JSON body to POST /token',
    exchange: (secret) => exchangeOf({ path: '/token', headers: JSON_TYPE, body: JSON.stringify({ client_id: 'shop-app', client_secret: secret }) }),
    kept: ['"client_id":"shop-app"', `"client_secret":"${MASK}"`],
  },
  {
    what: 'password and refresh_token in a JSON body to POST /token, written with escapes',
    exchange: (secret) => exchangeOf({ path: '/token', headers: JSON_TYPE, body: `{"grant_type": "password", "password": "${secret.replace(/-/g, '\\u002d')}", "refresh_token": "${secret}-r"}` }),
    kept: ['"grant_type":"password"', `"password":"${MASK}"`, `"refresh_token":"${MASK}"`],
  },
  {
    what: 'client_secret and code in the query string of POST /token',
    exchange: (secret) => exchangeOf({ path: `/token?client_id=shop-app&client_secret=${secret}&code=${secret}x` }),
    kept: ['client_id=shop-app', `client_secret=${MASK}`, `code=${MASK}`],
  },
  {
    what: 'access_token, refresh_token and id_token in the answer of POST /token',
    exchange: (secret) =>
      exchangeOf({ path: '/token', headers: FORM, body: 'grant_type=client_credentials' }, { text: JSON.stringify({ access_token: secret, refresh_token: `${secret}-r`, id_token: `${secret}-i`, token_type: 'Bearer', expires_in: 3600 }) }),
    kept: ['"token_type":"Bearer"', '"expires_in":3600', `"refresh_token":"${MASK}"`, `"id_token":"${MASK}"`],
  },
  {
    what: 'the Authorization header of an order request (the scheme kept)',
    exchange: (secret) => exchangeOf({ method: 'GET', path: '/orders?limit=2', headers: { Authorization: `Bearer ${secret}` } }),
    kept: [`Bearer ${MASK}`],
  },
  {
    what: 'a Basic Authorization header to POST /token',
    exchange: (secret) => exchangeOf({ path: '/token', headers: { ...FORM, Authorization: `Basic ${Buffer.from(`shop-app:${secret}`).toString('base64')}` }, body: 'grant_type=client_credentials' }),
    kept: [`Basic ${MASK}`],
  },
  {
    what: 'the Proxy-Authorization header',
    exchange: (secret) => exchangeOf({ method: 'GET', path: '/orders', headers: { 'Proxy-Authorization': `Basic ${secret}` } }),
    kept: [`Basic ${MASK}`],
  },
  {
    what: 'the Cookie header (the names kept)',
    exchange: (secret) => exchangeOf({ method: 'GET', path: '/orders', headers: { Cookie: `session=${secret}; theme=${secret}-dark` } }),
    kept: [`session=${MASK}; theme=${MASK}`],
  },
  {
    what: 'Set-Cookie headers of an answer (names and attributes kept)',
    exchange: (secret) =>
      exchangeOf({ method: 'GET', path: '/orders' }, { headers: { 'content-type': 'application/json', 'set-cookie': `session=${secret}; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT; HttpOnly\nrefresh=${secret}-r; Secure` } }),
    kept: [`session=${MASK}; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT; HttpOnly`, `refresh=${MASK}; Secure`],
  },
];

let serial = 0;
/** A secret no test registered, long enough to be masked by value once found: only its position can mask it the first time. */
function freshSecret(): string {
  return `s3cr3t-${process.pid}-${++serial}-${Date.now().toString(36)}`;
}

/** The exchange as each writer writes it: the suite's exchange (what report.json, junit and the HTML are made of), failures.har, judge's report. */
function written(exchange: Exchange): Record<string, string> {
  const { request } = exchange;
  const suite = redactedExchange({
    operationId: exchange.operationId,
    method: request.method,
    url: request.url,
    path: request.path,
    headers: request.headers,
    body: request.body,
    response: { status: exchange.status, headers: exchange.headers, body: Buffer.from(exchange.text) },
  });
  const har = renderHar([{ exchange }], { name: 'selftest', version: '1' });
  const recorded = [{ index: 0, exchange }];
  maskCredentials(recorded);
  return { suite: JSON.stringify(suite), har, judged: JSON.stringify(recorded[0].exchange) + JSON.stringify(judgeTraffic('t.har', recorded, 'core', { listSettleMs: 0 })) };
}

for (const form of FORMS) {
  test(`masks ${form.what} by its position, in the suite's exchange, the HAR and judge's report`, () => {
    const secret = freshSecret();
    for (const [writer, text] of Object.entries(written(form.exchange(secret)))) {
      expect(text, `${writer}: ${text}`).not.toContain(secret);
      expect(text, writer).not.toContain(encodeURIComponent(secret));
      expect(text, writer).not.toContain(Buffer.from(secret).toString('base64').slice(0, 16));
      if (writer !== 'judged') for (const kept of form.kept) expect(text.replace(/\\"/g, '"').replace(/\\n/g, '\n'), `${writer} keeps ${kept}`).toContain(kept);
    }
  });
}

test("an order's own fields stay as sent: customer.phone.code, and a code or password field outside the token endpoint", () => {
  const order = JSON.stringify({ customer: { name: 'Zoë', phone: { code: '+49', number: '301234567' } }, note: 'password=hunter2-garden', code: 'SUMMER-2026' });
  const exchange = exchangeOf({ path: '/orders', headers: JSON_TYPE, body: order }, { status: 201, text: order });
  for (const [writer, text] of Object.entries(written(exchange))) {
    for (const kept of ['"code":"+49"', 'password=hunter2-garden', '"code":"SUMMER-2026"']) expect(text.replace(/\\"/g, '"'), writer).toContain(kept);
  }
});

test('a credential the suite knows reads as its placeholder, so a curl line still expands it; an empty or non-string one is left for the checks to judge', () => {
  const exchange = exchangeOf({ path: '/token', headers: JSON_TYPE, body: '{"client_id":"a","client_secret":"$OMS_CLIENT_SECRET"}' }, { text: '{"access_token":"","token_type":"Bearer","refresh_token":42}' });
  const { suite } = written(exchange);
  expect(suite).toContain('\\"client_secret\\":\\"$OMS_CLIENT_SECRET\\"');
  expect(suite).toContain('\\"access_token\\":\\"\\"');
  expect(suite).toContain('\\"refresh_token\\":42');
});
