import type { OperationId } from '../contract/openapi';
import { accepted, isSuccess, refused, unauthorized } from './status';
import { notReachedBy } from './orders';
import { unless, type Check, type Judgement, type Verdict } from './check';

/** Judgements of authentication (5): which credentials the order operations accept, and how they refuse the rest. */

/** The note an update without valid credentials carries: finding it stored shows the refusal did not happen. */
export { REFUSED_NOTE } from './orders';

/** What is wrong with the credentials of a request, named by the requirement it breaks (ORD-AUTH-007: none, on another spelling of the path). */
export type BadCredentials = 'ORD-AUTH-001' | 'ORD-AUTH-003' | 'ORD-AUTH-004' | 'ORD-AUTH-007';

export const validTokenAccepted: Check = (exchange) => unless('ORD-AUTH-002', ...accepted(exchange));

/** A request with bad credentials is refused (any non-2xx; the 401 is ORD-AUTH-006's). */
export const refusedWithBadCredentials =
  (requirementId: BadCredentials): Check =>
  (exchange) =>
    withBadCredentials(requirementId, refused(exchange));

/** An update or delete sent with bad credentials left the order as it was (`after`: the order got again with valid ones). */
export const untouchedByBadCredentials =
  (requirementId: BadCredentials, operation: string, id: string): Check =>
  (after) =>
    withBadCredentials(requirementId, notReachedBy(`the refused ${operation}`, id, after));

/** A verdict about a request with bad credentials, bound to the requirement they break. */
function withBadCredentials(requirementId: BadCredentials, verdict: Verdict): Judgement | undefined {
  if (requirementId === 'ORD-AUTH-001') return unless('ORD-AUTH-001', ...verdict);
  if (requirementId === 'ORD-AUTH-003') return unless('ORD-AUTH-003', ...verdict);
  if (requirementId === 'ORD-AUTH-007') return unless('ORD-AUTH-007', ...verdict);
  return unless('ORD-AUTH-004', ...verdict);
}

/**
 * Section 4, "All endpoints require the Authorization header": a request without it to another spelling of
 * an operation's path (a trailing slash, /orders/{order_id}/) gets none of the account's data. Any refusal
 * will do (401, 404, 405, a redirect to the canonical path), and so does a 2xx that carries no JSON (a page
 * of another application behind the same host); a 2xx with a JSON body is the operation served without
 * credentials. `operationId`: the operation the path spells, which the response is counted for.
 */
export const pathVariantWithheld =
  (operationId: OperationId, spelling: string): Check =>
  (exchange) =>
    unless('ORD-AUTH-007', !isSuccess(exchange.status) || exchange.json === undefined, () => ({
      expected: `${spelling} without the Authorization header: refused, or at least no JSON answer`,
      received: `${exchange.status} with a JSON body: the operation was served without credentials`,
      exchange,
    }), { ...exchange, operationId });

/** POST /token did not answer an access token (`reason` says why). */
export const tokenNotIssued = (reason: string): Judgement | undefined =>
  unless('ORD-AUTH-005', false, () => ({ expected: 'POST /token to answer a JSON body with access_token', received: reason }), undefined);

export const issuedTokenAccepted: Check = (exchange) => unless('ORD-AUTH-005', ...accepted(exchange));

export const answered401: Check = (exchange) => unless('ORD-AUTH-006', ...unauthorized(exchange));
