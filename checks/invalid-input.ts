import { excerpt } from '../contract/openapi';
import { contentType, type Exchange, type Json } from '../contract/exchange';
import { mayBeRefused, untouched } from './orders';
import { accepted, acceptedOrRefusedWith, clientError, isSuccess, noServerError, REFUSALS } from './status';
import { dataChanged, explainingReading, READING_WORDS, valueAt, type Circumstances, type SentValue } from './readings';
import { formatDifferences } from './roundtrip';
import { unless, type Check, type Judgement } from './check';

/** Judgements of invalid input (4.2, 4.4, 7): refused with a 4xx, never taken and never a crash. */

/** A request body that breaks openapi.yaml in one way (generators/invalid.ts makes them), and the requirement its answer answers to. */
export type InvalidKind = 'missing-field' | 'wrong-type' | 'wrong-shape' | 'malformed-json' | 'empty-body';

export interface InvalidRequest {
  kind: InvalidKind;
  /** What is wrong, in words: "/items/0/quantity is 1.5 (integer expected)". */
  description: string;
  /** ORD-ERR-003 missing field, ORD-ERR-004 wrong type or shape, ORD-ERR-002 not JSON whatever the parser, or an empty create. */
  requirementId: 'ORD-ERR-002' | 'ORD-ERR-003' | 'ORD-ERR-004';
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, instead of body. */
  rawBody?: string;
  /** The value that breaks the schema, with its readings (checks/readings.ts); none for a body that is no JSON or misses a field. */
  value?: SentValue;
}

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

/**
 * A body that breaks openapi.yaml in one value, answered as that value's readings allow: refused with a 4xx; or,
 * where it has another reading, taken and answered as that reading says (a value of the wrong type a lax binder
 * drops: read as not sent; a field every order holds that an update leaves as it was: kept; a whole update body
 * that is no object: an update of no fields, the order's data as it was, `circumstances.before`), or as the same
 * service answers the neighbour the reading names (`circumstances.neighbours`). Judged against the requirement its
 * kind of fault breaks; never a 5xx.
 */
export function invalidBodyAnswered(invalid: InvalidRequest, exchange: Exchange, circumstances: Circumstances = {}): Judgement | undefined {
  const value = invalid.value;
  const takenReadings = value?.readings.filter((reading) => reading !== 'refused') ?? [];
  if (!value || takenReadings.length === 0 || !isSuccess(exchange.status)) return invalidBodyRefused(invalid)(exchange);
  const explained = explainingReading(value, exchange.json, circumstances) !== undefined;
  return unless(invalid.requirementId, explained, () => {
    const changed = value.pointer === '' ? dataChanged(circumstances.before, exchange.json) : undefined;
    return {
      expected: `a 4xx for a body where ${invalid.description}, or a 2xx that ${takenReadings.map((reading) => READING_WORDS[reading]).join(', or ')}`,
      received: changed
        ? `${exchange.status}, and the order changed:\n${formatDifferences(changed, 10, ['it held', 'it holds'])}`
        : `${exchange.status}, with ${value.pointer || 'the body'} ${excerpt(valueAt(exchange.json, value.pointer))}${circumstances.before === undefined ? '' : ` (before: ${excerpt(valueAt(circumstances.before, value.pointer))})`}`,
      exchange,
    };
  }, exchange);
}

/** JSON a lenient parser reads (ORD-OBS-033: NaN, a key twice, a trailing comma, bytes that are not UTF-8, an empty update) is taken or refused; never a 5xx. */
export const lenientBodyAnswered =
  (what: string): Check =>
  (exchange) =>
    unless('ORD-ERR-009', ...noServerError(exchange, `${what}: taken (a 2xx) or refused (a 4xx)`));

/**
 * An order a lenient body created or changed reads back: a get of it answers no 5xx, and a body that parses as JSON
 * (a NaN written out does not). Its Content-Type is ORD-GEN-001's to judge, as on every answer.
 */
export const readBackAfterLenientBody =
  (what: string): Check =>
  (exchange) =>
    unless('ORD-ERR-009', exchange.status < 500 && exchange.json !== undefined, () => ({
      expected: `a get of the order ${what} took, answered with a body that parses as JSON (no 5xx)`,
      received: `${exchange.status}${exchange.json === undefined ? ` (Content-Type ${contentType(exchange) || 'absent'}), a body that does not parse as JSON` : ''}`,
      exchange,
    }), exchange);

/** A body larger than any order needs, on create or update: taken, or refused (413 or another 4xx, with whatever body); never a 5xx. */
export const oversizedBodyAnswered: Check = (exchange) => unless('ORD-ERR-005', ...noServerError(exchange, 'a 2xx (accepted) or a 4xx such as 413'));

/** Headers larger than any order needs: taken, or refused on the HTTP layer's terms (431, or 400 as nginx and gunicorn do); never a 5xx. */
export const oversizedHeadersAnswered: Check = (exchange) => unless('ORD-ERR-005', ...noServerError(exchange, 'a 2xx (accepted) or a 4xx such as 431 or 400 for a request with a 32 KiB header'));

/**
 * Updates larger than any order needs (`sent`, answered `updates`), sent side by side to one order (`before`, as it
 * stood), that were refused changed nothing (`after`: a get once all were answered): refused all, the order holds
 * in the fields they sent what it held; where one was taken, no refused one's values are stored.
 */
export function oversizedRefusalsLeftOrder(before: Json, sent: readonly Json[], updates: readonly Exchange[], after: Exchange): Judgement | undefined {
  const refused = updates.filter((update) => update.status >= 400 && update.status < 500);
  if (refused.length === 0) return undefined;
  const fields = [...new Set(sent.flatMap((body) => Object.keys(body)))];
  if (refused.length === updates.length) {
    const [holds, details] = untouched(after, Object.fromEntries(fields.map((field) => [field, before[field]])), 'the order as it was, in the fields the refused updates larger than any order needs sent');
    return unless('ORD-GEN-005', holds, details, [...refused, after]);
  }
  const stored = updates.flatMap((update, index) => (refused.includes(update) ? Object.entries(sent[index]).filter(([field, value]) => ((after.json ?? {}) as Json)[field] === value).map(([field]) => field) : []));
  return unless('ORD-GEN-005', isSuccess(after.status) && stored.length === 0, () => ({
    expected: 'the order without the values of the refused updates larger than any order needs',
    received: isSuccess(after.status) ? `the refused update's ${stored.join(', ')} stored` : `get answers ${after.status}`,
    exchange: after,
  }), [...refused, after]);
}

/**
 * Section 1, "Bodies are JSON (content type application/json)": a body labelled otherwise (text/plain, a
 * form, no Content-Type) is taken, or refused (415, 400, 422); never a 5xx. What a server that takes it makes
 * of it is not judged: read as a form, it is no longer what was sent.
 */
export const unlabelledBodyAnswered = (label: string, exchange: Exchange): Judgement | undefined =>
  unless('ORD-ERR-007', ...acceptedOrRefusedWith(exchange, REFUSALS.unlabelledBody, `a JSON body sent with ${label}`));

/** An update refused for the label of its body left the order as it was (`before`: a get just before it). */
export const unlabelledUpdateLeftOrder = (label: string, before: Json | undefined, after: Exchange, update: Exchange): Judgement | undefined => {
  const [holds, details] = untouched(after, before, `the order untouched by the refused update sent with ${label}`);
  return unless('ORD-ERR-007', holds, details, [update, after]);
};

/** A JSON body labelled application/json with a parameter or in other letter case (RFC 9110 8.3.1: media types are case-insensitive) is accepted. */
export const jsonLabelTaken =
  (label: string): Check =>
  (exchange) => {
    const [holds, details] = accepted(exchange);
    return unless('ORD-GEN-004', holds, () => ({ ...details(), expected: `a 2xx for a valid body labelled ${label} (the media type application/json)` }), exchange);
  };

/**
 * Section 2.7, "Required-ness and length limits of nested fields: not shown": a body a correct server may
 * refuse (text of 10,000 characters and more, blank text, numbers out of a realistic range, nested fields left
 * out) is accepted or refused (400, 413, 422); never a 5xx. What an accepted one answers is its round trip's.
 */
export const refusableBodyAnswered = (what: string, exchange: Exchange): Judgement | undefined =>
  unless('ORD-ERR-008', ...acceptedOrRefusedWith(exchange, REFUSALS.unusualValues, what));

/** An update with such values, refused, left the order as it was (`before`: a get just before it). */
export const refusedUpdateLeftOrder = (what: string, before: Json | undefined, after: Exchange, update: Exchange): Judgement | undefined => {
  const [holds, details] = untouched(after, before, `the order untouched by the refused update with ${what}`);
  return unless('ORD-ERR-008', holds, details, [update, after]);
};

/**
 * The acceptance check of a generated create or update (`accept`), unless its body is one a correct server may
 * refuse (mayBeRefused): a 5xx to that is no refusal, and is ORD-ERR-008's rather than a failed acceptance.
 */
export const acceptedUnlessRefusable =
  (body: unknown, accept: Check): Check =>
  (exchange) =>
    mayBeRefused(body) && exchange.status >= 500 ? refusableBodyAnswered('a generated body with values a server may refuse', exchange) : accept(exchange);
