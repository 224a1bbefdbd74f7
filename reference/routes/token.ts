import { ApiError, type ApiReply, type ApiRequest } from '../http';
import type { AccountRegistry } from '../accounts';

/** How the clean reference issues tokens; a variant may narrow the formats or shorten the lifetime. */
export interface TokenPolicy {
  /** Ways of sending client credentials the endpoint takes. */
  accepts: ReadonlyArray<'json' | 'form' | 'basic'>;
  lifetimeSeconds: number;
}

export const OPEN_TOKEN_POLICY: TokenPolicy = { accepts: ['json', 'form', 'basic'], lifetimeSeconds: 3600 };

/** POST /token (5.2): client credentials as JSON, a form or HTTP Basic (RFC 6749 §2.3.1), answered with access_token. */
export function issueToken(request: ApiRequest, accounts: AccountRegistry, policy: TokenPolicy = OPEN_TOKEN_POLICY): ApiReply {
  const { format, credentials } = readCredentials(request);
  if (!policy.accepts.includes(format)) {
    throw new ApiError(400, 'invalid_request', `Send the client credentials as ${policy.accepts.join(' or ')}, not as ${format}`);
  }
  const token = accounts.issueToken(credentials.client_id, credentials.client_secret, policy.lifetimeSeconds * 1000);
  if (!token) throw new ApiError(401, 'invalid_client', 'Unknown client_id or wrong client_secret');
  return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: policy.lifetimeSeconds } };
}

function readCredentials(request: ApiRequest): { format: TokenPolicy['accepts'][number]; credentials: Record<string, unknown> } {
  const basic = /^Basic\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''));
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const at = decoded.indexOf(':');
    if (at < 0) throw new ApiError(400, 'invalid_request', 'HTTP Basic credentials must be client_id:client_secret');
    const part = (text: string) => new URLSearchParams(`v=${text}`).get('v') ?? '';
    return { format: 'basic', credentials: { client_id: part(decoded.slice(0, at)), client_secret: part(decoded.slice(at + 1)) } };
  }
  if (String(request.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) {
    return { format: 'form', credentials: Object.fromEntries(new URLSearchParams(request.bodyText)) };
  }
  try {
    const body: unknown = JSON.parse(request.bodyText);
    if (body && typeof body === 'object') return { format: 'json', credentials: body as Record<string, unknown> };
  } catch {
    // fall through to the error below
  }
  throw new ApiError(400, 'invalid_request', 'Send client_id and client_secret as JSON, as a form or with HTTP Basic');
}
