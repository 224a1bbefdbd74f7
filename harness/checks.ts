import { contract, excerpt, formatProblems, type OperationId } from '../contract/openapi';
import { contentType, type Exchange } from './exchange';
import { unless, type Finding } from './findings';

/**
 * Small named checks with one signature: (exchange) => Finding | undefined.
 * Each names the requirement it checks; the api runs responseChecks on every response it gets.
 */
export type Check = (exchange: Exchange) => Finding | undefined;

export const is2xx = (requirementId: string): Check => (exchange) =>
  unless(exchange.status >= 200 && exchange.status < 300, () => ({
    requirementId,
    expected: 'a 2xx status',
    received: `${exchange.status}`,
    exchange,
  }));

/** 404 or 410: the usual answers for an id the service does not hold. */
export const isNotFound = (requirementId: string): Check => (exchange) =>
  unless(exchange.status === 404 || exchange.status === 410, () => ({
    requirementId,
    expected: '404 or 410',
    received: `${exchange.status}`,
    exchange,
  }));

/**
 * The answer for an unknown id: 404 or 410; for an id of another form than the service's own, any 4xx
 * too (a server may check the form of an id before looking it up, with a status of its choosing: ORD-OBS-018, ORD-OBS-002).
 */
export const isUnknownAnswer = (requirementId: string, ownForm: boolean): Check => (exchange) =>
  unless(exchange.status === 404 || exchange.status === 410 || (!ownForm && exchange.status >= 400 && exchange.status < 500), () => ({
    requirementId,
    expected: ownForm ? '404 or 410 (an unknown id of the form the service assigns)' : '404 or 410, or another 4xx (an unknown id of another form than the service assigns)',
    received: `${exchange.status}`,
    exchange,
  }));

export const is4xx = (requirementId: string): Check => (exchange) =>
  unless(exchange.status >= 400 && exchange.status < 500, () => ({
    requirementId,
    expected: 'a 4xx status (the request is at fault)',
    received: `${exchange.status}`,
    exchange,
  }));

/** Refused: anything but a 2xx (the status itself is a SHOULD, checked apart). */
export const isRefused = (requirementId: string): Check => (exchange) =>
  unless(exchange.status < 200 || exchange.status >= 300, () => ({
    requirementId,
    expected: 'the request to be refused (a non-2xx status)',
    received: `${exchange.status}: it was accepted`,
    exchange,
  }));

export const contentTypeIsJson: Check = (exchange) =>
  unless(exchange.text === '' ? false : /^application\/([\w.+-]+\+)?json\b/i.test(contentType(exchange)) && exchange.json !== undefined, () => ({
    requirementId: 'ORD-GEN-001',
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
  return unless(meta.status === exchange.status, () => ({
    requirementId: 'ORD-GEN-002',
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
  return unless(problems.length === 0, () => ({
    requirementId,
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

/**
 * What every response of an order operation is checked for, whatever the test is about:
 * JSON, meta.status, and the schema of its status (the summary form and the envelope told apart).
 */
export function responseChecks(exchange: Exchange): Array<Finding | undefined> {
  const operationId = exchange.operationId;
  if (!operationId || exchange.status === 429 || exchange.status >= 500) return [];
  const success = exchange.status >= 200 && exchange.status < 300;
  if (!success && exchange.status < 400) return [];
  const findings: Array<Finding | undefined> = [
    success ? contentTypeIsJson(exchange) : errorIsJson(exchange),
    metaStatusMatches(exchange),
  ];
  if (!success) return [...findings, bodyMatchesSchema(operationId, 'ORD-ERR-001')(exchange)];
  if (operationId === 'listOrders') return [...findings, ...listShape(exchange)];
  return [...findings, bodyMatchesSchema(operationId, SUCCESS_SHAPE[operationId])(exchange)];
}

const errorIsJson: Check = (exchange) => {
  const finding = contentTypeIsJson(exchange);
  return finding && { ...finding, requirementId: 'ORD-ERR-001' };
};

/** The list envelope (ORD-LIST-001) and its summaries (ORD-FORM-002), reported apart. */
function listShape(exchange: Exchange): Array<Finding | undefined> {
  const body = exchange.json as { data?: unknown } | undefined;
  if (body === undefined) return [];
  const data = Array.isArray(body?.data) ? body.data : [];
  const envelope = bodyMatchesSchema('listOrders', 'ORD-LIST-001')({ ...exchange, json: { ...body, data: [] } });
  const summary = contract().component('OrderSummary');
  const problems = data.flatMap((element, index) =>
    summary.problems(element).map((p) => ({ ...p, pointer: `/data/${index}${p.pointer}` })),
  );
  return [
    envelope,
    unless(problems.length === 0, () => ({
      requirementId: 'ORD-FORM-002',
      expected: 'each element of data to match components.schemas.OrderSummary in openapi.yaml',
      received: `${problems.length} difference(s):\n${formatProblems(problems.slice(0, 12))}`,
      exchange,
    })),
  ];
}
