import { contract, excerpt, formatProblems, type OperationId } from '../contract/openapi';
import { contentType, type Exchange } from '../harness/http/exchange';
import { unless, type Finding } from '../harness/findings';
import { notOnePathSegment } from '../harness/http/order-path';

/**
 * Small named checks with one signature: (exchange) => Finding | undefined.
 * Each names the requirement it checks; the api runs responseChecks on every response it gets.
 */
export type Check = (exchange: Exchange) => Finding | undefined;

export const is2xx = (requirementId: string): Check => (exchange) =>
  unless(requirementId, exchange.status >= 200 && exchange.status < 300, () => ({
    expected: 'a 2xx status',
    received: `${exchange.status}`,
    exchange,
  }));

/** 404 or 410: the usual answers for an id the service does not hold. */
export const isNotFound = (requirementId: string): Check => (exchange) =>
  unless(requirementId, exchange.status === 404 || exchange.status === 410, () => ({
    expected: '404 or 410',
    received: `${exchange.status}`,
    exchange,
  }));

/**
 * The answer for an unknown id: 404 or 410; for an id of another form than the service's own, any 4xx
 * too (a server may check the form of an id before looking it up, with a status of its choosing: ORD-OBS-018, ORD-OBS-002).
 */
export const isUnknownAnswer = (requirementId: string, ownForm: boolean): Check => (exchange) =>
  unless(requirementId, exchange.status === 404 || exchange.status === 410 || (!ownForm && exchange.status >= 400 && exchange.status < 500), () => ({
    expected: ownForm ? '404 or 410 (an unknown id of the form the service assigns)' : '404 or 410, or another 4xx (an unknown id of another form than the service assigns)',
    received: `${exchange.status}`,
    exchange,
  }));

export const is4xx = (requirementId: string): Check => (exchange) =>
  unless(requirementId, exchange.status >= 400 && exchange.status < 500, () => ({
    expected: 'a 4xx status (the request is at fault)',
    received: `${exchange.status}`,
    exchange,
  }));

/** Refused: anything but a 2xx (the status itself is a SHOULD, checked apart). */
export const isRefused = (requirementId: string): Check => (exchange) =>
  unless(requirementId, exchange.status < 200 || exchange.status >= 300, () => ({
    expected: 'the request to be refused (a non-2xx status)',
    received: `${exchange.status}: it was accepted`,
    exchange,
  }));

export const contentTypeIsJson: Check = (exchange) =>
  unless('ORD-GEN-001', exchange.text === '' ? false : /^application\/([\w.+-]+\+)?json\b/i.test(contentType(exchange)) && exchange.json !== undefined, () => ({
    expected: 'a JSON body with Content-Type application/json',
    received:
      exchange.text === ''
        ? `an empty body (Content-Type ${contentType(exchange) || 'absent'})`
        : `Content-Type ${contentType(exchange) || 'absent'}${exchange.json === undefined ? ', and the body does not parse as JSON' : ''}`,
    exchange,
  }));

/** meta.status, where the body has one, is the HTTP status (4.1). */
export const metaStatusMatches: Check = (exchange) => {
  const meta = (exchange.json as { meta?: { status?: unknown } } | undefined)?.meta;
  if (!meta || typeof meta !== 'object' || !('status' in meta)) return undefined;
  return unless('ORD-GEN-002', meta.status === exchange.status, () => ({
    expected: `meta.status ${exchange.status} (the HTTP status)`,
    received: `meta.status ${excerpt(meta.status)}`,
    exchange,
  }));
};

/** The body matches openapi.yaml's schema for this operation and status. */
export const bodyMatchesSchema = (operationId: OperationId, requirementId: string): Check => (exchange) => {
  const schema = contract().response(operationId, exchange.status);
  if (!schema || exchange.json === undefined) return undefined;
  const problems = schema.problems(exchange.json);
  return unless(requirementId, problems.length === 0, () => ({
    expected: `the body to match ${schema.source} in openapi.yaml`,
    received: `${problems.length} difference(s):\n${formatProblems(problems.slice(0, 12))}`,
    exchange,
  }));
};

/** Which requirement a 2xx body of each operation answers to. */
const SUCCESS_SHAPE: Record<OperationId, string> = {
  listOrders: 'ORD-LIST-001',
  createOrder: 'ORD-FORM-001',
  getOrder: 'ORD-FORM-001',
  updateOrder: 'ORD-FORM-001',
  deleteOrder: 'ORD-DELETE-001',
  issueToken: 'ORD-AUTH-005',
};

/** A check bound to the requirement it holds a response to: what coverage counts whether the check passed or not. */
type PlannedCheck = [requirementId: string, check: Check];

/**
 * What every response of an order operation is checked for, whatever the test is about:
 * JSON (section 1, on every status), meta.status, and the schema of its status (the summary form and
 * the envelope told apart). The 4xx of POST /token are left alone: their body is not shown (5.3).
 */
function responsePlan(exchange: Exchange): PlannedCheck[] {
  const operationId = exchange.operationId;
  if (!operationId || exchange.status === 429 || (exchange.status >= 300 && exchange.status < 400)) return [];
  if (operationId === 'issueToken' && exchange.status >= 400 && exchange.status < 500) return [];
  return anyResponsePlan(exchange, operationId);
}

function anyResponsePlan(exchange: Exchange, operationId?: OperationId): PlannedCheck[] {
  if (exchange.status >= 500) return [['ORD-GEN-003', bodyIsJson('ORD-GEN-003')]];
  if (exchange.status >= 400 && exchange.status !== 429) {
    return [['ORD-GEN-001', bodyIsJson('ORD-GEN-001')], ['ORD-GEN-002', metaStatusMatches], ['ORD-ERR-006', envelopeShape], ['ORD-ERR-001', carriesEnvelope]];
  }
  if (!operationId || exchange.status < 200 || exchange.status >= 300) return [];
  const common: PlannedCheck[] = [['ORD-GEN-001', contentTypeIsJson], ['ORD-GEN-002', metaStatusMatches]];
  if (operationId === 'listOrders') return [...common, ['ORD-LIST-001', listEnvelope], ['ORD-FORM-002', listSummaries]];
  return [...common, [SUCCESS_SHAPE[operationId], bodyMatchesSchema(operationId, SUCCESS_SHAPE[operationId])]];
}

export function responseChecks(exchange: Exchange): Array<Finding | undefined> {
  return responsePlan(exchange).map(([, check]) => check(exchange));
}

/** The requirements responseChecks holds a response to (whether it met them or not): what the coverage matrix counts. */
export function responseRequirements(exchange: Exchange): string[] {
  return responsePlan(exchange).map(([requirementId]) => requirementId);
}

/** A response to a request that names no operation of the interface (another method, another path): what sections 1 and 7 still hold of it. */
export function anyResponseChecks(exchange: Exchange): Array<Finding | undefined> {
  return anyResponsePlan(exchange).map(([, check]) => check(exchange));
}

/** A body, where there is one, is JSON with a JSON content type (section 1); an empty error body is left to carriesEnvelope. */
export const bodyIsJson = (requirementId: string): Check => (exchange) => {
  if (exchange.text === '') return undefined;
  const finding = contentTypeIsJson(exchange);
  return finding && { ...finding, requirementId };
};

/** Section 7: where an error answer carries meta, its fields have the stated types (schema ErrorEnvelope). */
export const envelopeShape: Check = (exchange) => {
  const body = exchange.json as { meta?: unknown } | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body) || !('meta' in body)) return undefined;
  const problems = contract().component('ErrorEnvelope').problems(body);
  return unless('ORD-ERR-006', problems.length === 0, () => ({
    expected: 'the error envelope of section 7 as components.schemas.ErrorEnvelope in openapi.yaml has it: meta.status integer, meta.code and meta.message strings, details entries { field: string, error: string }',
    received: `${problems.length} difference(s):\n${formatProblems(problems.slice(0, 12))}`,
    exchange,
  }));
};

/** Which error answers carry the envelope is not shown (section 7): its absence is a SHOULD. */
export const carriesEnvelope: Check = (exchange) => {
  const body = exchange.json as { meta?: unknown } | undefined;
  const carried = !!body && typeof body === 'object' && !Array.isArray(body) && typeof body.meta === 'object' && body.meta !== null;
  return unless('ORD-ERR-001', carried, () => ({
    expected: 'the error envelope of section 7 (a JSON object with meta: status, code, message, details)',
    received: exchange.text === '' ? 'an empty body' : exchange.json === undefined ? 'a body that is not JSON' : `a body without meta: ${excerpt(exchange.json)}`,
    exchange,
  }));
};

/** The list envelope (ORD-LIST-001), its data left out: each summary is ORD-FORM-002's. */
const listEnvelope: Check = (exchange) => {
  const body = exchange.json as { data?: unknown } | undefined;
  if (body === undefined) return undefined;
  return bodyMatchesSchema('listOrders', 'ORD-LIST-001')({ ...exchange, json: { ...body, data: [] } });
};

/** Each element of the list's data is an order summary (ORD-FORM-002). */
const listSummaries: Check = (exchange) => {
  const body = exchange.json as { data?: unknown } | undefined;
  const data = Array.isArray(body?.data) ? body.data : [];
  const summary = contract().component('OrderSummary');
  const problems = data.flatMap((element, index) => summary.problems(element).map((p) => ({ ...p, pointer: `/data/${index}${p.pointer}` })));
  return unless('ORD-FORM-002', problems.length === 0, () => ({
    expected: 'each element of data to match components.schemas.OrderSummary in openapi.yaml',
    received: `${problems.length} difference(s):\n${formatProblems(problems.slice(0, 12))}`,
    exchange,
  }));
};

/** The id can be put in GET/PUT/DELETE /orders/{order_id} as one segment (4.3: order_id is a path parameter). */
export const idIsOnePathSegment = (id: string): Finding | undefined => {
  const reason = notOnePathSegment(id);
  return unless('ORD-GET-005', reason === undefined, () => ({
    expected: 'an order id usable as one path segment: not empty, not "." or "..", no "/"',
    received: `the id ${JSON.stringify(id)}: ${reason}; the suite sent no request for it`,
  }));
};
