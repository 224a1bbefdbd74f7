import type { AccountName } from '../../config/settings';
import type { Exchange } from '../../contract/exchange';
import type { OperationId } from '../../contract/openapi';
import { isSuccess } from '../../checks/status';

export interface RequestSpec {
  operationId?: OperationId;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Path below the base URL, e.g. /orders/123 (already encoded). */
  path: string;
  query?: Record<string, string | number>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is (malformed JSON, empty bodies, oversized bodies); bytes that are not UTF-8 written as contract/exchange.ts nonUtf8Byte writes them. */
  rawBody?: string;
  /** Content-Type of the body: application/json unless given; null sends the body without one. */
  contentType?: string | null;
  /** Authorization header value; undefined: "Bearer <token>" of this client; null: no header. */
  authorization?: string | null;
  /** Headers of the request's own, beside those above (an oversized one). */
  headers?: Record<string, string>;
}

/**
 * A request on its way through the request pipeline (harness/requests/pipeline.ts): what is sent, for which
 * account, and what the stages it passed leave for the ones after.
 */
export interface Outgoing {
  spec: RequestSpec;
  account: AccountName;
  /** The operation of the interface it is, by method and path; undefined for one the interface does not define. */
  operation: OperationId | undefined;
  /** The order its path names, decoded; '' for /orders. */
  orderId: string;
  /** Told of the exchange (the requests of a generated run, for its counterexample). */
  onExchange?: (exchange: Exchange) => void;
  /** Set by the ownership stage: a 2xx answer to this delete releases the order for good (no other create of the run was given its id). */
  releases?: boolean;
  /** Where in the run a request outside any test is made, as the report names it ("the worker's cleanup: …"). */
  outside?: string;
  /** A method the interface does not define sent to /orders itself, once a list read whole showed the account holds this run's orders alone (OmsApi.sendToCollection). */
  collectionClearedByList?: true;
}

/**
 * What sends a request: a stage of the pipeline, which does its part, hands the request to the stage it wraps,
 * and does the rest of its part with what came back; at the bottom, the transport. Each stage is one function,
 * entered once per request.
 */
export interface Sender {
  send(request: Outgoing): Promise<Exchange>;
}

/** The id of the order a create's answer says it made: a 2xx with a string or number id; undefined for any other answer. */
export function createdIdOf(exchange: Exchange): string | undefined {
  const id = (exchange.json as { id?: unknown } | undefined)?.id;
  return isSuccess(exchange.status) && (typeof id === 'string' || typeof id === 'number') ? String(id) : undefined;
}
