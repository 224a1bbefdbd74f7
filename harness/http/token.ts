import { requestLine } from '../../contract/operations';
import { redact, registerSecret } from '../../config/redaction';
import { HttpTransport } from './transport';
import { redactedExchange } from './exchange';
import type { Exchange } from '../../contract/exchange';
import { settingName, settingWithValue, type AccountName, type Settings } from '../../config/settings';
import { TOKEN_AUTH_METHODS, type TokenAuth } from '../../config/token-auth';

/** The client credentials of one account, and the variable that stands for its token in any output. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  /** $OMS_TOKEN or $OMS_TOKEN_B. */
  placeholder: string;
  /** The variables to fix when the credentials are refused, for the message. */
  variables: string;
}

export interface IssuedToken {
  accessToken: string;
  /** How the credentials were sent. */
  auth: TokenAuth;
  /** When the token expires (epoch ms), from expires_in; undefined when the answer did not say. */
  expiresAt?: number;
  /** Lifetime in ms from expires_in, for the renewal margin. */
  lifetimeMs?: number;
}

/** The client credentials of account A or B from the settings; undefined when that account has a fixed token (or none). */
export function clientCredentials(settings: Settings, account: AccountName): ClientCredentials | undefined {
  const [clientId, clientSecret] = account === 'A' ? [settings.clientId, settings.clientSecret] : [settings.clientIdB, settings.clientSecretB];
  if (!clientId || !clientSecret) return undefined;
  const suffix = account === 'A' ? '' : '_B';
  const names = account === 'A' ? (['clientId', 'clientSecret'] as const) : (['clientIdB', 'clientSecretB'] as const);
  return { clientId, clientSecret, placeholder: `$OMS_TOKEN${suffix}`, variables: names.map((name) => settingName(name)).join(' and ') };
}

/** A token answer is a few hundred bytes; anything past this is not one. */
const MAX_TOKEN_ANSWER_BYTES = 1024 * 1024;

/** POST /token refused every way of sending the credentials it was asked to try. */
export class TokenError extends Error {}

/**
 * Obtains a token with the given method, or, without one, tries form, then JSON, then HTTP Basic and
 * keeps the first the server accepts. The token is registered as a secret the moment it arrives.
 */
export async function fetchToken(baseUrl: string, credentials: ClientCredentials, auth: TokenAuth | undefined, timeoutMs: number, onAnswer?: (exchange: Exchange) => void): Promise<IssuedToken> {
  const refusals: string[] = [];
  for (const method of auth ? [auth] : TOKEN_AUTH_METHODS) {
    const outcome = await requestToken(baseUrl, credentials, method, timeoutMs, onAnswer);
    if (typeof outcome !== 'string') return outcome;
    refusals.push(`${method}: ${outcome}`);
  }
  const tried = auth ? `with ${settingWithValue('tokenAuth', auth)}` : `as a form, as JSON and with HTTP Basic (${TOKEN_AUTH_METHODS.join(', ')})`;
  throw new TokenError(
    `POST /token with ${credentials.variables.split(' and ')[0]} did not give an access_token ${tried}: ${refusals.join('; ')}. ` +
      `Check ${credentials.variables}${auth ? `, or ${settingName('tokenAuth')}` : ''}, or give the token itself instead.`,
  );
}

/** One POST /token; the token, or why it was not given (redacted, short). `onAnswer` is handed the exchange, its secrets redacted. */
async function requestToken(baseUrl: string, credentials: ClientCredentials, auth: TokenAuth, timeoutMs: number, onAnswer?: (exchange: Exchange) => void): Promise<IssuedToken | string> {
  const fields = { grant_type: 'client_credentials', client_id: credentials.clientId, client_secret: credentials.clientSecret };
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: string;
  if (auth === 'json') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(fields);
  } else {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(auth === 'form' ? fields : { grant_type: fields.grant_type }).toString();
    if (auth === 'basic') {
      // RFC 6749 §2.3.1: each part form-encoded before the Basic encoding.
      const basic = Buffer.from(`${formEncode(credentials.clientId)}:${formEncode(credentials.clientSecret)}`).toString('base64');
      registerSecret(basic, credentials.placeholder.replace('TOKEN', 'CLIENT_SECRET'));
      headers.Authorization = `Basic ${basic}`;
    }
  }
  // The suite's bounded transport: a total deadline, a size limit, no cookie, no redirect followed.
  const transport = new HttpTransport();
  const { method, path } = requestLine('issueToken');
  const response = await transport
    .send({ url: `${baseUrl}${path}`, method, headers, body: Buffer.from(body, 'utf8'), timeoutMs, maxResponseBytes: MAX_TOKEN_ANSWER_BYTES })
    .finally(() => transport.close());
  const text = response.body.toString('utf8');
  if (response.status >= 300 && response.status < 400) {
    // Client credentials go to OMS_BASE_URL's origin and nowhere else: a redirect is reported, never followed.
    const location = JSON.stringify(redact(response.headers.location ?? '(no Location header)'));
    throw new TokenError(
      `POST /token answered ${response.status}, a redirect to ${location}; the suite does not follow it, so the client credentials go nowhere else. ` +
        `Give ${settingName('baseUrl')} the address that answers POST /token itself.`,
    );
  }
  let answer: { access_token?: unknown; expires_in?: unknown } = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') answer = parsed as typeof answer;
  } catch {
    // not JSON: no access_token, said below
  }
  const token = answer.access_token;
  if (typeof token === 'string' && token) {
    // Whoever asked for it, a token is a secret from now on: no output of this process may show it.
    registerSecret(token, credentials.placeholder);
  }
  onAnswer?.(redactedExchange({ operationId: 'issueToken', method, url: `${baseUrl}${path}`, path, headers, body, response }));
  if (response.status < 200 || response.status >= 300 || typeof token !== 'string' || !token) {
    return `status ${response.status}, ${JSON.stringify(redact(text).slice(0, 160))}`;
  }
  const seconds = typeof answer.expires_in === 'string' ? Number(answer.expires_in) : answer.expires_in;
  const lifetimeMs = typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
  return { accessToken: token, auth, lifetimeMs, expiresAt: lifetimeMs === undefined ? undefined : Date.now() + lifetimeMs };
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** Renew this long before expiry: a quarter of the lifetime, at most 30 s (a request in flight must not outlive it). */
export function renewalMargin(lifetimeMs: number): number {
  return Math.min(lifetimeMs / 4, 30_000);
}

/**
 * The token of one account that obtains it from POST /token: fetched when first needed (or taken from
 * the global setup), fetched again shortly before it expires and after a 401, one fetch at a time
 * however many requests wait.
 */
export class TokenSource {
  private issued?: HeldToken;
  private pending?: Promise<IssuedToken>;

  /** `initial`: a token obtained before (by the global setup), used until it is refused; its lifetime is unknown here. */
  constructor(
    private readonly obtain: () => Promise<IssuedToken>,
    initial?: string,
  ) {
    if (initial) this.issued = { accessToken: initial };
  }

  /** A token that is not about to expire. */
  async current(): Promise<string> {
    const issued = this.issued;
    if (issued && fresh(issued)) return issued.accessToken;
    return (await this.renew(issued?.accessToken)).accessToken;
  }

  /** A new token, unless another caller already replaced `stale` (the token that was refused). */
  async renew(stale?: string): Promise<HeldToken> {
    if (this.issued && this.issued.accessToken !== stale && !this.pending && fresh(this.issued)) return this.issued;
    this.pending ??= this.obtain().finally(() => (this.pending = undefined));
    this.issued = await this.pending;
    return this.issued;
  }
}

type HeldToken = Pick<IssuedToken, 'accessToken' | 'expiresAt' | 'lifetimeMs'>;

function fresh({ expiresAt, lifetimeMs }: HeldToken): boolean {
  return expiresAt === undefined || Date.now() < expiresAt - renewalMargin(lifetimeMs ?? 0);
}
