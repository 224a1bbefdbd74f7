import type { UndefinedMethod } from '../contract/operations';
import { excerpt } from '../contract/openapi';
import type { Exchange } from '../contract/exchange';
import { isSuccess } from './status';
import { notReachedBy } from './orders';
import { unless, type Judgement } from './check';

/**
 * Methods the interface does not define (ORD-GEN-006): PATCH and POST /orders/{order_id}, PUT, PATCH and DELETE
 * /orders (contract/operations.ts undefinedMethods). How a server refuses one is open (ORD-OBS-035); a 5xx, a 405
 * without a fitting Allow header (RFC 9110 15.5.6), and a change to an order are not.
 */

/** The methods an Allow header names (RFC 9110 10.2.1: a comma-separated list, which an empty value leaves empty), in upper case. */
export function allowedMethods(header: string): string[] {
  return header
    .split(',')
    .map((method) => method.trim().toUpperCase())
    .filter((method) => method !== '');
}

/**
 * What is wrong with the Allow header of a 405 to `probe.method` (`header`, undefined when there is none), or undefined
 * when nothing is: it must name every method the path has, and not the one refused; others (HEAD, OPTIONS) it may.
 */
export function allowProblem(header: string | undefined, probe: Pick<UndefinedMethod, 'method' | 'defined'>): string | undefined {
  if (header === undefined) return 'no Allow header';
  const named = allowedMethods(header);
  const missing = probe.defined.filter((method) => !named.includes(method));
  if (missing.length > 0) return `Allow ${excerpt(header)}, which leaves out ${missing.join(', ')}`;
  if (named.includes(probe.method)) return `Allow ${excerpt(header)}, which names ${probe.method}, the method it refused`;
  return undefined;
}

/** A method the interface does not define answered without a 5xx (501 Not Implemented aside), and a 405 with an Allow naming the path's methods; counted for the path's GET. */
export function undefinedMethodAnswered(probe: UndefinedMethod, exchange: Exchange): Judgement {
  const crashed = exchange.status >= 500 && exchange.status !== 501;
  const allow = exchange.status === 405 ? allowProblem(exchange.headers.allow, probe) : undefined;
  return unless('ORD-GEN-006', !crashed && allow === undefined, () => ({
    expected: `${probe.method} ${probe.path}, a method the interface does not define there, refused without a 5xx; a 405 with an Allow header naming ${probe.defined.join(', ')} (RFC 9110 15.5.6)`,
    received: crashed ? `${exchange.status}` : `405 with ${allow}`,
    exchange,
  }), { ...exchange, operationId: probe.operationId });
}

/** The order, got after methods the interface does not define were sent to it and to the collection (`probes`), as they left it: still there, without their note. */
export function unchangedByUndefinedMethods(id: string, probes: readonly Exchange[], after: Exchange): Judgement {
  const sent = probes.map((exchange) => `${exchange.request.method} ${exchange.request.path.split('?')[0]}${isSuccess(exchange.status) ? ` (answered ${exchange.status})` : ''}`);
  const [holds, details] = notReachedBy(`${sent.join(', ')}, methods the interface does not define`, id, after);
  return unless('ORD-GEN-006', holds, details, [...probes, after]);
}
