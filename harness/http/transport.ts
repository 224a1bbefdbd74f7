import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { brotliDecompressSync, constants, createBrotliDecompress, createGunzip, createInflate, gunzipSync, inflateSync } from 'node:zlib';
import type { ExchangeTiming } from '../../contract/exchange';

/**
 * The suite's HTTP transport: node:http/https, because Playwright's APIRequestContext cannot be made safe
 * for a server we do not control (read in playwright-core 1.65, server fetch): it keeps a cookie jar and
 * sends the server's cookies back on every later request (no option turns it off), it buffers a response
 * body of any size and inflates gzip without a limit, and it retries ECONNRESET on the same pooled agent.
 * Here: no cookie jar, no redirect ever followed, a total deadline per response (connect, headers and every
 * body byte), a byte limit on the body after decoding, and one retry on a fresh connection after a reset
 * of a reused keep-alive socket.
 */
export interface HttpRequest {
  /** Absolute URL; its path and query are sent byte for byte (no dot-segment normalisation). */
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Whole exchange, from connect to the last body byte. */
  timeoutMs: number;
  /** Body size limit after decoding (gzip, deflate, br). */
  maxResponseBytes: number;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", " (Set-Cookie with a newline), as Playwright gave them. */
  headers: Record<string, string>;
  body: Buffer;
  timing: ExchangeTiming;
  /** The answer came before the request body was sent (an error on the headers alone, after Expect: 100-continue). */
  answeredBeforeBody?: true;
}

/** When an exchange started and how long each phase took, in milliseconds as HAR 1.2 counts them (-1: the phase did not happen, as on a reused connection). */
export type TransportFailure = 'timeout' | 'too-large' | 'connection-reset' | 'decoding' | 'network';

/** A request that got no complete, bounded answer; `failure` says which way. */
export class TransportError extends Error {
  constructor(
    readonly failure: TransportFailure,
    message: string,
    /** Node's error code of a network failure (ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT …), for a message that says what to do. */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Requests a retry on a fresh connection may repeat: the server has not acted on them twice (RFC 9110 9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/**
 * A body this large goes after the headers only once the server asked for it (Expect: 100-continue, as curl
 * does above 1 MiB): a server or proxy that refuses it on the headers (413, 401, 429) answers before a byte
 * of it is sent, instead of resetting the connection under a client still sending it.
 */
const EXPECT_CONTINUE_BYTES = 1024 * 1024;
/** How long to wait for 100 Continue before sending the body anyway (a server may ignore Expect: RFC 9110 10.1.1). */
const CONTINUE_WAIT_MS = 1_000;
/**
 * How long to wait after a 100 Continue before sending the body: a server that answers 100 before its handler runs
 * (Python's http.server does) and whose handler then refuses the size and closes without reading sends its final
 * answer right behind the 100; a body already on its way would meet the reset that loses that answer.
 */
const CONTINUE_GRACE_MS = 100;

export class HttpTransport {
  // Keep-alive pools of this transport alone: nothing is shared with another account's client.
  private readonly agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

  async send(request: HttpRequest): Promise<HttpResponse> {
    // A POST is never sent on a pooled socket: a reset there would leave unknown whether the order was made.
    const pooled = IDEMPOTENT.has(request.method);
    const expectContinue = (request.body?.length ?? 0) >= EXPECT_CONTINUE_BYTES;
    let response: HttpResponse;
    try {
      response = await this.once(request, pooled, expectContinue);
    } catch (error) {
      if (!(error instanceof StaleSocketError)) throw error;
      // The server closed an idle keep-alive socket as the request went out on it: not the server's fault.
      response = await this.once(request, false, expectContinue);
    }
    // 417: the server does not take the expectation; the request goes again without it (RFC 9110 10.1.1).
    return expectContinue && response.status === 417 ? this.once(request, false, false) : response;
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private once(request: HttpRequest, pooled: boolean, expectContinue: boolean): Promise<HttpResponse> {
    const url = new URL(request.url);
    const secure = url.protocol === 'https:';
    const rawPath = rawPathAndQuery(request.url);
    const clock = exchangeClock(secure);
    return new Promise<HttpResponse>((resolve, reject) => {
      let settled = false;
      let continueWait: NodeJS.Timeout | undefined;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        clearTimeout(continueWait);
        outcome();
      };
      const fail = (error: Error) => finish(() => reject(error));
      const headers: Record<string, string> = {
        'Accept-Encoding': ACCEPT_ENCODING,
        ...request.headers,
        ...(request.body ? { 'Content-Length': String(request.body.length) } : {}),
        ...(pooled ? {} : { Connection: 'close' }),
        ...(expectContinue ? { Expect: '100-continue' } : {}),
      };
      const outgoing = (secure ? httpsRequest : httpRequest)({
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: rawPath,
        method: request.method,
        headers,
        agent: pooled ? (secure ? this.agents.https : this.agents.http) : false,
      });
      const deadline = setTimeout(() => {
        fail(new TransportError('timeout', `no complete answer within ${request.timeoutMs} ms`));
        outgoing.destroy();
      }, request.timeoutMs);
      let answered = false;
      let bodySent = !expectContinue;
      outgoing.on('socket', clock.onSocket);
      outgoing.on('finish', clock.onSent);
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        if (error instanceof TransportError) return fail(error);
        const reset = error.code === 'ECONNRESET' || error.code === 'EPIPE' || /socket hang up/i.test(error.message);
        if (reset && outgoing.reusedSocket && !answered) return fail(new StaleSocketError());
        // An answer that came while the body was still going out is read and judged: the reset that follows it
        // (a server that answers early and closes) is no failure; the body's own read decides.
        if (reset && answered) return;
        if (reset) return fail(new TransportError('connection-reset', `connection reset by the server (${error.code ?? error.message})`));
        fail(new TransportError('network', error.message, error.code));
      });
      outgoing.on('response', (incoming: IncomingMessage) => {
        answered = true;
        clock.onAnswer();
        const early = !bodySent;
        readBody(incoming, request.maxResponseBytes).then(
          (body) => {
            finish(() => resolve({ status: incoming.statusCode ?? 0, headers: flattenHeaders(incoming.headers), body, timing: clock.timing(), ...(early && { answeredBeforeBody: true as const }) }));
            // A request whose body never went out cannot be finished on that connection.
            if (early) outgoing.destroy();
          },
          (error: Error) => {
            fail(error);
            outgoing.destroy();
          },
        );
      });
      if (!expectContinue) return void outgoing.end(request.body);
      const sendBody = () => {
        clearTimeout(continueWait);
        if (bodySent || answered) return;
        bodySent = true;
        outgoing.end(request.body);
      };
      continueWait = setTimeout(sendBody, CONTINUE_WAIT_MS);
      outgoing.on('continue', () => {
        clearTimeout(continueWait);
        continueWait = setTimeout(sendBody, CONTINUE_GRACE_MS);
      });
      outgoing.flushHeaders();
    });
  }
}

/** Marks the phases of one exchange as its events come: connected (a fresh socket only), request sent, first byte of the answer, last byte. */
function exchangeClock(secure: boolean) {
  const startedAt = new Date().toISOString();
  const start = performance.now();
  let connected: number | undefined;
  let sent: number | undefined;
  let answered: number | undefined;
  const since = (from: number, to: number | undefined) => Math.max(0, Math.round(((to ?? from) - from) * 1000) / 1000);
  return {
    onSocket: (socket: Socket) => {
      if (socket.connecting) socket.once(secure ? 'secureConnect' : 'connect', () => (connected = performance.now()));
    },
    onSent: () => (sent = performance.now()),
    onAnswer: () => (answered = performance.now()),
    timing: (): ExchangeTiming => {
      const end = performance.now();
      const sentAt = sent ?? answered ?? end;
      return { startedAt, connect: connected === undefined ? -1 : since(start, connected), send: since(connected ?? start, sentAt), wait: since(sentAt, answered), receive: since(answered ?? end, end) };
    },
  };
}

/** A reset on a reused keep-alive socket before any answer: retried once on a fresh connection. */
class StaleSocketError extends Error {}

/** The body, decoded, as long as it stays within the limit; the stream is abandoned the moment it goes over. */
function readBody(incoming: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = () =>
    new TransportError('too-large', `response body larger than ${maxBytes} bytes (OMS_MAX_RESPONSE_BYTES) after decoding; reading stopped there`);
  const declared = Number(incoming.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    incoming.destroy();
    return Promise.reject(tooLarge());
  }
  const encoding = String(incoming.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder = decoderFor(encoding);
  const body: Readable = decoder ? incoming.pipe(decoder) : incoming;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let stopped = false;
    const stop = (error: Error) => {
      if (stopped) return;
      // The first reason is the one reported: destroying the streams below raises others (aborted, reset).
      stopped = true;
      reject(error);
      incoming.destroy();
      decoder?.destroy();
    };
    body.on('data', (chunk: Buffer) => {
      if (stopped) return;
      size += chunk.length;
      if (size > maxBytes) stop(tooLarge());
      else chunks.push(chunk);
    });
    body.on('end', () => resolve(Buffer.concat(chunks)));
    body.on('error', (error) => stop(decoder ? new TransportError('decoding', `the ${encoding} body does not decode: ${error.message}`) : error));
    incoming.on('aborted', () => stop(new TransportError('connection-reset', 'the server closed the connection in the middle of the body')));
    incoming.on('error', (error) => stop(new TransportError('connection-reset', `the body was cut off: ${error.message}`)));
  });
}

/** What the suite asks of every answer: the content codings it decodes (CODINGS). */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

// Flush modes as Playwright used them: a truncated stream yields what it has instead of an error.
const ZLIB_FLUSH = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_FLUSH = { flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH };

/** The content codings the suite decodes, each as a stream (the transport) and whole (a body already read: the round-trip probe's). */
const CODINGS = {
  gzip: { stream: () => createGunzip(ZLIB_FLUSH), whole: (body: Buffer, maxBytes: number) => gunzipSync(body, { ...ZLIB_FLUSH, maxOutputLength: maxBytes }) },
  deflate: { stream: () => createInflate(ZLIB_FLUSH), whole: (body: Buffer, maxBytes: number) => inflateSync(body, { ...ZLIB_FLUSH, maxOutputLength: maxBytes }) },
  br: { stream: () => createBrotliDecompress(BROTLI_FLUSH), whole: (body: Buffer, maxBytes: number) => brotliDecompressSync(body, { ...BROTLI_FLUSH, maxOutputLength: maxBytes }) },
};

/** The coding a Content-Encoding value names, if the suite decodes it (x-gzip is gzip, RFC 9110 8.4.1.3). */
function codingOf(contentEncoding: string | undefined) {
  const name = String(contentEncoding ?? '').trim().toLowerCase();
  return name === 'gzip' || name === 'x-gzip' ? CODINGS.gzip : name === 'deflate' || name === 'br' ? CODINGS[name] : undefined;
}

/** A stream that decodes a body of this Content-Encoding, or undefined for a body sent as it is. */
export function decoderFor(encoding: string) {
  return codingOf(encoding)?.stream();
}

/**
 * A body already read whole, decoded by its Content-Encoding as the transport decodes every answer (decoderFor), at
 * most `maxBytes` of it: for an answer read outside the transport (the round-trip probe's child process).
 */
export function decodedBody(contentEncoding: string | undefined, body: Buffer, maxBytes: number): Buffer {
  const coding = codingOf(contentEncoding);
  if (!coding || body.length === 0) return body;
  try {
    return coding.whole(body, maxBytes);
  } catch (error) {
    if (error instanceof RangeError) throw new TransportError('too-large', `response body larger than ${maxBytes} bytes after decoding; reading stopped there`);
    throw new TransportError('decoding', `the ${String(contentEncoding).trim()} body does not decode: ${(error as Error).message}`);
  }
}

export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
  }
  return flat;
}

/** The path and query exactly as written after the authority (WHATWG URL parsing would resolve "." and ".."). */
function rawPathAndQuery(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^#]*)/i.exec(url);
  const path = match?.[1] ?? '';
  return path.startsWith('/') ? path : `/${path}`;
}
