import { DEVELOPMENT_ACCOUNTS } from '../../../reference/accounts';
import { ApiError, errorReply } from '../../../reference/http';
import { trailingSlashServedAsAccountA } from './anomalies';
import { bearerToken, fault, is, operationOf, withAuthorization, withStatus, type FaultDefinition, type Hooks, type Operation } from './kit';

const [ACCOUNT_A] = DEVELOPMENT_ACCOUNTS;

/** Authentication (sections 4 and 5) and isolation between accounts (section 1). */
export const AUTH_FAULTS: FaultDefinition[] = [
  fault({
    id: 'auth-no-token-accepted',
    level: 'MUST',
    catches: ['ORD-AUTH-001'],
    collateral: [
      { requirement: 'ORD-AUTH-006', reason: 'a request without credentials is served, so it does not get 401 either' },
      { requirement: 'ORD-AUTH-007', reason: 'a request without credentials is served whatever the spelling of its path, a trailing slash included' },
    ],
    subtle: false,
    description: 'A request without the Authorization header is served as account A.',
    hooks: () => ({
      rewriteRequest: (request) => (request.headers.authorization ? request : withAuthorization(request, `Bearer ${ACCOUNT_A.developmentToken}`)),
    }),
  }),
  fault({
    id: 'auth-trailing-slash-skips-auth',
    level: 'MUST',
    catches: ['ORD-AUTH-007'],
    subtle: true,
    description: 'A request without the Authorization header to /orders/ or /orders/{id}/ (a trailing slash) is served as account A: the authentication middleware is mounted on the exact paths only.',
    hooks: () => trailingSlashServedAsAccountA(['list', 'create', 'get', 'update', 'delete']),
  }),
  fault({
    id: 'auth-any-scheme-accepted',
    level: 'SHOULD',
    catches: ['ORD-AUTH-003'],
    collateral: [
      { requirement: 'ORD-AUTH-006', reason: 'a token sent with another scheme is served, so it does not get 401 either' },
    ],
    subtle: false,
    description: 'A valid token is accepted with any scheme ("Token …", "Basic …") or with none.',
    hooks: () => ({
      rewriteRequest: (request) => {
        const header = request.headers.authorization;
        return header && !/^Bearer /i.test(header) ? withAuthorization(request, `Bearer ${header.split(/\s+/).pop()}`) : request;
      },
    }),
  }),
  fault({
    id: 'auth-unknown-token-accepted',
    level: 'MUST',
    catches: ['ORD-AUTH-004'],
    collateral: [
      { requirement: 'ORD-AUTH-006', reason: 'an unknown token is served, so it does not get 401 either' },
    ],
    subtle: false,
    description: 'A bearer token that was never issued is served as account A.',
    hooks: () => {
      return {
        rewriteRequest: (request, { accounts }) => {
          const token = bearerToken(request);
          return token && !accounts.accountFor(token) ? withAuthorization(request, `Bearer ${ACCOUNT_A.developmentToken}`) : request;
        },
      };
    },
  }),
  fault({
    id: 'auth-token-prefix-accepted',
    level: 'MUST',
    catches: ['ORD-AUTH-004'],
    collateral: [
      { requirement: 'ORD-AUTH-006', reason: 'a near-miss token is served, so it does not get 401 either' },
    ],
    subtle: true,
    description: 'A bearer token that starts with a valid token, or that a valid token starts with, is accepted (a prefix comparison).',
    hooks: () => nearMissAccepted((sent, valid) => sent.length >= 8 && (sent.startsWith(valid) || valid.startsWith(sent))),
  }),
  fault({
    id: 'auth-token-case-insensitive',
    level: 'MUST',
    catches: ['ORD-AUTH-004'],
    collateral: [
      { requirement: 'ORD-AUTH-006', reason: 'a near-miss token is served, so it does not get 401 either' },
    ],
    subtle: true,
    description: 'Bearer tokens are compared without regard to case.',
    hooks: () => nearMissAccepted((sent, valid) => sent.toLowerCase() === valid.toLowerCase()),
  }),
  fault({
    id: 'auth-token-last-character-ignored',
    level: 'MUST',
    catches: ['ORD-AUTH-004'],
    collateral: [
      { requirement: 'ORD-AUTH-006', reason: 'a near-miss token is served, so it does not get 401 either' },
    ],
    subtle: true,
    description: 'Bearer tokens are compared on all but their last character.',
    hooks: () => nearMissAccepted((sent, valid) => sent.length === valid.length && sent.slice(0, -1) === valid.slice(0, -1)),
  }),
  fault({
    id: 'auth-403-instead-of-401',
    level: 'SHOULD',
    catches: ['ORD-AUTH-006'],
    subtle: false,
    description: 'A missing or invalid token gets 403 instead of 401.',
    hooks: () => ({
      rewriteReply: (_request, reply) =>
        reply.status === 401 ? withStatus(reply, 403) : reply,
    }),
  }),
  fault({
    id: 'auth-b-reads-a',
    level: 'SHOULD',
    catches: ['ORD-ISO-001'],
    subtle: false,
    description: 'Get finds an order in any account: account B reads account A\'s orders.',
    hooks: () => actingAsOwner('get'),
  }),
  fault({
    id: 'auth-b-updates-a',
    level: 'SHOULD',
    catches: ['ORD-ISO-002'],
    subtle: false,
    description: 'Update finds an order in any account: account B changes account A\'s orders.',
    hooks: () => actingAsOwner('update'),
  }),
  fault({
    id: 'auth-b-deletes-a',
    level: 'SHOULD',
    catches: ['ORD-ISO-003'],
    subtle: false,
    description: 'Delete finds an order in any account: account B deletes account A\'s orders.',
    hooks: () => actingAsOwner('delete'),
  }),
  fault({
    id: 'auth-valid-token-refused-on-delete',
    level: 'MUST',
    catches: ['ORD-AUTH-002'],
    collateral: [
      { requirement: 'ORD-DELETE-001', reason: "every delete is refused with 401, a delete of the caller's own order too" },
      { requirement: 'ORD-DELETE-003', reason: 'every delete is refused with 401, a delete of an unknown id too' },
    ],
    subtle: false,
    description: 'DELETE /orders/{id} refuses every bearer token with 401, valid ones included.',
    hooks: () => ({
      intercept: (request) => (is(request, 'delete') ? errorReply(new ApiError(401, 'unauthorized', 'The access token is not valid')) : undefined),
    }),
  }),
  fault({
    id: 'auth-only-first-issued-token-valid',
    level: 'MUST',
    catches: ['ORD-AUTH-005'],
    subtle: true,
    description: 'POST /token answers a new access_token each time, but only the first one it issued to each account is accepted.',
    hooks: () => {
      // Only tokens POST /token answered count: development tokens stay valid, as a fixed OMS_TOKEN would.
      const issued = new Set<string>();
      const firstOf = new Map<string, string>();
      return {
        rewriteReply: (request, reply, { accounts }) => {
          const token = (reply.body as { access_token?: unknown } | undefined)?.access_token;
          const account = typeof token === 'string' ? accounts.accountFor(token) : undefined;
          if (is(request, 'token') && typeof token === 'string' && account) {
            if (!firstOf.has(account.id)) firstOf.set(account.id, token);
            issued.add(token);
          }
          return reply;
        },
        rewriteRequest: (request, { accounts }) => {
          const token = bearerToken(request);
          const account = token ? accounts.accountFor(token) : undefined;
          return token && account && issued.has(token) && firstOf.get(account.id) !== token ? withAuthorization(request, 'Bearer revoked') : request;
        },
      };
    },
  }),
  fault({
    id: 'auth-token-read-at-offset-7',
    level: 'SHOULD',
    catches: ['ORD-AUTH-003'],
    collateral: [{ requirement: 'ORD-AUTH-006', reason: 'a valid token under a six-letter scheme is served, so it does not get 401 either' }],
    subtle: true,
    description:
      'The token is read from the eighth character of the Authorization header on (substr($h, 7) === $token, header[7:]): any six characters and a space before a valid token pass for "Bearer " (Digest, Tokens, a misspelt Baerer).',
    hooks: () => ({
      rewriteRequest: (request, { accounts }) => {
        const header = request.headers.authorization ?? '';
        return header.length > 7 && accounts.accountFor(header.slice(7)) ? withAuthorization(request, `Bearer ${header.slice(7)}`) : request;
      },
    }),
  }),
];

/** A loose token comparison: a token the registry does not know is served as the account whose token it resembles. */
function nearMissAccepted(resembles: (sent: string, valid: string) => boolean): Hooks {
  return {
    rewriteRequest: (request, { accounts }) => {
      const token = bearerToken(request);
      if (!token || accounts.accountFor(token)) return request;
      const match = accounts.validTokens().find(([valid]) => resembles(token, valid));
      return match ? withAuthorization(request, `Bearer ${match[0]}`) : request;
    },
  };
}

/** The missing ownership check: an operation on an order of another account runs as that account. */
function actingAsOwner(operation: Operation): Hooks {
  return {
    rewriteRequest: (request, { services, accounts }) => {
      const { orderId } = operationOf(request);
      const caller = accounts.accountFor(bearerToken(request) ?? '');
      if (!is(request, operation) || !orderId || !caller || services.store.get(caller.id, orderId)) return request;
      const owner = accounts.accounts.find((account) => services.store.get(account.id, orderId));
      return owner ? withAuthorization(request, `Bearer ${owner.developmentToken}`) : request;
    },
  };
}
