import { excerpt } from '../contract/openapi';
import type { Exchange, Json } from '../contract/exchange';
import { mayBeRefused } from './orders';
import { refusableBodyAnswered, wrongTypeRefused } from './invalid-input';
import { differences } from './roundtrip';
import { unless, type Check, type Judgement } from './check';

/**
 * Judgements of the edge catalogue (generators/coverage.ts): values sent on purpose where parsers and
 * storage break. Each is taken and comes back as sent, or refused with a 4xx where a correct server may
 * refuse it; never a 5xx, never a silently changed value.
 */

/**
 * How a correct server may answer an edge value: `plain` is a value of the field's type, taken unless
 * checks/exotic.ts or nested-fields.ts says a server may refuse it; `refusable` may be refused (a number
 * written as no serializer writes it: an exponent, -0, beyond a double; null for an optional field) and, taken,
 * comes back as what it denotes; `coercible` is of the wrong type but denotes a value of the right one ("3"
 * or true for an integer): refused, or taken as that value (ORD-OBS-019); `wrong-type` denotes no value of the
 * type (2.5 for an integer, null for a required field): refused (ORD-ERR-004).
 */
export type EdgeKind = 'plain' | 'refusable' | 'coercible' | 'wrong-type';

/** A body of edge values as sent: what it denotes (what must come back), the kinds it carries, and its cases by JSON pointer. */
export interface EdgesSent {
  /** The body's name, for a failure about all of it. */
  name: string;
  denoted: unknown;
  kinds: readonly EdgeKind[];
  cases: ReadonlyArray<{ name: string; pointer: string }>;
}

/** A correct server may refuse the body: an edge of another kind than plain, or a value whose limits are not shown (2.7). */
export function edgeMayBeRefused(sent: EdgesSent): boolean {
  return sent.kinds.some((kind) => kind !== 'plain') || mayBeRefused(sent.denoted);
}

/** The judgement with the coverage case named in what its finding expected, so a failure names the value that broke it. */
export function naming(judgement: Judgement | undefined, name: string): Judgement | undefined {
  if (!judgement?.finding) return judgement;
  return { ...judgement, finding: { ...judgement.finding, expected: `${judgement.finding.expected} (coverage case: ${name})` } };
}

/**
 * A create or update of edge values answered as its kinds allow (`accept`: the acceptance check of the
 * operation). A wrong type is refused with a 4xx (ORD-ERR-004); a coercible one refused with a 4xx, or taken
 * (judged by its value); a value a server may refuse, taken or refused with 400, 413 or 422 (ORD-ERR-008); any
 * other taken. Never a 5xx.
 */
export function edgesAnswered(sent: EdgesSent, exchange: Exchange, accept: Check): Judgement | undefined {
  const what = `a body where ${sent.name}`;
  if (sent.kinds.includes('wrong-type')) return naming(wrongTypeRefused(what)(exchange), sent.name);
  if (sent.kinds.includes('coercible')) return exchange.status >= 200 && exchange.status < 300 ? undefined : naming(wrongTypeRefused(what)(exchange), sent.name);
  if (edgeMayBeRefused(sent)) return refusableBodyAnswered(what, exchange);
  return naming(accept(exchange), sent.name);
}

/** The cases whose values differ between what was sent and an answer (by pointer: a difference at or below the case's field). */
export function casesDiffering(sent: EdgesSent, answer: unknown): string[] {
  const found = differences(sent.denoted, answer);
  const under = (pointer: string, at: string) => pointer === at || pointer.startsWith(`${at}/`) || pointer.startsWith(`${at} `);
  return sent.cases.filter((edge) => found.some(({ pointer }) => under(pointer, edge.pointer))).map((edge) => edge.name);
}

/**
 * A round trip (createAnswersWhatWasSent, storedAsSent, updateAnswersWhatWasSent …) of what the body denotes,
 * its finding naming the cases whose values did not come back.
 */
export function edgesComeBack(
  sent: EdgesSent,
  exchange: Exchange,
  roundTrip: (denoted: unknown, exchange: Exchange, what: string) => Judgement | undefined,
  what: string,
): Judgement | undefined {
  const named = casesDiffering(sent, exchange.json);
  return roundTrip(sent.denoted, exchange, `${what} (coverage case: ${named.length > 0 ? named.join(', ') : sent.name})`);
}

/**
 * An update of null over a field the create requires (customer, items, currency, price), taken: no order is
 * without the field (ORD-FORM-001 holds the answer to that), and the update may ignore the null (nothing is
 * lost) but never turn it into another value (Go's zero value, 0 for a price).
 */
export function nullOverRequiredIgnored(field: string, before: Json, exchange: Exchange): Judgement | undefined {
  const shown = ((exchange.json ?? {}) as Json)[field];
  const kept = shown === undefined || shown === null || differences(before[field], shown).length === 0;
  return unless('ORD-UPDATE-002', kept, () => ({
    expected: `${field} refused as null (a field every order holds) or left as it was, ${excerpt(before[field])} (coverage case: update ${field} = null)`,
    received: `${field} ${excerpt(shown)}: a value neither sent nor held`,
    exchange,
  }), exchange);
}
