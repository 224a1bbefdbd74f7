import { issueToken } from '../../../reference/routes/token';
import type { ApiRequest } from '../../../reference/http';
import { bearerToken, jsonBodyOf, fault, is, isSuccess, operationOf, type FaultDefinition } from './kit';

/**
 * How old an order is when its delete takes the archive path (delete-archived-html-page): older than half the time
 * since the server's first create, and than ARCHIVED_AFTER_MS. A test keeps an order a small part of the run before it
 * deletes it, the cleanup deletes what the run's first tests made: an age of its own, as a fixed one was not, on a
 * fast machine (a whole run in 2.6 s, no order 3 s old) and a loaded one alike.
 */
const ARCHIVED_AFTER_MS = 2_000;

/**
 * Answers the run makes outside its tests (harness/record/outside-tests.ts): the preflight before the tests, the
 * token renewals of the suite's client, the deletes of the worker's cleanup. Each fault shows only there, so only
 * the judgement of those exchanges catches it.
 */
export const OUTSIDE_TEST_FAULTS: FaultDefinition[] = [
  fault({
    id: 'list-cold-start-text-plain',
    level: 'MUST',
    catches: ['ORD-GEN-001'],
    subtle: true,
    description: "The first list of each account after the server starts (a cold cache) comes with Content-Type text/plain: only the suite's preflight, before the tests, meets it.",
    hooks: () => {
      const warm = new Set<string>();
      return {
        rewriteReply: (request, reply, { accounts }) => {
          const account = accounts.accountFor(bearerToken(request) ?? '');
          if (!is(request, 'list') || !isSuccess(reply) || !account || warm.has(account.id)) return reply;
          warm.add(account.id);
          return { status: reply.status, headers: { ...reply.headers, 'Content-Type': 'text/plain; charset=utf-8' }, rawBody: JSON.stringify(reply.body) };
        },
      };
    },
  }),
  fault({
    id: 'first-401-html-page',
    level: 'MUST',
    catches: ['ORD-GEN-001'],
    collateral: [{ requirement: 'ORD-ERR-001', reason: 'the HTML page that answers the first 401 carries no error envelope' }],
    subtle: true,
    description:
      "The first request without valid credentials after the server starts gets the authentication middleware's HTML login page with 401 (its JSON handler is set up lazily, on that first refusal): against a server given by URL, only the suite's round-trip probe, before the tests, meets it.",
    hooks: () => {
      let first = true;
      return {
        rewriteReply: (_request, reply) => {
          if (reply.status !== 401 || !first) return reply;
          first = false;
          return { status: 401, headers: { ...reply.headers, 'Content-Type': 'text/html; charset=utf-8' }, rawBody: '<!doctype html><title>Sign in</title><form method="post" action="/login"></form>' };
        },
      };
    },
  }),
  fault({
    id: 'token-renewal-text-plain',
    level: 'MUST',
    catches: ['ORD-GEN-001'],
    subtle: true,
    description:
      "Tokens expire after 1 second; once a client's token was refused as expired, its next POST /token (the renewal) is answered by a re-authentication handler that sends the token JSON as text/plain.",
    hooks: () => {
      const reauthenticating = new Set<string>();
      return {
        intercept: (request, { accounts }) => {
          const { operation } = operationOf(request);
          if (operation !== 'token') {
            const token = bearerToken(request);
            const owner = token && !accounts.accountFor(token) ? accounts.validTokens().find(([known]) => known === token)?.[1] : undefined;
            if (owner) reauthenticating.add(owner.client.id);
            return undefined;
          }
          if (request.method !== 'POST') return undefined;
          const reply = issueToken(request, accounts, { accepts: ['json', 'form', 'basic'], lifetimeSeconds: 1 });
          const client = clientIdOf(request);
          if (!client || !reauthenticating.has(client)) return reply;
          reauthenticating.delete(client);
          return { status: reply.status, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, rawBody: JSON.stringify(reply.body) };
        },
      };
    },
  }),
  fault({
    id: 'delete-archived-html-page',
    level: 'MUST',
    catches: ['ORD-GEN-001'],
    subtle: true,
    description: `A delete of an order older than half the time since the server's first create (and than ${ARCHIVED_AFTER_MS / 1000} s) goes through the archive path, which answers 200 with an HTML confirmation page: only the worker's cleanup deletes orders that old.`,
    hooks: () => {
      const createdAt = new Map<string, number>();
      let firstCreate: number | undefined;
      return {
        rewriteReply: (request, reply) => {
          const now = Date.now();
          if (is(request, 'create') && isSuccess(reply)) {
            firstCreate ??= now;
            createdAt.set(String((reply.body as { id?: unknown }).id), now);
          }
          const { orderId } = operationOf(request);
          const created = orderId === undefined ? undefined : createdAt.get(orderId);
          const archivedAfter = Math.max(ARCHIVED_AFTER_MS, (now - (firstCreate ?? now)) / 2);
          if (!is(request, 'delete') || !isSuccess(reply) || created === undefined || now - created <= archivedAfter) return reply;
          return { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' }, rawBody: '<!doctype html><title>Archived</title><p>Order archived.</p>' };
        },
      };
    },
  }),
];

/** The client_id a POST /token names: in HTTP Basic, a form or JSON. */
function clientIdOf(request: ApiRequest): string | undefined {
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (basic) return new URLSearchParams(`v=${Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0]}`).get('v') ?? undefined;
  const json = jsonBodyOf(request) as { client_id?: unknown } | undefined;
  if (typeof json?.client_id === 'string') return json.client_id;
  return new URLSearchParams(request.bodyText).get('client_id') ?? undefined;
}
