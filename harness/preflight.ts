import { redact } from './http/redaction';
import { HttpTransport, TransportError, type HttpResponse } from './http/transport';

/** A reason the suite cannot start; one line that names what to fix. */
export class PreflightError extends Error {}

/**
 * One request before any test: is the base URL reachable, does it answer JSON, does it take the token?
 * A problem here is one clear message, not a cascade of failing tests.
 */
export async function preflight(baseUrl: string, token: string, tokenVariable: string, timeoutMs: number, maxResponseBytes: number): Promise<void> {
  const url = `${baseUrl}/orders?limit=1`;
  let response: HttpResponse;
  // The suite's own transport: bounded in time and size, no redirect followed, like every later request.
  const transport = new HttpTransport();
  try {
    response = await transport.send({
      url,
      method: 'GET',
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
      timeoutMs: Math.min(timeoutMs, 10_000),
      maxResponseBytes,
    });
  } catch (error) {
    const reason = error instanceof TransportError && error.failure === 'timeout' ? 'no complete answer within 10 s' : redact((error as Error).message);
    throw new PreflightError(`OMS_BASE_URL=${baseUrl} cannot be reached (${reason}). Check OMS_BASE_URL and that the server is running.`);
  } finally {
    transport.close();
  }
  const text = response.body.toString('utf8');
  const header = (name: string): string | undefined => response.headers[name];
  if (response.status === 401 || response.status === 403) {
    throw new PreflightError(
      `${tokenVariable} was rejected by ${baseUrl} (GET /orders answered ${response.status}). Set ${tokenVariable} to a valid access token` +
        (tokenVariable === 'OMS_TOKEN' ? ' of account A, or set OMS_CLIENT_ID and OMS_CLIENT_SECRET.' : ' of account B, or unset it.'),
    );
  }
  if (response.status >= 300 && response.status < 400) {
    throw new PreflightError(
      `OMS_BASE_URL=${baseUrl}: GET /orders redirects (${response.status} to ${JSON.stringify(redact(header('location') ?? '?'))}). Set OMS_BASE_URL to the final address.`,
    );
  }
  let json = true;
  try {
    JSON.parse(text);
  } catch {
    json = false;
  }
  if (!json) {
    throw new PreflightError(
      `OMS_BASE_URL=${baseUrl} does not look like the Order Management Service: GET /orders answered ${response.status} ` +
        `with ${JSON.stringify(redact(header('content-type') ?? 'no content type'))}, not JSON (${JSON.stringify(redact(text).slice(0, 80))}). ` +
        'Check OMS_BASE_URL, including any path prefix such as /api/v1.',
    );
  }
  if (response.status >= 400 && response.status !== 429) {
    throw new PreflightError(
      `OMS_BASE_URL=${baseUrl}: GET /orders?limit=1 answered ${response.status} (${redact(text).slice(0, 200)}). The suite cannot start until a plain list succeeds.`,
    );
  }
}
