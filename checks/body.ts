import { pathName, returnedInFullForm, serviceTimestamps, valuesWhere } from '../contract/assigned';
import { hasOffset, isIso8601DateTime } from '../contract/datetime';
import { contract, excerpt, formatProblems, type OperationId, type SchemaProblem } from '../contract/openapi';
import { contentType, type Exchange } from '../contract/exchange';
import { holdsValue } from './roundtrip';
import { isClientError, isSuccess } from './status';
import { unless, type Check, type Judgement, type Verdict } from './check';
import { noInternalsLeaked, writtenInOwnWords } from './leaks';

/**
 * What every response is judged on, whatever the test is about: JSON (section 1), meta.status (4.1),
 * the schema of openapi.yaml for its operation and status, the error envelope (7), no internals in what the
 * service writes in its own words (leaks.ts). The api runs responseChecks on every response it gets.
 */

/** A JSON body with a JSON content type. */
const jsonBody = (exchange: Exchange): Verdict => [
  exchange.text === '' ? false : /^application\/([\w.+-]+\+)?json\b/i.test(contentType(exchange)) && exchange.json !== undefined,
  () => ({
    expected: 'a JSON body with Content-Type application/json',
    received:
      exchange.text === ''
        ? `an empty body (Content-Type ${contentType(exchange) || 'absent'})`
        : `Content-Type ${contentType(exchange) || 'absent'}${exchange.json === undefined ? ', and the body does not parse as JSON' : ''}`,
    exchange,
  }),
  exchange,
];

export const contentTypeIsJson: Check = (exchange) => unless('ORD-GEN-001', ...jsonBody(exchange));

/** An error body, where there is one, is JSON with a JSON content type (section 1); an empty one is left to carriesEnvelope. */
const errorBodyIsJson: Check = (exchange) => (exchange.text === '' ? undefined : unless('ORD-GEN-001', ...jsonBody(exchange)));

/**
 * A request larger than any order needs (a body over 1 MiB, headers over 8 KiB) is outside what the document defines,
 * and may be answered before the service sees it, by whatever stands in front of it (an application server, a proxy,
 * a load balancer), each with a page of its own. Its refusal is judged by what the document can ask of it: its
 * status (never a 5xx, ORD-ERR-005) and what it leaves (nothing changed, ORD-GEN-005); its body, whoever wrote it, is
 * observed (ORD-OBS-028), never judged. No list of who writes which page decides a verdict.
 */
const LARGEST_ORDER_BODY_BYTES = 1024 * 1024;
const LARGEST_ORDER_HEADER_BYTES = 8 * 1024;

/** True for a request beyond what any order needs: its body (sent, or declared by Content-Length) or its headers. */
export function oversizedRequest(request: Exchange['request']): boolean {
  const declared = Number(Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'content-length')?.[1] ?? 0);
  const headerBytes = Object.entries(request.headers).reduce((sum, [name, value]) => sum + Buffer.byteLength(`${name}: ${value}\r\n`), 0);
  return Math.max(declared, request.bodyBytes ?? 0, Buffer.byteLength(request.body ?? '')) > LARGEST_ORDER_BODY_BYTES || headerBytes > LARGEST_ORDER_HEADER_BYTES;
}

/** A 5xx body, where there is one, is JSON too. */
const serverErrorBodyIsJson: Check = (exchange) => (exchange.text === '' ? undefined : unless('ORD-GEN-003', ...jsonBody(exchange)));

/** meta.status, where the body has one, is the HTTP status (4.1). */
export const metaStatusMatches: Check = (exchange) => {
  const meta = (exchange.json as { meta?: { status?: unknown } } | undefined)?.meta;
  if (!meta || typeof meta !== 'object' || !('status' in meta)) return undefined;
  return unless('ORD-GEN-002', meta.status === exchange.status, () => ({
    expected: `meta.status ${exchange.status} (the HTTP status)`,
    received: `meta.status ${excerpt(meta.status)}`,
    exchange,
  }), exchange);
};

/** Where the problems the message names are, for the reports to mark in the body. */
function pointersOf(problems: SchemaProblem[]): string[] {
  return problems.slice(0, 12).map((problem) => problem.pointer);
}

/** The body matches openapi.yaml's schema for its operation and status; undefined where there is no schema or no JSON to judge. */
function matchesSchema(operationId: OperationId, exchange: Exchange): Verdict | undefined {
  const schema = contract().response(operationId, exchange.status);
  if (!schema || exchange.json === undefined) return undefined;
  const problems = schema.problems(exchange.json);
  return [
    problems.length === 0,
    () => ({ expected: `the body to match ${schema.source} in openapi.yaml`, received: `${problems.length} difference(s):\n${formatProblems(problems.slice(0, 12))}`, exchange, fieldsAtFault: pointersOf(problems) }),
    exchange,
  ];
}

/** Create, get and update answer the full form (2.1 to 2.6). */
const fullForm =
  (operationId: OperationId): Check =>
  (exchange) => {
    const verdict = matchesSchema(operationId, exchange);
    return verdict && unless('ORD-FORM-001', ...verdict);
  };

/** Delete answers one of its two documented shapes (4.5). */
const deleteShape: Check = (exchange) => {
  const verdict = matchesSchema('deleteOrder', exchange);
  return verdict && unless('ORD-DELETE-001', ...verdict);
};

/** POST /token answers a body with access_token (5.2). */
const tokenShape: Check = (exchange) => {
  const verdict = matchesSchema('issueToken', exchange);
  return verdict && unless('ORD-AUTH-005', ...verdict);
};

/**
 * The list envelope (4.1), the elements of its data left out (each summary is listSummaries'); data itself is
 * judged here: missing, null or not an array, a page is no list envelope, also past the last page.
 */
const listEnvelope: Check = (exchange) => {
  const body = exchange.json as { data?: unknown } | undefined;
  if (body === undefined) return undefined;
  const elementsLeftOut = body !== null && typeof body === 'object' && Array.isArray(body.data) ? { ...body, data: [] } : body;
  const verdict = matchesSchema('listOrders', { ...exchange, json: elementsLeftOut });
  return verdict && unless('ORD-LIST-001', ...verdict);
};

/** Each element of the list's data is an order summary (2.7). */
const listSummaries: Check = (exchange) => {
  const body = exchange.json as { data?: unknown } | undefined;
  const data = Array.isArray(body?.data) ? body.data : [];
  const summary = contract().component('OrderSummary');
  const problems = data.flatMap((element, index) => summary.problems(element).map((p) => ({ ...p, pointer: `/data/${index}${p.pointer}` })));
  return unless('ORD-FORM-002', problems.length === 0, () => ({
    expected: 'each element of data to match components.schemas.OrderSummary in openapi.yaml',
    received: `${problems.length} difference(s):\n${formatProblems(problems.slice(0, 12))}`,
    exchange,
    fieldsAtFault: pointersOf(problems),
  }), exchange);
};

/**
 * Sections 2.3 to 2.5: the fields the document says the full form returns (customer.id, customer.tax_office,
 * payment.type, each item's total: x-returned-in-full-form in openapi.yaml) are there wherever the full form
 * shows the object they belong to. An object that holds nothing (a payment never sent, or sent as {}) is no
 * object to carry them; what value each holds is the schema's to judge (ORD-FORM-001).
 */
export const promisedFieldsPresent: Check = (exchange) => {
  const missing = returnedInFullForm().flatMap(({ path, section }) =>
    valuesWhere(exchange.json, path.slice(0, -1))
      .filter(({ value }) => value !== null && typeof value === 'object' && !Array.isArray(value) && holdsValue(value) && !(path[path.length - 1] in value))
      .map(({ where }) => `${where}.${path[path.length - 1]} (section ${section})`),
  );
  return unless('ORD-FORM-003', missing.length === 0, () => ({
    expected: `the fields the document says the full form returns, wherever it shows their object: ${returnedInFullForm().map(({ path }) => pathName(path)).join(', ')}`,
    received: `missing: ${missing.join(', ')}`,
    exchange,
  }), exchange);
};

/** The zero time a live deleted_at may hold for "no value" (ORD-OBS-025), written as the language at hand writes its minimum: no instant is meant. */
const ZERO_TIME = /^0001-01-01T00:00(:00(\.0+)?)?$/;

/** Where the date-times the service writes (not the ones a client sends) are ISO 8601 without an offset, under `prefix`. */
function timestampsWithoutOffset(form: unknown, component: 'Order' | 'OrderSummary', prefix = ''): string[] {
  return serviceTimestamps(component).flatMap((path) =>
    valuesWhere(form, path)
      .filter(({ value }) => typeof value === 'string' && isIso8601DateTime(value) && !hasOffset(value) && !ZERO_TIME.test(value))
      .map(({ where, value }) => `${prefix}${where} ${excerpt(value)}`),
  );
}

/** Section 2.1 (date-time, ISO 8601): the timestamps the service writes name an instant, so each carries an offset (Z, +03:00). */
const offsetVerdict = (exchange: Exchange, found: string[]): Judgement | undefined =>
  unless('ORD-FORM-004', found.length === 0, () => ({
    expected: 'the date-times the service writes (created_at, updated_at, deleted_at) with an offset (Z or ±hh:mm): without one a timestamp names no instant and cannot be compared',
    received: `no offset: ${found.slice(0, 6).join(', ')}${found.length > 6 ? ` … and ${found.length - 6} more` : ''}`,
    exchange,
  }), exchange);

export const fullFormTimestampsCarryOffset: Check = (exchange) => offsetVerdict(exchange, timestampsWithoutOffset(exchange.json, 'Order'));

export const summaryTimestampsCarryOffset: Check = (exchange) => {
  const data = (exchange.json as { data?: unknown } | undefined)?.data;
  return offsetVerdict(exchange, Array.isArray(data) ? data.flatMap((summary, index) => timestampsWithoutOffset(summary, 'OrderSummary', `data[${index}].`)) : []);
};

/** Section 7: where an error answer carries meta, its fields have the stated types (schema ErrorEnvelope). */
const envelopeShape: Check = (exchange) => {
  const body = exchange.json as { meta?: unknown } | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body) || !('meta' in body)) return undefined;
  const problems = contract().component('ErrorEnvelope').problems(body);
  return unless('ORD-ERR-006', problems.length === 0, () => ({
    expected: 'the error envelope of section 7 as components.schemas.ErrorEnvelope in openapi.yaml has it: meta.status integer, meta.code and meta.message strings, details entries { field: string, error: string }',
    received: `${problems.length} difference(s):\n${formatProblems(problems.slice(0, 12))}`,
    exchange,
    fieldsAtFault: pointersOf(problems),
  }), exchange);
};

/** Which error answers carry the envelope is not shown (section 7): its absence is a SHOULD. */
const carriesEnvelope: Check = (exchange) => {
  const body = exchange.json as { meta?: unknown } | undefined;
  const carried = !!body && typeof body === 'object' && !Array.isArray(body) && typeof body.meta === 'object' && body.meta !== null;
  return unless('ORD-ERR-001', carried, () => ({
    expected: 'the error envelope of section 7 (a JSON object with meta: status, code, message, details)',
    received: exchange.text === '' ? 'an empty body' : exchange.json === undefined ? 'a body that is not JSON' : `a body without meta: ${excerpt(exchange.json)}`,
    exchange,
  }), exchange);
};

/** The check a 2xx body of each operation answers to, and its requirement. */
const SUCCESS_BODY: Record<Exclude<OperationId, 'listOrders'>, PlannedCheck> = {
  createOrder: ['ORD-FORM-001', fullForm('createOrder')],
  getOrder: ['ORD-FORM-001', fullForm('getOrder')],
  updateOrder: ['ORD-FORM-001', fullForm('updateOrder')],
  deleteOrder: ['ORD-DELETE-001', deleteShape],
  issueToken: ['ORD-AUTH-005', tokenShape],
};

/** The operations that answer the full form of an order (2.1: "returned by create, get and update"). */
const FULL_FORM_OPERATIONS: OperationId[] = ['createOrder', 'getOrder', 'updateOrder'];

/** A check bound to the requirement it holds a response to: what coverage counts whether the check passed or not. */
type PlannedCheck = [requirementId: string, check: Check];

/**
 * What every response of an order operation is checked for, whatever the test is about:
 * JSON (section 1, on every status), meta.status, and the schema of its status (the summary form and
 * the envelope told apart). The 4xx of POST /token are left alone but for internals: their body is not shown (5.3).
 */
function responsePlan(exchange: Exchange): PlannedCheck[] {
  const operationId = exchange.operationId;
  if (!operationId) return [];
  if (exchange.status === 429 || (exchange.status >= 300 && exchange.status < 400)) return leakPlan(exchange);
  if (operationId === 'issueToken' && isClientError(exchange.status)) return leakPlan(exchange);
  return anyResponsePlan(exchange, operationId);
}

/**
 * Every answer the service writes in its own words (an error, or one that is not JSON) is searched for internals
 * (ORD-ERR-010), whatever else it is held to; not the refusal of a request larger than any order needs, which a
 * server or proxy in front may write (its body is observed, ORD-OBS-028).
 */
function leakPlan(exchange: Exchange): PlannedCheck[] {
  return writtenInOwnWords(exchange) && !refusalOfOversized(exchange) ? [['ORD-ERR-010', noInternalsLeaked]] : [];
}

function refusalOfOversized(exchange: Exchange): boolean {
  return exchange.status >= 400 && exchange.status < 500 && exchange.status !== 429 && oversizedRequest(exchange.request);
}

function anyResponsePlan(exchange: Exchange, operationId?: OperationId): PlannedCheck[] {
  return [...statusPlan(exchange, operationId), ...leakPlan(exchange)];
}

/** What an answer is held to by its status and operation: JSON, meta.status, the schema or the envelope. */
function statusPlan(exchange: Exchange, operationId?: OperationId): PlannedCheck[] {
  if (exchange.status >= 500) return [['ORD-GEN-003', serverErrorBodyIsJson]];
  if (exchange.status >= 400 && exchange.status !== 429) {
    // The refusal of a request larger than any order needs: its body is observed, whoever wrote it (ORD-OBS-028).
    if (refusalOfOversized(exchange)) return [];
    return [['ORD-GEN-001', errorBodyIsJson], ['ORD-GEN-002', metaStatusMatches], ['ORD-ERR-006', envelopeShape], ['ORD-ERR-001', carriesEnvelope]];
  }
  if (!operationId || !isSuccess(exchange.status)) return [];
  const common: PlannedCheck[] = [['ORD-GEN-001', contentTypeIsJson], ['ORD-GEN-002', metaStatusMatches]];
  if (operationId === 'listOrders') return [...common, ['ORD-LIST-001', listEnvelope], ['ORD-FORM-002', listSummaries], ['ORD-FORM-004', summaryTimestampsCarryOffset]];
  if (FULL_FORM_OPERATIONS.includes(operationId)) {
    return [...common, SUCCESS_BODY[operationId], ['ORD-FORM-003', promisedFieldsPresent], ['ORD-FORM-004', fullFormTimestampsCarryOffset]];
  }
  return [...common, SUCCESS_BODY[operationId]];
}

export function responseChecks(exchange: Exchange): Array<Judgement | undefined> {
  return responsePlan(exchange).map(([, check]) => check(exchange));
}

/** The requirements responseChecks holds a response to (whether it met them or not): what the coverage matrix counts. */
export function responseRequirements(exchange: Exchange): string[] {
  return responsePlan(exchange).map(([requirementId]) => requirementId);
}

/** A response to a request that names no operation of the interface (another method, another path): what sections 1 and 7 still hold of it. */
export function anyResponseChecks(exchange: Exchange): Array<Judgement | undefined> {
  return anyResponsePlan(exchange).map(([, check]) => check(exchange));
}
