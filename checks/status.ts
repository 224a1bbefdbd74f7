import type { Exchange } from '../contract/exchange';
import type { Verdict } from './check';

/**
 * Which statuses answer each situation, defined once: the named checks of the other files bind these
 * verdicts to the requirement they judge.
 */

export const isSuccess = (status: number): boolean => status >= 200 && status < 300;

export const isClientError = (status: number): boolean => status >= 400 && status < 500;

/** 404 or 410: the usual answers for an id the service does not hold. */
export const isNotFound = (status: number): boolean => status === 404 || status === 410;

/**
 * The refusals a correct server may choose, by the kind of request the document leaves open (section 7:
 * "Error status codes and error bodies per condition: not shown"). A status outside its list is no refusal
 * a client can act on (a 5xx above all); each list is what servers written from the document answer.
 */
export const REFUSALS = {
  /** A body not labelled application/json: unsupported media type (415), or a body it will not read (400, 422). */
  unlabelledBody: [400, 415, 422],
  /** Values whose limits are not shown (2.7): text too long for a column, blank text, numbers out of range; or too large a body (413). */
  unusualValues: [400, 413, 422],
  /** An update or a delete of an order already deleted: not found (404), gone (410), or not allowed in its state (409, 400, 403, 422). */
  afterDelete: [400, 403, 404, 409, 410, 422],
  /** An update with no field: nothing to do (400, 422). */
  emptyUpdate: [400, 422],
} as const satisfies Record<string, readonly number[]>;

/** A 2xx, or one of `statuses` (a refusal in range), for `what`. */
export const acceptedOrRefusedWith = (exchange: Exchange, statuses: readonly number[], what: string): Verdict => [
  isSuccess(exchange.status) || statuses.includes(exchange.status),
  () => ({ expected: `${what}: a 2xx, or a refusal with ${statuses.join(', ')}`, received: `${exchange.status}`, exchange }),
  exchange,
];

/** One of `statuses` (a refusal in range), for `what`: a 2xx is wrong too. */
export const refusedWith = (exchange: Exchange, statuses: readonly number[], what: string): Verdict => [
  statuses.includes(exchange.status),
  () => ({ expected: `${what}: a refusal with ${statuses.join(', ')}`, received: `${exchange.status}${isSuccess(exchange.status) ? ': it was accepted' : ''}`, exchange }),
  exchange,
];

/** Another account's get of an order: 404, 403 or 410, as ORD-ISO-001 states it. */
const HIDDEN_FROM_OTHER_ACCOUNT = [403, 404, 410];

/** Accepted: a 2xx. */
export const accepted = (exchange: Exchange): Verdict => [
  isSuccess(exchange.status),
  () => ({ expected: 'a 2xx status', received: `${exchange.status}`, exchange }),
  exchange,
];

/** Refused: anything but a 2xx (which status is a requirement of its own where the document says). */
export const refused = (exchange: Exchange, what = 'the request'): Verdict => [
  !isSuccess(exchange.status),
  () => ({ expected: `${what} to be refused (a non-2xx status)`, received: `${exchange.status}: it was accepted`, exchange }),
  exchange,
];

/** The request at fault: a 4xx. */
export const clientError = (exchange: Exchange, expected = 'a 4xx status (the request is at fault)'): Verdict => [
  isClientError(exchange.status),
  () => ({ expected, received: `${exchange.status}${isSuccess(exchange.status) ? ': it was accepted' : ''}`, exchange }),
  exchange,
];

/**
 * The answer for an unknown id: 404 or 410; for an id of another form than the service's own, any 4xx
 * too (a server may check the form of an id before looking it up, with a status of its choosing: ORD-OBS-018, ORD-OBS-002).
 */
export const unknownIdAnswer = (exchange: Exchange, ownForm: boolean): Verdict => [
  isNotFound(exchange.status) || (!ownForm && isClientError(exchange.status)),
  () => ({
    expected: ownForm ? '404 or 410 (an unknown id of the form the service assigns)' : '404 or 410, or another 4xx (an unknown id of another form than the service assigns)',
    received: `${exchange.status}`,
    exchange,
    // Kept with the finding: judging the recorded exchange again needs to know which form of unknown id it asked for.
    context: { ownForm },
  }),
  exchange,
];

/** Without valid credentials: 401 (5.1). */
export const unauthorized = (exchange: Exchange): Verdict => [
  exchange.status === 401,
  () => ({ expected: '401 for a request without valid credentials', received: `${exchange.status}`, exchange }),
  exchange,
];

/** Whatever was asked, no 5xx. */
export const noServerError = (exchange: Exchange, expected: string): Verdict => [exchange.status < 500, () => ({ expected, received: `${exchange.status}`, exchange }), exchange];

/** Another account asking for an order it does not own. */
export const hiddenFromOtherAccount = (exchange: Exchange, what: string): Verdict => [
  HIDDEN_FROM_OTHER_ACCOUNT.includes(exchange.status),
  () => ({ expected: `${what}: 404, 403 or 410`, received: `${exchange.status}`, exchange }),
  exchange,
];
