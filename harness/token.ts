import { redact, registerSecret } from './redaction';

/** POST /token with client credentials (5.2); the request format is not shown (5.3), so JSON is sent. */
export async function fetchToken(baseUrl: string, clientId: string, clientSecret: string, timeoutMs: number): Promise<string> {
  const response = await fetch(`${baseUrl}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    signal: AbortSignal.timeout(timeoutMs),
    // Client credentials go to OMS_BASE_URL's origin and nowhere else: a redirect is reported, never followed.
    redirect: 'manual',
  });
  const text = await response.text();
  if (response.status >= 300 && response.status < 400) {
    const location = JSON.stringify(redact(response.headers.get('location') ?? '(no Location header)'));
    throw new Error(
      `POST /token answered ${response.status}, a redirect to ${location}; the suite does not follow it, so the client credentials go nowhere else. ` +
        'Set OMS_BASE_URL to the address that answers POST /token itself.',
    );
  }
  let token: unknown;
  try {
    token = (JSON.parse(text) as { access_token?: unknown }).access_token;
  } catch {
    token = undefined;
  }
  if (!response.ok || typeof token !== 'string' || !token) {
    throw new Error(
      `POST /token with OMS_CLIENT_ID did not give an access_token (status ${response.status}: ${redact(text).slice(0, 200)}). ` +
        'Check OMS_CLIENT_ID and OMS_CLIENT_SECRET, or set OMS_TOKEN instead.',
    );
  }
  // Whoever asked for it, a token is a secret from now on: no output of this process may show it.
  registerSecret(token, '$OMS_TOKEN');
  return token;
}
