import { redact } from './redaction';

/** A reason the suite cannot start; one line that names what to fix. */
export class PreflightError extends Error {}

/**
 * One request before any test: is the base URL reachable, does it answer JSON, does it take the token?
 * A problem here is one clear message, not a cascade of failing tests.
 */
export async function preflight(baseUrl: string, token: string, tokenVariable: string, timeoutMs: number): Promise<void> {
  const url = `${baseUrl}/orders?limit=1`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
      signal: AbortSignal.timeout(Math.min(timeoutMs, 10_000)),
      redirect: 'manual',
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = (error as Error).name === 'TimeoutError' ? 'no answer within 10 s' : cause?.code ?? cause?.message ?? (error as Error).message;
    throw new PreflightError(`OMS_BASE_URL=${baseUrl} cannot be reached (${reason}). Check OMS_BASE_URL and that the server is running.`);
  }
  const text = await response.text();
  if (response.status === 401 || response.status === 403) {
    throw new PreflightError(
      `${tokenVariable} was rejected by ${baseUrl} (GET /orders answered ${response.status}). Set ${tokenVariable} to a valid access token` +
        (tokenVariable === 'OMS_TOKEN' ? ' of account A, or set OMS_CLIENT_ID and OMS_CLIENT_SECRET.' : ' of account B, or unset it.'),
    );
  }
  if (response.status >= 300 && response.status < 400) {
    throw new PreflightError(
      `OMS_BASE_URL=${baseUrl}: GET /orders redirects (${response.status} to ${response.headers.get('location') ?? '?'}). Set OMS_BASE_URL to the final address.`,
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
        `with ${response.headers.get('content-type') ?? 'no content type'}, not JSON (${JSON.stringify(redact(text).slice(0, 80))}). ` +
        'Check OMS_BASE_URL, including any path prefix such as /api/v1.',
    );
  }
  if (response.status >= 400 && response.status !== 429) {
    throw new PreflightError(
      `OMS_BASE_URL=${baseUrl}: GET /orders?limit=1 answered ${response.status} (${redact(text).slice(0, 200)}). The suite cannot start until a plain list succeeds.`,
    );
  }
}
