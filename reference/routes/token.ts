import { ApiError, type ApiReply, type ApiRequest } from '../http';
import type { AccountRegistry } from '../accounts';

/** POST /token (5.2): client credentials as JSON or a form, answered with access_token. */
export function issueToken(request: ApiRequest, accounts: AccountRegistry): ApiReply {
  const credentials = readCredentials(request);
  const token = accounts.issueToken(credentials.client_id, credentials.client_secret);
  if (!token) throw new ApiError(401, 'invalid_client', 'Unknown client_id or wrong client_secret');
  return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: 3600 } };
}

function readCredentials(request: ApiRequest): Record<string, unknown> {
  if (String(request.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(request.bodyText));
  }
  try {
    const body: unknown = JSON.parse(request.bodyText);
    if (body && typeof body === 'object') return body as Record<string, unknown>;
  } catch {
    // fall through to the error below
  }
  throw new ApiError(400, 'invalid_request', 'Send client_id and client_secret as JSON or as a form');
}
