import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { isUtf8 } from 'node:buffer';
import { jsonTextDepth } from '../contract/exchange';
import { AccountRegistry } from './accounts';
import { ApiError, errorReply, type ApiReply, type ApiRequest } from './http';
import { createOrder, deleteOrder, getOrder, listOrders, updateOrder } from './routes/orders';
import { issueToken } from './routes/token';
import { defaultServices, type Services } from './services';
import { InMemoryOrderStore, type OrderStore } from './store';

/**
 * A change to the clean server, switched on by configuration: faults (deliberate violations) and
 * variants (conformant differences) are both behaviours, kept in selftest/reference/faults and selftest/reference/variants.
 */
export interface Behaviour {
  name: string;
  /** Replace or wrap storage, ids or the clock. */
  wrapServices?(services: Services, accounts: AccountRegistry): Services;
  /** Rewrite the request before authentication and routing. */
  rewriteRequest?(request: ApiRequest, context: HookContext): ApiRequest;
  /**
   * Answer on the request line and headers alone, before any of the body is read, then close the
   * connection (a proxy refusing a body too large, a gateway refusing a missing token).
   */
  answerBeforeBody?(request: Omit<ApiRequest, 'bodyText'>, context: HookContext): ApiReply | undefined;
  /** Answer before routing (rate limits, latency). */
  intercept?(request: ApiRequest, context: HookContext): ApiReply | undefined | Promise<ApiReply | undefined>;
  /** Rewrite the reply before it is sent. */
  rewriteReply?(request: ApiRequest, reply: ApiReply, context: HookContext): ApiReply | Promise<ApiReply>;
  /** Background work (another client writing), started with the server and stopped with it. */
  start?(services: Services, accounts: AccountRegistry): void;
  stop?(): void;
  /** Close idle keep-alive connections after this many ms (the listener's setting; the shortest one wins). */
  keepAliveTimeoutMs?: number;
  /** Take a request larger than any order needs (a 2 MiB body, a 32 KiB header), as a service with no size limit does. */
  takesLargeRequests?: boolean;
}

/** What every hook may consult: the (wrapped) services and who each token belongs to. */
export interface HookContext {
  services: Services;
  accounts: AccountRegistry;
}

export interface ReferenceOptions {
  store?: OrderStore;
  accounts?: AccountRegistry;
  behaviours?: Behaviour[];
  /** Bodies above this many bytes get 413. */
  maxBodyBytes?: number;
  /** Largest request head (request line and headers) taken; a larger one is refused with 431 and the envelope. */
  maxHeaderBytes?: number;
}

export interface ReferenceApp {
  handle: RequestListener;
  services: Services;
  accounts: AccountRegistry;
  start(): void;
  stop(): void;
}

const ORDER_PATH = /^\/orders\/([^/]+)$/;

export function createReferenceApp(options: ReferenceOptions = {}): ReferenceApp {
  const accounts = options.accounts ?? new AccountRegistry();
  const behaviours = options.behaviours ?? [];
  const large = behaviours.some((behaviour) => behaviour.takesLargeRequests);
  const maxBodyBytes = options.maxBodyBytes ?? (large ? LARGE_REQUEST_BYTES : 1024 * 1024);
  const maxHeaderBytes = options.maxHeaderBytes ?? (large ? LARGE_HEADER_BYTES : DEFAULT_MAX_HEADER_BYTES);
  let services = defaultServices(options.store ?? new InMemoryOrderStore());
  for (const behaviour of behaviours) services = behaviour.wrapServices?.(services, accounts) ?? services;
  const context: HookContext = { services, accounts };

  async function answer(request: ApiRequest): Promise<ApiReply> {
    for (const behaviour of behaviours) {
      const early = await behaviour.intercept?.(request, context);
      if (early) return early;
    }
    return route(request, services, accounts);
  }

  const handle: RequestListener = (incoming, outgoing) => {
    for (const behaviour of behaviours) {
      const early = behaviour.answerBeforeBody?.(requestLine(incoming), context);
      if (early) return sendAndClose(incoming, outgoing, early);
    }
    // The listener hands requests with Expect: 100-continue here unanswered (reference/server.ts): the body is wanted now.
    if (/^100-continue$/i.test(String(incoming.headers.expect ?? ''))) outgoing.writeContinue();
    void (async () => {
      let reply: ApiReply;
      let request: ApiRequest | undefined;
      try {
        if (headBytes(incoming) > maxHeaderBytes) throw new ApiError(431, 'headers_too_large', `The request headers exceed ${maxHeaderBytes} bytes`);
        request = await readRequest(incoming, maxBodyBytes);
        // As a parser with a depth limit refuses it (Python's json, serde, Go's): before a behaviour walks the body.
        // Only a body longer than MAX_BODY_DEPTH characters can nest deeper: most are not read again.
        if (request.bodyText.length > MAX_BODY_DEPTH && jsonTextDepth(request.bodyText) > MAX_BODY_DEPTH) throw new ApiError(400, 'body_too_deep', `The request body nests deeper than ${MAX_BODY_DEPTH} levels`);
        for (const behaviour of behaviours) request = behaviour.rewriteRequest?.(request, context) ?? request;
        reply = await answer(request);
      } catch (error) {
        reply = toErrorReply(error);
        // A body refused while it was read (413), or headers refused before it (431), still have a request line: behaviours see every reply.
        request ??= { ...requestLine(incoming), bodyText: '' };
      }
      try {
        for (const behaviour of behaviours) reply = (await behaviour.rewriteReply?.(request, reply, context)) ?? reply;
      } catch (error) {
        // A behaviour that breaks answers 500 like any other bug: the process serving the suite never dies of it.
        reply = toErrorReply(error);
      }
      send(outgoing, reply);
    })();
  };

  return {
    handle,
    services,
    accounts,
    start: () => behaviours.forEach((b) => b.start?.(services, accounts)),
    stop: () => behaviours.forEach((b) => b.stop?.()),
  };
}

function route(request: ApiRequest, services: Services, accounts: AccountRegistry): ApiReply {
  if (request.path === '/token') {
    if (request.method !== 'POST') throw methodNotAllowed('POST');
    return issueToken(request, accounts);
  }
  const orderMatch = ORDER_PATH.exec(request.path);
  if (request.path !== '/orders' && !orderMatch) throw new ApiError(404, 'not_found', `No resource at ${request.path}`);
  // Section 4: all endpoints require the Authorization header, checked before anything about the request.
  const accountId = authenticate(request, accounts);
  if (!orderMatch) {
    if (request.method === 'GET') return listOrders(request, services, accountId);
    if (request.method === 'POST') return createOrder(request, services, accountId);
    throw methodNotAllowed('GET, POST');
  }
  let orderId: string;
  try {
    orderId = decodeURIComponent(orderMatch[1]);
  } catch {
    throw new ApiError(400, 'invalid_parameter', 'order_id is not validly percent-encoded', [{ field: 'order_id', error: 'malformed percent-encoding' }]);
  }
  switch (request.method) {
    case 'GET':
      return getOrder(services, accountId, orderId);
    case 'PUT':
      return updateOrder(request, services, accountId, orderId);
    case 'DELETE':
      return deleteOrder(services, accountId, orderId);
    default:
      throw methodNotAllowed('GET, PUT, DELETE');
  }
}

/** Section 5.1: Authorization: Bearer <ACCESS_TOKEN>; the scheme name is case-insensitive (RFC 9110). */
function authenticate(request: ApiRequest, accounts: AccountRegistry): string {
  const header = request.headers.authorization;
  const challenge = { 'WWW-Authenticate': 'Bearer realm="oms"' };
  if (!header) throw new ApiError(401, 'unauthorized', 'The Authorization header is missing', [], challenge);
  const match = /^Bearer ([^\s]+)$/i.exec(header);
  if (!match) throw new ApiError(401, 'unauthorized', 'Authorization must be "Bearer <token>"', [], challenge);
  const account = accounts.accountFor(match[1]);
  if (!account) throw new ApiError(401, 'unauthorized', 'The access token is not valid', [], challenge);
  return account.id;
}

function methodNotAllowed(allowed: string): ApiError {
  return new ApiError(405, 'method_not_allowed', `Allowed methods: ${allowed}`, [], { Allow: allowed });
}

function readRequest(incoming: IncomingMessage, maxBodyBytes: number): Promise<ApiRequest> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(incoming.headers['content-length'] ?? 0) > maxBodyBytes;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    incoming.on('error', reject);
    incoming.on('end', () => {
      if (tooLarge) {
        reject(new ApiError(413, 'payload_too_large', `The request body exceeds ${maxBodyBytes} bytes`));
        return;
      }
      const body = Buffer.concat(chunks);
      resolve({ ...requestLine(incoming), bodyText: body.toString('utf8'), ...(!isUtf8(body) && { nonUtf8Body: body }) });
    });
  });
}

/** How deep a request body may nest its arrays and objects: as deep as Python's json goes (its recursion limit). */
const MAX_BODY_DEPTH = 1_000;

/** Node's own limit on a request head; the listener takes more (reference/server.ts) so that the app refuses it with the envelope. */
export const DEFAULT_MAX_HEADER_BYTES = 16 * 1024;

/** What a behaviour that takes large requests reads: a body and a head past the suite's largest (2 MiB, 32 KiB), within the listener's 64 KiB head. */
const LARGE_REQUEST_BYTES = 8 * 1024 * 1024;
const LARGE_HEADER_BYTES = 60 * 1024;

/** The size of the request head as sent: each header line (name, ": ", value, CRLF). */
function headBytes(incoming: IncomingMessage): number {
  let bytes = 0;
  for (let index = 0; index < incoming.rawHeaders.length; index += 2) bytes += Buffer.byteLength(incoming.rawHeaders[index]) + Buffer.byteLength(incoming.rawHeaders[index + 1]) + 4;
  return bytes;
}

function requestLine(incoming: IncomingMessage): Omit<ApiRequest, 'bodyText'> {
  const url = new URL(incoming.url ?? '/', 'http://reference.local');
  return { method: (incoming.method ?? 'GET').toUpperCase(), path: url.pathname.replace(/\/+$/, '') || '/', rawPath: url.pathname, query: url.searchParams, headers: incoming.headers };
}

function toErrorReply(error: unknown): ApiReply {
  if (error instanceof ApiError) return errorReply(error);
  // Never leak a stack trace; an unexpected error is still an envelope.
  console.error('reference server: unexpected error', error);
  return errorReply(new ApiError(500, 'internal_error', 'Unexpected server error'));
}

/** The reply, then the connection closed with whatever of the request body was never read (the peer may see a reset). */
function sendAndClose(incoming: IncomingMessage, outgoing: ServerResponse, reply: ApiReply): void {
  send(outgoing, { ...reply, headers: { ...(reply.headers ?? {}), Connection: 'close' } }, () => incoming.socket.destroy());
}

function send(outgoing: ServerResponse, reply: ApiReply, sent?: () => void): void {
  if (reply.stream) return reply.stream(outgoing);
  const text = reply.rawBody ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  if (text && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = 'application/json; charset=utf-8';
  }
  headers['Content-Length'] = String(typeof text === 'string' ? Buffer.byteLength(text) : text.length);
  outgoing.writeHead(reply.status, headers);
  outgoing.end(text, sent);
}
