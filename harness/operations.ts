import type { OperationId } from '../contract/openapi';
import { orderPath, type OmsApi } from './api';
import { isRefused } from '../checks/body';
import type { Exchange } from './http/exchange';
import { check, unless } from './findings';
import type { RequestSpec } from './http/client';
import { minimalOrder } from '../generators/examples';

/** One of the five order operations of section 4, as a request a test can send against an order id. */
export interface OrderOperation {
  /** Method and path as the document writes them: GET /orders/{id}. */
  name: string;
  operationId: OperationId;
  /** A well-formed request; update stores a note, so a refused update can be told from a served one. */
  request(id: string): RequestSpec;
}

/** The note a request that must be refused carries: finding it stored shows the refusal did not happen. */
export const REFUSED_NOTE = 'must not be stored';

export const ORDER_OPERATIONS: readonly OrderOperation[] = [
  { name: 'GET /orders', operationId: 'listOrders', request: () => ({ operationId: 'listOrders', method: 'GET', path: '/orders', query: { limit: 1 } }) },
  { name: 'POST /orders', operationId: 'createOrder', request: () => ({ operationId: 'createOrder', method: 'POST', path: '/orders', json: minimalOrder() }) },
  { name: 'GET /orders/{id}', operationId: 'getOrder', request: (id) => ({ operationId: 'getOrder', method: 'GET', path: orderPath(id) }) },
  { name: 'PUT /orders/{id}', operationId: 'updateOrder', request: (id) => ({ operationId: 'updateOrder', method: 'PUT', path: orderPath(id), json: { note: REFUSED_NOTE } }) },
  { name: 'DELETE /orders/{id}', operationId: 'deleteOrder', request: (id) => ({ operationId: 'deleteOrder', method: 'DELETE', path: orderPath(id) }) },
];

/** A request without valid credentials was refused with 401, and an update or delete it carried left the order as it was. */
export async function refusedAndUnchanged(api: OmsApi, requirementId: string, operation: string, id: string, exchange: Exchange): Promise<void> {
  check(isRefused(requirementId)(exchange));
  check(
    unless('ORD-AUTH-006', exchange.status === 401, () => ({
      expected: '401 for a request without valid credentials',
      received: `${exchange.status}`,
      exchange,
    })),
  );
  if (operation.startsWith('PUT') || operation.startsWith('DELETE')) {
    const after = await api.get(id);
    check(
      unless(requirementId, after.status >= 200 && after.status < 300 && (after.json as { note?: unknown }).note !== REFUSED_NOTE, () => ({
        expected: `order ${id} untouched by the refused ${operation}`,
        received: after.status >= 300 ? `it is gone (get answers ${after.status})` : 'the note sent without credentials was stored',
        exchange: after,
      })),
    );
  }
}

