import { setTimeout as sleep } from 'node:timers/promises';
import type { OperationId } from '../../contract/openapi';
import { bodyBytes, type Exchange } from '../../contract/exchange';
import { redactedExchange, redactHeaders } from './exchange';
import { redact } from '../../config/redaction';
import { currentRunId } from '../../config/settings';
import { noteAnswer, noteTimeout, serverWentSilent } from './silence';
import { HttpTransport, TransportError } from './transport';
import { RequestGate } from './gate';

export interface RequestSpec {
  operationId?: OperationId;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Path below the base URL, e.g. /orders/123 (already encoded). */
  path: string;
  query?: Record<string, string | number>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is (malformed JSON, empty bodies, oversized bodies); bytes that are not UTF-8 written as contract/exchange.ts nonUtf8Byte writes them. */
  rawBody?: string;
  /** Content-Type of the body: application/json unless given; null sends the body without one. */
  contentType?: string | null;
  /** Authorization header value; undefined: "Bearer <token>" of this client; null: no header. */
  authorization?: string | null;
  /** Headers of the request's own, beside those above (an oversized one). */
  headers?: Record<string, string>;
}

/** A 429 or 503 that outlasted every retry: never evidence for or against a requirement. */
export class RateLimitedError extends Error {}

/** No evidence either way, through no fault the suite can pin on a requirement: a connection reset, a silent server. */
export class InconclusiveError extends Error {}


export interface ClientOptions {
  baseUrl: string;
  token: string;
  /** Total deadline of one response: connect, headers and the whole body. */
  timeoutMs: number;
  /** Largest response body read, after decoding (OMS_MAX_RESPONSE_BYTES). */
  maxResponseBytes: number;
  /** Bounded waits on 429/503 with Retry-After. */
  maxRetries?: number;
  /** Every request passes it: the worker's in-flight cap, request-rate cap and rate-limit pauses (shared by its accounts). */
  gate?: RequestGate;
  /** The token to send now, when it comes from POST /token (renewed before it expires). */
  currentToken?: () => Promise<string>;
  /** Asked for a fresh token once per request after a 401 (tokens from POST /token expire), given the refused one. */
  renewToken?: (refused: string) => Promise<string | undefined>;
}

const MAX_RETRY_WAIT_MS = 10_000;

/**
 * HTTP to the service under test, one client per account (its own connections, no cookies: see
 * transport.ts for why not Playwright's request context); every exchange comes back redacted.
 */
export class OmsClient {
  private token: string;
  private readonly transport = new HttpTransport();
  private readonly runId = currentRunId();
  private readonly gate: RequestGate;
  /** Requests this client has sent, each retry counted (the progress line and the report count them). */
  requestsSent = 0;

  constructor(private readonly options: ClientOptions) {
    this.token = options.token;
    this.gate = options.gate ?? new RequestGate({ maxInFlight: 1 });
  }

  close(): void {
    this.transport.close();
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** The bearer token requests go out with now (renewed first when it comes from POST /token and is about to expire). */
  async bearerToken(): Promise<string> {
    if (this.options.currentToken) this.token = await this.options.currentToken();
    return this.token;
  }

  async send(spec: RequestSpec): Promise<Exchange> {
    const search = new URLSearchParams(
      Object.entries(spec.query ?? {}).map(([name, value]) => [name, String(value)]),
    ).toString();
    const path = `${spec.path}${search ? `?${search}` : ''}`;
    const url = `${this.options.baseUrl}${path}`;
    const body = spec.rawBody ?? (spec.json === undefined ? undefined : JSON.stringify(spec.json));
    const maxRetries = this.options.maxRetries ?? 4;
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      if (this.options.currentToken && !renewed) this.token = await this.options.currentToken();
      const headers: Record<string, string> = { Accept: 'application/json', ...spec.headers };
      const authorization = spec.authorization === undefined ? `Bearer ${this.token}` : spec.authorization;
      if (authorization !== null) headers.Authorization = authorization;
      if (body !== undefined && spec.contentType !== null) headers['Content-Type'] = spec.contentType ?? 'application/json';
      this.requestsSent++;
      const response = await this.gate.run(() => this.exchange(spec, path, url, headers, body));
      const { status } = response;
      const responseHeaders = redactHeaders(response.headers);
      if ((status === 429 || status === 503) && attempt < maxRetries) {
        // The whole worker holds back, not only this request: its other requests in flight would meet the same limit.
        const delay = retryDelay(responseHeaders['retry-after'], attempt);
        this.gate.pauseFor(delay);
        await sleep(delay);
        continue;
      }
      if (status === 429) {
        throw new RateLimitedError(`${spec.method} ${path} was still rate limited (429) after ${attempt} retries`);
      }
      if (status === 401 && spec.authorization === undefined && !renewed && this.options.renewToken) {
        // Token lifetimes are not shown (5.3): a token from POST /token is fetched again, once per request.
        renewed = true;
        const fresh = await this.options.renewToken(this.token);
        if (fresh) {
          this.token = fresh;
          continue;
        }
      }
      return redactedExchange({ operationId: spec.operationId, method: spec.method, url, path, headers, body, response, retries: attempt });
    }
  }

  /** One request over the transport; a transport failure becomes an error that says what to do about it. */
  private async exchange(spec: RequestSpec, path: string, url: string, headers: Record<string, string>, body: string | undefined) {
    const silence = serverWentSilent(this.runId);
    if (silence) throw new InconclusiveError(silence);
    try {
      const response = await this.transport.send({
        url,
        method: spec.method,
        headers,
        body: body === undefined ? undefined : bodyBytes(body),
        timeoutMs: this.options.timeoutMs,
        maxResponseBytes: this.options.maxResponseBytes,
      });
      noteAnswer(this.runId);
      return response;
    } catch (error) {
      const request = `${spec.method} ${redact(path)}`;
      if (!(error instanceof TransportError)) throw new Error(`${request} failed: ${redact((error as Error).message.split('\n')[0])}`);
      if (error.failure === 'timeout') {
        noteTimeout(this.runId, this.options.timeoutMs);
        // No answer is no evidence about the requirement under test; the run as a whole cannot certify either.
        throw new InconclusiveError(`${request} got no complete answer: ${error.message}, a deadline for headers and the whole body (raise OMS_REQUEST_TIMEOUT_MS if the server is just slow)`);
      }
      if (error.failure === 'connection-reset') throw new InconclusiveError(`connection reset (${request}: ${redact(error.message)})`);
      throw new Error(`${request} failed: ${redact(error.message)}`);
    }
  }
}

/** Retry-After in seconds or as an HTTP date; without it, exponential back-off. */
function retryDelay(retryAfter: string | undefined, attempt: number): number {
  const seconds = Number(retryAfter);
  if (retryAfter && Number.isFinite(seconds)) return Math.min(seconds * 1000, MAX_RETRY_WAIT_MS);
  const date = retryAfter ? Date.parse(retryAfter) : NaN;
  if (Number.isFinite(date)) return Math.min(Math.max(date - Date.now(), 0), MAX_RETRY_WAIT_MS);
  return Math.min(250 * 2 ** attempt, MAX_RETRY_WAIT_MS);
}
