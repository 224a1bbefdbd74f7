import { excerpt } from '../contract/openapi';
import type { InvalidRequest } from '../generators/invalid';
import { unless, type Finding } from '../harness/findings';
import type { Exchange } from '../harness/http/exchange';
import type { Check } from './check';
import { clientError, noServerError } from './status';

/** Judgements of invalid input (4.2, 4.4, 7): refused with a 4xx, never taken and never a crash. */

/** A body that is not JSON, or empty, gets a 4xx. */
export const nonJsonBodyRefused =
  (body = 'a body that is not JSON, or empty'): Check =>
  (exchange) =>
    unless('ORD-ERR-002', ...clientError(exchange, `a 4xx for ${body}`));

/** A create missing a required field gets a 4xx. */
export const missingFieldRefused =
  (body = 'a create missing a required field'): Check =>
  (exchange) =>
    unless('ORD-ERR-003', ...clientError(exchange, `a 4xx for ${body}`));

/** A field of the wrong type or shape gets a 4xx. */
export const wrongTypeRefused =
  (body = 'a field of the wrong type'): Check =>
  (exchange) =>
    unless('ORD-ERR-004', ...clientError(exchange, `a 4xx for ${body}`));

/** A generated invalid body gets a 4xx, judged against the requirement its kind of fault breaks. */
export function invalidBodyRefused(invalid: InvalidRequest): Check {
  const body = `a body where ${invalid.description}`;
  if (invalid.requirementId === 'ORD-ERR-002') return nonJsonBodyRefused(body);
  if (invalid.requirementId === 'ORD-ERR-003') return missingFieldRefused(body);
  return wrongTypeRefused(body);
}

/** A numeric string sent for items[0].price, once accepted, is stored as the number it denotes (a refusal is wrongTypeRefused's). */
export function numericStringTakenAsNumber(sent: string, exchange: Exchange): Finding | undefined {
  const price = ((exchange.json as { items?: Array<Record<string, unknown>> } | undefined)?.items ?? [])[0]?.price;
  return unless('ORD-ERR-004', price === Number(sent), () => ({
    expected: `items[0].price ${JSON.stringify(sent)}, once accepted, stored as the number it denotes (${Number(sent)})`,
    received: `items[0].price ${excerpt(price)}`,
    exchange,
  }), exchange);
}

export const oversizedBodyAnswered: Check = (exchange) => unless('ORD-ERR-005', ...noServerError(exchange, 'a 2xx (accepted) or a 4xx such as 413'));
