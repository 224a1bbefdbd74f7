import { redact, registerSecret } from './redaction';

/** POST /token with client credentials (5.2); the request format is not shown (5.3), so JSON is sent. */
export async function fetchToken(baseUrl: string, clientId: string, clientSecret: string, timeoutMs: number): Promise<string> {
  const response = await fetch(`${baseUrl}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
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
