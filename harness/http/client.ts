import { bodyBytes, type Exchange } from '../../contract/exchange';
import { redactedExchange } from './exchange';
import { redact } from '../../config/redaction';
import { currentRunId } from '../../config/settings';
import { noteAnswer, noteTimeout, serverWentSilent } from './silence';
import { HttpTransport, TransportError } from './transport';
import type { Outgoing, RequestSpec, Sender } from './stage';

export type { RequestSpec };


/** No evidence either way, through no fault the suite can pin on a requirement: a connection reset, a silent server. */
export class InconclusiveError extends Error {}


export interface ClientOptions {
  baseUrl: string;
  token: string;
  /** Total deadline of one response: connect, headers and the whole body. */
  timeoutMs: number;
  /** Largest response body read, after decoding (OMS_MAX_RESPONSE_BYTES). */
  maxResponseBytes: number;
  /** The token to send now, when it comes from POST /token (renewed before it expires). */
  currentToken?: () => Promise<string>;
  /** Asked for a fresh token once per request after a 401 (tokens from POST /token expire), given the refused one. */
  renewToken?: (refused: string) => Promise<string | undefined>;
}

/**
 * HTTP to the service under test, one client per account (its own connections, no cookies: see
 * transport.ts for why not Playwright's request context): the transport stage of the request pipeline
 * (harness/requests/pipeline.ts), below the rate gate. Every exchange comes back redacted.
 */
export class OmsClient implements Sender {
  private token: string;
  private readonly transport = new HttpTransport();
  private readonly runId = currentRunId();

  constructor(private readonly options: ClientOptions) {
    this.token = options.token;
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

  /**
   * The transport stage of the request pipeline, at its bottom: one request with this account's credentials, sent
   * again once with a fresh token after a 401 (a token from POST /token may have expired).
   */
  async send({ spec }: Pick<Outgoing, 'spec'>): Promise<Exchange> {
    const search = new URLSearchParams(
      Object.entries(spec.query ?? {}).map(([name, value]) => [name, String(value)]),
    ).toString();
    const path = `${spec.path}${search ? `?${search}` : ''}`;
    const url = `${this.options.baseUrl}${path}`;
    const body = spec.rawBody ?? (spec.json === undefined ? undefined : JSON.stringify(spec.json));
    let renewed = false;
    for (;;) {
      if (this.options.currentToken && !renewed) this.token = await this.options.currentToken();
      const headers: Record<string, string> = { Accept: 'application/json', ...spec.headers };
      const authorization = spec.authorization === undefined ? `Bearer ${this.token}` : spec.authorization;
      if (authorization !== null) headers.Authorization = authorization;
      if (body !== undefined && spec.contentType !== null) headers['Content-Type'] = spec.contentType ?? 'application/json';
      const response = await this.exchange(spec, path, url, headers, body);
      if (response.status === 401 && spec.authorization === undefined && !renewed && this.options.renewToken) {
        // Token lifetimes are not shown (5.3): a token from POST /token is fetched again, once per request.
        renewed = true;
        const fresh = await this.options.renewToken(this.token);
        if (fresh) {
          this.token = fresh;
          continue;
        }
      }
      return redactedExchange({ operationId: spec.operationId, method: spec.method, url, path, headers, body, response });
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
