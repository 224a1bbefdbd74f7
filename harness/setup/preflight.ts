import { connect } from 'node:net';
import { ConfigurationError } from '../../config/exit-codes';
import { settingName, settingWithValue, type AccountName } from '../../config/settings';
import { requestLine } from '../../contract/operations';
import { redact } from '../../config/redaction';
import { quoted } from '../../config/safe-text';
import { HttpTransport, TransportError, type HttpResponse } from '../http/transport';
import { redactedExchange } from '../http/exchange';
import { judgeOutsideTests } from '../record/outside-tests';

/** A reason the suite cannot start; one line that names what to fix (exit code 2, like a wrong setting), server text made visible where it is printed (configurationMessage). */
export class PreflightError extends ConfigurationError {}

/** The base URL as the user gave it: `--base-url URL` or `OMS_BASE_URL=URL`. */
const givenBaseUrl = (baseUrl: string): string => settingWithValue('baseUrl', baseUrl);

/** Certificate errors Node reports for an issuer it does not trust: the fix is to give it the CA. */
const UNTRUSTED_ISSUER = ['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT', 'CERT_UNTRUSTED'];

/**
 * What to do about a TLS certificate the connection refused (empty for any other failure): the private
 * CA given to Node (NODE_EXTRA_CA_CERTS), never verification turned off.
 */
export function certificateAdvice(error: unknown): string {
  const code = error instanceof TransportError ? error.code : undefined;
  if (code && UNTRUSTED_ISSUER.includes(code)) {
    return (
      ` The server's TLS certificate is not signed by a CA Node trusts (${code}). If it comes from a private CA, give Node that CA: ` +
      'NODE_EXTRA_CA_CERTS=/path/to/ca.pem (PEM, one or more certificates), set in the environment of the command, which reads it at start-up.'
    );
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return ` The server's TLS certificate is outside its validity dates (${code}): renew it, or check this machine's clock.`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return ` The server's TLS certificate does not name this host (${code}): use in ${settingName('baseUrl')} the host name the certificate was issued for.`;
  return '';
}

/**
 * One request before any test: is the base URL reachable, is it this interface at all, does it take the
 * token? A target that is clearly something else (unreachable, a redirect, a page of markup, a list that
 * answers 4xx or 5xx, a JSON answer with nothing of the list envelope) or a rejected token is one clear
 * message, not a cascade of failing tests. A list that answers 2xx but not in JSON is this interface
 * with a defect: the run goes on so ORD-GEN-001 can report it, and the note returned says so.
 */
export async function preflight(baseUrl: string, token: string, account: AccountName, timeoutMs: number, maxResponseBytes: number, runId?: string): Promise<string | undefined> {
  const { method, path } = requestLine('listOrders');
  const url = `${baseUrl}${path}?limit=1`;
  let response: HttpResponse;
  // The suite's own transport: bounded in time and size, no redirect followed, like every later request.
  const transport = new HttpTransport();
  const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
  try {
    // The deadline every later request has: a server this slow would fail them all anyway.
    response = await transport.send({ url, method, headers, timeoutMs, maxResponseBytes });
  } catch (error) {
    throw await unanswered(baseUrl, url, error, timeoutMs);
  } finally {
    transport.close();
  }
  // An answer of the run like any other: held to what every response must be, whatever the preflight decides.
  judgeOutsideTests(`the preflight of account ${account} (GET /orders?limit=1 before the tests)`, redactedExchange({ operationId: 'listOrders', method, url, path: `${path}?limit=1`, headers, response }), runId);
  const text = response.body.toString('utf8');
  const header = (name: string): string | undefined => response.headers[name];
  if (response.status === 401 || response.status === 403) {
    const token = settingName(account === 'A' ? 'token' : 'tokenB');
    const fileToo = token.startsWith('--') && !token.endsWith('-file') ? ` (or ${token}-file)` : '';
    throw new PreflightError(
      `The token of ${token} was rejected by ${baseUrl} (GET /orders answered ${response.status}). Give a valid access token with ${token}${fileToo}` +
        (account === 'A' ? ` of account A, or ${settingName('clientId')} and ${settingName('clientSecret')}.` : ' of account B, or leave it out.'),
    );
  }
  if (response.status >= 300 && response.status < 400) {
    throw new PreflightError(
      `${givenBaseUrl(baseUrl)}: GET /orders redirects (${response.status} to "${redact(header('location') ?? '?')}"). Give ${settingName('baseUrl')} the final address.`,
    );
  }
  let json = true;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    json = false;
  }
  // A page of markup is another site (a wrong base URL, a login page, a proxy's error page): nothing to test.
  // Any other answer is this interface's to be judged: a list that is not JSON fails ORD-GEN-001, not the start.
  const contentType = header('content-type') ?? '';
  if (!json && (/html|xml/i.test(contentType) || text.trimStart().startsWith('<'))) {
    throw new PreflightError(
      `${givenBaseUrl(baseUrl)} does not look like the Order Management Service: GET /orders answered ${response.status} ` +
        `with "${redact(contentType || 'no content type')}", a page of markup, not JSON ("${redact(text).slice(0, 80)}"). ` +
        `Check ${settingName('baseUrl')}, including any path prefix such as /api/v1.`,
    );
  }
  if (response.status >= 400 && response.status !== 429) {
    // A JSON 404 is most often an API gateway or framework answering for a path it does not have: the prefix is missing.
    const prefix = response.status === 404 ? ` There is no /orders at ${baseUrl}: check ${settingName('baseUrl')}, including any path prefix such as /api/v1.` : '';
    throw new PreflightError(
      `${givenBaseUrl(baseUrl)}: GET /orders?limit=1 answered ${response.status} (${redact(text).slice(0, 200)}). The suite cannot start until a plain list succeeds.${prefix}`,
    );
  }
  if (json && response.status < 300 && !looksLikeTheList(body)) {
    throw new PreflightError(
      `${givenBaseUrl(baseUrl)} does not look like the Order Management Service: GET /orders?limit=1 answered ${response.status} with JSON ` +
        `that has none of the list's fields (${LIST_ENVELOPE.join(', ')}): ${redact(text).slice(0, 80)}. Check ${settingName('baseUrl')}, including any path prefix such as /api/v1.`,
    );
  }
  if (!json) {
    return `GET /orders?limit=1 answered ${response.status} with ${quoted(redact(contentType || 'no content type'))} and a body that is not JSON: the run goes on, and ORD-GEN-001 judges it.`;
  }
  return undefined;
}

/** The fields of the list envelope (4.1): an answer of this interface to GET /orders, right or wrong, has one of them. */
const LIST_ENVELOPE = ['success', 'meta', 'data'];

/**
 * Whether a JSON answer to GET /orders can be this interface's list: an object with a field of the
 * envelope (a defective one is judged by the tests: ORD-FORM-002, ORD-LIST-001), or an array (orders
 * without their envelope). A JSON answer with none of these ({"status":"ok"}, a number) is another service.
 */
function looksLikeTheList(body: unknown): boolean {
  if (Array.isArray(body)) return true;
  return typeof body === 'object' && body !== null && LIST_ENVELOPE.some((field) => field in body);
}

/** Connecting alone, as long as the preflight may wait: tells a server that is up but slow from one that is not there. */
const CONNECT_PROBE_MS = 5_000;

/**
 * Why the preflight's request got no answer, as one message: a server that accepts connections but did
 * not answer within the timeout is slow (raise the timeout), not unreachable (check the URL and the server).
 */
async function unanswered(baseUrl: string, url: string, error: unknown, timeoutMs: number): Promise<PreflightError> {
  const timeout = settingName('requestTimeoutMs');
  if (error instanceof TransportError && error.failure === 'timeout' && (await accepts(url, Math.min(timeoutMs, CONNECT_PROBE_MS)))) {
    return new PreflightError(
      `${givenBaseUrl(baseUrl)} accepts connections but did not answer GET /orders?limit=1 within ${timeoutMs} ms (${timeout}). ` +
        `If the server is only slow, raise ${timeout}; every request of the run gets that deadline.`,
    );
  }
  const reason = error instanceof TransportError && error.failure === 'timeout' ? `no answer within ${timeoutMs} ms, and no connection opens` : redact((error as Error).message);
  const advice = certificateAdvice(error) || ` Check ${settingName('baseUrl')} and that the server is running.`;
  return new PreflightError(`${givenBaseUrl(baseUrl)} cannot be reached (${reason}).${advice}`);
}

/** Whether a TCP connection to the URL's host and port opens within the time. */
function accepts(url: string, withinMs: number): Promise<boolean> {
  const { hostname, port, protocol } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || (protocol === 'https:' ? 443 : 80)) });
    const done = (open: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(open);
    };
    const timer = setTimeout(() => done(false), withinMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
