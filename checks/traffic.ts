import { bounds, isValidQuery, type ListQuery } from '../contract/query';
import { violationIn, type Judgement } from './check';
import type { Finding, FindingContext } from './finding';
import { holdsNonUtf8Bytes, parseJson, type Exchange, type Json } from '../contract/exchange';
import { answered401, refusedWithBadCredentials, validTokenAccepted, type BadCredentials } from './auth';
import { responseChecks, responseRequirements } from './body';
import { deletedOnGet, deleteUnknownIdAnswer, goneFromList, type AsCreated } from './deletion';
import { lastPageHoldsRest, limitHonoured, listAnswerInRange, neverAboveMaximum, nothingPastLastPage, readPage, defaultLimitHonoured, searchOfPage } from './listing';
import { createAnswersWhatWasSent, getAnswersOrderAsked, getUnknownIdAnswer, idAssigned, serviceAssignedParts, storedAsSent, updateAnswersWhatWasSent, updateUnknownIdAnswer, updateVisibleOnGet } from './orders';
import { isNotFound, isSuccess } from './status';

/**
 * The suite's checks over recorded traffic (`oms-conformance judge`): each exchange of a HAR judged by the
 * same named checks a run uses, with no request sent. Only what an exchange shows by itself, or with the
 * exchanges recorded before it, is judged; what the suite learns by requests it designs (paging walks,
 * a second account, an id it knows to be unknown) is judged only where the recording says so (the
 * `_requirement` and `_context` that failures.har carries).
 */

/** An exchange of recorded traffic, with what the recording says of it where the suite wrote it (failures.har). */
export interface RecordedExchange {
  exchange: Exchange;
  /** The requirement a run judged this exchange for. */
  requirement?: string;
  /** What that judgement knew besides the exchange. */
  context?: FindingContext;
  /** Bodies the recording cut: nothing that needs the whole body is judged on them. */
  truncated?: { request?: true; response?: true };
}

/** One requirement held to one exchange; `finding` undefined when it was met. */
export interface TrafficJudgement {
  requirementId: string;
  finding: Finding | undefined;
}

/**
 * What recorded traffic can show, requirement by requirement, and from which exchanges: the requirements
 * `judgeExchange` may judge. Every other requirement is "not judged" from traffic.
 */
export const JUDGED_FROM_TRAFFIC: Readonly<Record<string, string>> = {
  'ORD-GEN-001': 'every response (but the refusal of a request larger than any order needs): a JSON body with a JSON content type',
  'ORD-GEN-002': 'every response with meta.status',
  'ORD-GEN-003': 'every 5xx response',
  'ORD-ERR-001': 'every 4xx response (but the refusal of a request larger than any order needs): the error envelope',
  'ORD-ERR-006': 'every 4xx response with meta (but the refusal of a request larger than any order needs): the envelope fields',
  'ORD-ERR-010': 'every answer the service writes in its own words (a 4xx, a 5xx, or one that is not JSON): no stack trace, database error text or debug page the request did not carry',
  'ORD-FORM-001': 'every 2xx create, get and update: the full form',
  'ORD-FORM-002': 'every 2xx list: the summaries',
  'ORD-LIST-001': 'every 2xx list: the envelope',
  'ORD-DELETE-001': 'every 2xx delete: one of the documented shapes',
  'ORD-AUTH-005': 'every 2xx POST /token: access_token',
  'ORD-AUTH-001': 'order requests without an Authorization header',
  'ORD-AUTH-003': 'order requests with an Authorization header of another form than "Bearer <token>"',
  'ORD-AUTH-006': 'order requests without valid credentials (no header, another form, or a token the recording marks never issued)',
  'ORD-AUTH-004': 'requests the recording marks as sent with a token never issued',
  'ORD-AUTH-002': '2xx answers to a bearer token, and requests the recording marks as sent with a valid token',
  'ORD-LIST-002': 'lists without limit: a page of at most 10, full on page 1 up to meta.total',
  'ORD-LIST-004': 'lists with a limit: at most the limit, full on page 1 up to meta.total',
  'ORD-LIST-005': 'every list: never more than 100 orders',
  'ORD-LIST-007': 'lists of the last page by meta.total, or past it',
  'ORD-LIST-010': 'lists with an out-of-range or non-integer page or limit',
  'ORD-CREATE-003': 'every 2xx create: an id assigned',
  'ORD-CREATE-004': 'every 2xx create: what was sent comes back',
  'ORD-CREATE-005': 'every 2xx create: customer and item ids, item totals',
  'ORD-GET-001': '2xx gets of an order the traffic showed to exist (created, listed or got before, not deleted since): the order asked for',
  'ORD-GET-002': 'a 2xx get of an order created earlier in the traffic and not changed since, or one the recording gives what was sent for: what the create sent',
  'ORD-UPDATE-003': 'a 2xx get of an order after a 2xx update of it, with no write to it between, or one the recording gives what an update sent for: the update shows',
  'ORD-GET-004': 'gets the recording marks as of an unknown id',
  'ORD-UPDATE-002': 'every 2xx update: what was sent comes back',
  'ORD-UPDATE-006': 'updates the recording marks as of an unknown id',
  'ORD-DELETE-003': 'deletes the recording marks as of an unknown id',
  'ORD-DELETE-002':
    'a get of an order after a 2xx delete of it, with no write to it between: 404 or 410, or deleted_at set; once a get answered 404 or 410, a list read the list settle time (OMS_LIST_SETTLE_MS) or more after the delete: the order not in it',
};

/**
 * Why a requirement judged on a sequence of exchanges was not judged: the sequence this traffic lacks.
 * A requirement judged on single exchanges that none of the traffic showed says so by JUDGED_FROM_TRAFFIC.
 */
export const SEQUENCE_NOT_SEEN: Readonly<Record<string, string>> = {
  'ORD-GET-001': 'no 2xx get of an order the traffic showed to exist before (created, listed or got, not deleted since) in this traffic',
  'ORD-GET-002': 'no 2xx create followed by a 2xx get of the same order, with no write to it between, in this traffic',
  'ORD-UPDATE-003': 'no 2xx update followed by a 2xx get of the same order, with no write to it between, in this traffic',
  'ORD-DELETE-002': 'no 2xx delete followed by a get of the same order, with no write to it between, in this traffic',
};

/** What judging traffic needs besides the exchanges, from the settings of the run that judges it. */
export interface TrafficJudging {
  /** OMS_LIST_SETTLE_MS: a list read sooner after a write may not show it yet (ORD-OBS-027), so it is not judged on it. */
  listSettleMs: number;
}

/** Judges one exchange of recorded traffic; `earlier` are the exchanges recorded before it, in order. */
export function judgeExchange(recorded: RecordedExchange, earlier: readonly RecordedExchange[], judging: TrafficJudging): TrafficJudgement[] {
  const { exchange, truncated } = recorded;
  if (!exchange.operationId) return [];
  const judgements: TrafficJudgement[] = [];
  const add = (requirementId: string, finding: Finding | undefined) => judgements.push({ requirementId, finding });
  // A cut response body would read as "not JSON": nothing about the body is judged on it.
  if (!truncated?.response) {
    const findings = responseChecks(exchange);
    responseRequirements(exchange).forEach((requirementId, index) => add(requirementId, violationIn(findings[index])));
  }
  judgements.push(...credentials(recorded));
  if (exchange.status === 429) return judgements;
  if (exchange.operationId === 'listOrders' && !truncated?.response) judgements.push(...listPage(exchange));
  // An exchange judged with what the run knew of it (an id it knew unknown, what it had sent) is judged as that, and only as that.
  const contextual = withContext(recorded);
  if (contextual) return [...judgements, contextual];
  if (!truncated?.response && !truncated?.request) judgements.push(...orderAnswers(recorded, earlier));
  if (!truncated?.response) judgements.push(...afterWrites(exchange, earlier, judging));
  return judgements;
}

/** Authentication (5.1) as far as the request shows it, and the recording's word where only the run knew a token was bad or good. */
function credentials({ exchange, requirement }: RecordedExchange): TrafficJudgement[] {
  if (exchange.operationId === 'issueToken' || exchange.status === 429) return [];
  const authorization = Object.entries(exchange.request.headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const form = /^(\S+)(?: +(\S.*))?$/.exec(authorization ?? '');
  const bearer = form !== null && form[1].toLowerCase() === 'bearer' && form[2] !== undefined;
  const bad: BadCredentials | undefined =
    authorization === undefined ? 'ORD-AUTH-001' : !bearer ? 'ORD-AUTH-003' : requirement === 'ORD-AUTH-004' ? 'ORD-AUTH-004' : undefined;
  if (bad) {
    return [
      { requirementId: bad, finding: violationIn(refusedWithBadCredentials(bad)(exchange)) },
      { requirementId: 'ORD-AUTH-006', finding: violationIn(answered401(exchange)) },
    ];
  }
  // A bearer token refused may be one that was never valid: only a 2xx, or the recording's word, judges it.
  if (isSuccess(exchange.status) || requirement === 'ORD-AUTH-002') return [{ requirementId: 'ORD-AUTH-002', finding: violationIn(validTokenAccepted(exchange)) }];
  return [];
}

/** One page of the list by itself: its size against its own limit and meta.total, out-of-range paging answered. */
function listPage(exchange: Exchange): TrafficJudgement[] {
  const query = Object.fromEntries(new URLSearchParams(exchange.request.path.split('?')[1] ?? '')) as Record<string, string>;
  const page = readPage(query, exchange);
  const judgements: TrafficJudgement[] = [
    { requirementId: 'ORD-LIST-005', finding: violationIn(neverAboveMaximum(page)) },
    ...inRange(query, exchange),
  ];
  if (!isSuccess(exchange.status) || !isValidQuery(query as ListQuery) || page.total === undefined) return judgements;
  const limit = Number(query.limit ?? bounds('limit').default);
  const number = Number(query.page ?? bounds('page').default);
  const last = Math.max(1, Math.ceil(page.total / limit));
  if (number === 1) {
    judgements.push(query.limit === undefined ? { requirementId: 'ORD-LIST-002', finding: violationIn(defaultLimitHonoured(page, limit)) } : { requirementId: 'ORD-LIST-004', finding: violationIn(limitHonoured(page, limit)) });
  }
  if (number === last) judgements.push({ requirementId: 'ORD-LIST-007', finding: violationIn(lastPageHoldsRest(page, page.total, limit)) });
  if (number > last) judgements.push({ requirementId: 'ORD-LIST-007', finding: violationIn(nothingPastLastPage(page, page.total)) });
  return judgements;
}

/** What any page and limit must get: the requirement listAnswerInRange binds it to depends on the query. */
function inRange(query: Record<string, string>, exchange: Exchange): TrafficJudgement[] {
  const requirementId = !isValidQuery(query as ListQuery) ? (isSuccess(exchange.status) ? 'ORD-LIST-005' : 'ORD-LIST-010') : query.limit === undefined ? 'ORD-LIST-002' : 'ORD-LIST-004';
  // A page past the last may answer a 4xx (ORD-LIST-009): without meta.total the traffic cannot tell, so a failed in-range list is not judged.
  if (isValidQuery(query as ListQuery) && !isSuccess(exchange.status)) return [];
  return [{ requirementId, finding: violationIn(listAnswerInRange(query as ListQuery, exchange, undefined)) }];
}

/** Creates, gets and updates answered 2xx: what they sent comes back, the values the service assigns, a get of an order created earlier. */
function orderAnswers({ exchange }: RecordedExchange, earlier: readonly RecordedExchange[]): TrafficJudgement[] {
  if (!isSuccess(exchange.status)) return [];
  const sent = jsonObject(exchange.request.body);
  switch (exchange.operationId) {
    case 'createOrder':
      return [
        { requirementId: 'ORD-CREATE-003', finding: violationIn(idAssigned(exchange)) },
        { requirementId: 'ORD-CREATE-005', finding: violationIn(serviceAssignedParts(exchange)) },
        ...(sent ? [{ requirementId: 'ORD-CREATE-004', finding: violationIn(createAnswersWhatWasSent(sent, exchange)) }] : []),
      ];
    case 'updateOrder':
      return sent ? [{ requirementId: 'ORD-UPDATE-002', finding: violationIn(updateAnswersWhatWasSent(sent, exchange)) }] : [];
    case 'getOrder': {
      const id = orderIdOf(exchange);
      const created = createdUnchanged(id, earlier);
      // Only a get of an order the traffic showed to exist is held to answer it: of another id (deleted, never
      // made) a 2xx is the unknown-id requirements' to judge, which need the run's word that it is unknown.
      return [
        ...(existsBefore(id, earlier) ? [{ requirementId: 'ORD-GET-001', finding: violationIn(getAnswersOrderAsked(id, exchange)) }] : []),
        ...(created ? [{ requirementId: 'ORD-GET-002', finding: violationIn(storedAsSent(created, exchange)) }] : []),
      ];
    }
    default:
      return [];
  }
}

/**
 * Checks that need what the run knew besides the exchange, by the requirement the recording names: an id
 * it knew unknown (with the form it asked for), what it had sent before a get showed the order.
 */
const WITH_CONTEXT: Record<string, (exchange: Exchange, context: FindingContext) => Judgement | undefined> = {
  'ORD-GET-004': (exchange, { ownForm }) => getUnknownIdAnswer(ownForm === true)(exchange),
  'ORD-UPDATE-006': (exchange, { ownForm }) => updateUnknownIdAnswer(ownForm === true)(exchange),
  'ORD-DELETE-003': (exchange, { ownForm }) => deleteUnknownIdAnswer(ownForm === true)(exchange),
  'ORD-GET-002': (exchange, { sent }) => storedAsSent(parseJson(String(sent)), exchange),
  'ORD-UPDATE-003': (exchange, { sent }) => updateVisibleOnGet(parseJson(String(sent)), exchange),
};

/** Which context each of them needs. */
const CONTEXT_NEEDED: Record<string, string> = { 'ORD-GET-004': 'ownForm', 'ORD-UPDATE-006': 'ownForm', 'ORD-DELETE-003': 'ownForm', 'ORD-GET-002': 'sent', 'ORD-UPDATE-003': 'sent' };

/** The judgement a recorded exchange's context calls for; undefined when it carries none for its requirement. */
function withContext({ exchange, requirement, context, truncated }: RecordedExchange): TrafficJudgement | undefined {
  const needed = CONTEXT_NEEDED[requirement ?? ''];
  if (!needed || context?.[needed] === undefined || (needed === 'sent' && truncated?.response)) return undefined;
  return { requirementId: requirement as string, finding: violationIn(WITH_CONTEXT[requirement as string](exchange, context)) };
}

/** True when the latest recorded word on the order, before now, is that it exists: created, listed or got; not deleted since. */
function existsBefore(id: string, earlier: readonly RecordedExchange[]): boolean {
  for (let index = earlier.length - 1; index >= 0; index--) {
    const { exchange } = earlier[index];
    if (!isSuccess(exchange.status)) continue;
    const body = exchange.json as { id?: unknown; data?: unknown } | undefined;
    if (exchange.operationId === 'deleteOrder' && orderIdOf(exchange) === id) return false;
    if ((exchange.operationId === 'createOrder' || exchange.operationId === 'getOrder') && String(body?.id) === id) return true;
    if (exchange.operationId === 'listOrders' && Array.isArray(body?.data) && body.data.some((order) => String((order as { id?: unknown })?.id) === id)) return true;
  }
  return false;
}

/** The body a 2xx create sent for this id, when no later update or delete of it was recorded before now. */
function createdUnchanged(id: string, earlier: readonly RecordedExchange[]): Json | undefined {
  for (let index = earlier.length - 1; index >= 0; index--) {
    const { exchange, truncated } = earlier[index];
    if (!isSuccess(exchange.status)) continue;
    if ((exchange.operationId === 'updateOrder' || exchange.operationId === 'deleteOrder') && orderIdOf(exchange) === id) return undefined;
    if (exchange.operationId === 'createOrder' && String((exchange.json as Json | undefined)?.id) === id) return truncated?.request ? undefined : jsonObject(exchange.request.body);
  }
  return undefined;
}

// Sequences on one order: what a get or a list after a write of it shows (4.4, 4.5).

/** The latest 2xx write of the order recorded before now: its create (the answer names the id), an update or a delete of it. */
function lastWrite(id: string, earlier: readonly RecordedExchange[]): { recorded: RecordedExchange; index: number } | undefined {
  for (let index = earlier.length - 1; index >= 0; index--) {
    if (writtenId(earlier[index].exchange) === id) return { recorded: earlier[index], index };
  }
  return undefined;
}

/** The order a 2xx create, update or delete wrote; undefined for any other exchange. */
function writtenId(exchange: Exchange): string | undefined {
  if (!isSuccess(exchange.status)) return undefined;
  if (exchange.operationId === 'createOrder') return String((exchange.json as Json | undefined)?.id);
  return exchange.operationId === 'updateOrder' || exchange.operationId === 'deleteOrder' ? orderIdOf(exchange) : undefined;
}

/** What the order's last full form before the delete at `before` held of created_at and deleted_at: how the order looked live. */
function asCreatedBefore(id: string, earlier: readonly RecordedExchange[], before: number): AsCreated {
  for (let index = before - 1; index >= 0; index--) {
    const { exchange } = earlier[index];
    const body = exchange.json as Json | undefined;
    const fullForm = exchange.operationId === 'createOrder' || exchange.operationId === 'getOrder' || exchange.operationId === 'updateOrder';
    if (fullForm && isSuccess(exchange.status) && String(body?.id) === id) return { created_at: body?.created_at, deleted_at: body?.deleted_at };
  }
  return {};
}

/**
 * A get after the order's last write shows it: an update's fields (ORD-UPDATE-003), a delete's effect
 * (ORD-DELETE-002); a list read late enough after a delete that a get showed hard (ORD-DELETE-002).
 * The judgements of the suite's own runs, with the same checks.
 */
function afterWrites(exchange: Exchange, earlier: readonly RecordedExchange[], { listSettleMs }: TrafficJudging): TrafficJudgement[] {
  if (exchange.operationId === 'getOrder') {
    // A get refused for its credentials shows nothing of the order.
    if (exchange.status === 401) return [];
    const id = orderIdOf(exchange);
    const write = lastWrite(id, earlier);
    const written = write?.recorded.exchange;
    if (written?.operationId === 'updateOrder' && isSuccess(exchange.status)) {
      const sent = write?.recorded.truncated?.request ? undefined : jsonObject(written.request.body);
      return sent ? [{ requirementId: 'ORD-UPDATE-003', finding: violationIn(updateVisibleOnGet(sent, exchange, `the get of order ${id} after its update`, written)) }] : [];
    }
    if (written?.operationId === 'deleteOrder') {
      return [{ requirementId: 'ORD-DELETE-002', finding: violationIn(deletedOnGet(`a get of order ${id} after its delete`, asCreatedBefore(id, earlier, write?.index ?? 0), exchange, written)) }];
    }
    return [];
  }
  if (exchange.operationId !== 'listOrders' || !isSuccess(exchange.status)) return [];
  const search = searchOfPage(readPage(Object.fromEntries(new URLSearchParams(exchange.request.path.split('?')[1] ?? '')), exchange));
  return hardDeletedBefore(exchange, earlier, listSettleMs).map((id) => ({ requirementId: 'ORD-DELETE-002', finding: violationIn(goneFromList(id, search)) }));
}

/**
 * The orders whose last write is a 2xx delete started at least `listSettleMs` before this list, that a get
 * after it no longer found (404, 410): a soft-deleted order may stay listed, and a list may lag behind writes
 * (ORD-OBS-027). Without the clock of both exchanges, none.
 */
function hardDeletedBefore(list: Exchange, earlier: readonly RecordedExchange[], listSettleMs: number): string[] {
  const listedAt = Date.parse(list.timing?.startedAt ?? '');
  const notFoundSince = new Set<string>();
  const lastWriteSeen = new Set<string>();
  const ids: string[] = [];
  // From the newest back: a get's 404 counts only when the first write met before it, its latest, is a delete.
  for (let index = earlier.length - 1; index >= 0; index--) {
    const { exchange } = earlier[index];
    if (exchange.operationId === 'getOrder' && isNotFound(exchange.status)) notFoundSince.add(orderIdOf(exchange));
    const id = writtenId(exchange);
    if (id === undefined || lastWriteSeen.has(id)) continue;
    lastWriteSeen.add(id);
    const settled = listedAt - Date.parse(exchange.timing?.startedAt ?? '') >= listSettleMs;
    if (exchange.operationId === 'deleteOrder' && notFoundSince.has(id) && settled) ids.push(id);
  }
  return ids;
}

function orderIdOf(exchange: Exchange): string {
  const segment = exchange.request.path.split('?')[0].split('/')[2] ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function jsonObject(text: string | undefined): Json | undefined {
  // Bytes that are not UTF-8 make no JSON text: what a lenient decoder reads of them is the server's choice (ORD-OBS-033).
  const value = text === undefined || holdsNonUtf8Bytes(text) ? undefined : parseJson(text);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}
