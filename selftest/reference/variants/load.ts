import { setTimeout as sleep } from 'node:timers/promises';
import { DEVELOPMENT_ACCOUNTS } from '../../../reference/accounts';
import { ApiError, errorReply, type ApiRequest } from '../../../reference/http';
import { createOrder, deleteOrder } from '../../../reference/routes/orders';
import { issueToken } from '../../../reference/routes/token';
import type { Services } from '../../../reference/services';
import { operationOf, type Json } from '../faults/kit';
import { variant, type VariantDefinition } from './definition';

const [ACCOUNT_A] = DEVELOPMENT_ACCOUNTS;

/** The fixed-window limiter of rate-limit-fixed-window: this many order requests per account per window of these seconds. */
export const FIXED_WINDOW = { requests: 40, seconds: 2 };

/** Conditions of a real deployment: data already there, slowness, rate limits, other clients. */
export const LOAD_VARIANTS: VariantDefinition[] = [
  variant({
    name: 'prefilled-account',
    description: 'Account A holds 350 orders, of varied content, created before the run.',
    basis: 'A service under test is rarely empty: the suite may only count on the orders it creates.',
    hooks: () => ({
      start: (services) => {
        for (let n = 0; n < 350; n++) createAs(ACCOUNT_A.id, sampleOrder(n), services);
      },
    }),
  }),
  variant({
    name: 'oauth-form-1s-tokens',
    description: 'POST /token takes the client credentials only as a form (RFC 6749 §4.4), and its tokens expire after 1 second (expires_in: 1).',
    basis: '5.3: "Request format and response of POST /token, token lifetime and scopes: not shown." Real token endpoints issue short-lived tokens.',
    hooks: () => ({
      intercept: (request, { accounts }) =>
        operationOf(request).operation === 'token' && request.method === 'POST' ? issueToken(request, accounts, { accepts: ['form'], lifetimeSeconds: 1 }) : undefined,
    }),
  }),
  ...[50, 150].map((ms) =>
    variant({
      name: `latency-${ms}ms`,
      description: `Every response comes ${ms} ms late.`,
      basis: 'A remote service is slower than the embedded one; timing is not part of the interface.',
      hooks: () => ({
        intercept: async () => {
          await sleep(ms);
          return undefined;
        },
      }),
    }),
  ),
  ...[false, true].map((early) =>
    variant({
      name: early ? 'rate-limit-429-early' : 'rate-limit-429',
      description: early
        ? 'Every 10th order request is refused with 429, Retry-After: 1 and the error envelope, on its headers alone (as a proxy does, before reading the body), then the connection is closed.'
        : 'Every 10th order request is refused with 429, Retry-After: 1 and the error envelope.',
      basis: '8: "Rate limits: not shown." A 429 is waited out, never evidence for or against a requirement; one that comes before the body was read is an answer like any other.',
      hooks: () => {
        let count = 0;
        const limited = (request: Pick<ApiRequest, 'method' | 'path'>) => !['other', 'token'].includes(operationOf(request).operation) && ++count % 10 === 0;
        const refusal = () => {
          const reply = errorReply(new ApiError(429, 'rate_limited', 'Too many requests, retry in a second'));
          return { ...reply, headers: { ...reply.headers, 'Retry-After': '1' } };
        };
        return early
          ? { answerBeforeBody: (request) => (limited(request) ? refusal() : undefined) }
          : { intercept: (request) => (limited(request) ? refusal() : undefined) };
      },
    }),
  ),
  variant({
    name: 'rate-limit-fixed-window',
    description: `Each account gets ${FIXED_WINDOW.requests} order requests per ${FIXED_WINDOW.seconds}-second window (windows fixed on the clock); the rest of a window is refused with 429, the error envelope and Retry-After set to the seconds left in it.`,
    basis:
      '8: "Rate limits: not shown." A fixed-window limiter per account (the usual one: a counter per key per window) refuses every client of the account at once when the window fills: the run must slow down as a whole, not one worker while the others fill the next window.',
    hooks: () => {
      const windows = new Map<string, { window: number; count: number }>();
      return {
        intercept: (request) => {
          if (['other', 'token'].includes(operationOf(request).operation)) return undefined;
          const now = Date.now();
          const length = FIXED_WINDOW.seconds * 1000;
          const window = Math.floor(now / length);
          const key = request.headers.authorization ?? '';
          const counted = windows.get(key)?.window === window ? (windows.get(key) as { window: number; count: number }) : { window, count: 0 };
          windows.set(key, counted);
          if (++counted.count <= FIXED_WINDOW.requests) return undefined;
          const reply = errorReply(new ApiError(429, 'rate_limited', `At most ${FIXED_WINDOW.requests} requests per ${FIXED_WINDOW.seconds} s`));
          return { ...reply, headers: { ...reply.headers, 'Retry-After': String(Math.ceil(((window + 1) * length - now) / 1000)) } };
        },
      };
    },
  }),
  variant({
    name: 'background-writer',
    description:
      'Another client works in account A during the run: every 200 ms it creates an order or deletes its oldest one (five creates, then five deletes, over and over), for at most 10 minutes.',
    basis: 'A shared account changes under the suite; the document promises nothing about other clients.',
    hooks: () => {
      let timer: NodeJS.Timeout | undefined;
      return {
        start: (services) => {
          const own: string[] = [];
          let ticks = 0;
          timer = setInterval(() => {
            if (++ticks > 3000) return clearInterval(timer);
            // Five creates, then five deletes of its oldest: the account changes on every tick.
            const creating = Math.floor((ticks - 1) / 5) % 2 === 0;
            if (creating) own.push(createAs(ACCOUNT_A.id, sampleOrder(ticks), services));
            else if (own.length > 0) deleteOrder(services, ACCOUNT_A.id, own.shift() as string);
          }, 200);
          timer.unref();
        },
        stop: () => clearInterval(timer),
      };
    },
  }),
  variant({
    name: 'keep-alive-500ms',
    description: 'Idle keep-alive connections are closed after 500 ms (Node\'s default is 5 s).',
    basis: 'Proxies and load balancers close idle connections early; a reset of a reused connection is not the server\'s fault.',
    hooks: () => ({ keepAliveTimeoutMs: 500 }),
  }),
];

/** Creates an order through the create route itself, as a client of the account would. */
function createAs(accountId: string, body: Json, services: Services): string {
  const request: ApiRequest = { method: 'POST', path: '/orders', query: new URLSearchParams(), headers: {}, bodyText: JSON.stringify(body) };
  return (createOrder(request, services, accountId).body as { id: string }).id;
}

const NAMES = ['Ada Lovelace', 'Zoë Ångström', 'Łukasz Żółć', 'Şule Güneş', '山田 太郎', 'محمد علي', 'Grace O\'Brien', 'Émile "Mimi" Zola'];
const CURRENCIES = ['EUR', 'USD', 'TRY', 'GBP'];

/** The n-th of a varied, reproducible set of create bodies: 1 to 3 items, optional parts present or not, non-ASCII text. */
export function sampleOrder(n: number): Json {
  const items = Array.from({ length: 1 + (n % 3) }, (_, i) => ({
    name: `${['Mug', 'Çay bardağı', 'Towel ☕', 'Lamp'][(n + i) % 4]} ${n}-${i}`,
    quantity: 1 + ((n + i) % 4),
    category: 'home',
    price: Math.round(((n * 7 + i * 13) % 5000) + 99) / 100,
    hs_code: '691200',
    origin: 'TR',
  }));
  const price = Math.round(items.reduce((sum, item) => sum + item.quantity * item.price, 0) * 100) / 100;
  return {
    customer: {
      name: `${NAMES[n % NAMES.length]} #${n}`,
      email: { main: `customer${n}@example.com` },
      address: { street: `${n} Kordon`, city: 'İzmir', state: 'İzmir', zip: '35210', country_code: 'TR' },
    },
    items,
    currency: CURRENCIES[n % CURRENCIES.length],
    price,
    ...(n % 2 === 0 ? { payment: { method: 'card', status: 'completed' } } : {}),
    ...(n % 3 === 0 ? { note: `Prefilled order ${n} — ring twice` } : {}),
    ...(n % 5 === 0 ? { placed_at: new Date(Date.UTC(2025, n % 12, 1 + (n % 28), n % 24)).toISOString() } : {}),
  };
}
