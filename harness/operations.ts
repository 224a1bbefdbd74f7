import type { OperationId } from '../contract/openapi';
import { orderPath, type OmsApi } from './api';
import { answered401, REFUSED_NOTE, refusedWithBadCredentials, untouchedByBadCredentials, type BadCredentials } from '../checks/auth';
import type { Exchange } from './http/exchange';
import { check } from './findings';
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

export const ORDER_OPERATIONS: readonly OrderOperation[] = [
  { name: 'GET /orders', operationId: 'listOrders', request: () => ({ operationId: 'listOrders', method: 'GET', path: '/orders', query: { limit: 1 } }) },
  { name: 'POST /orders', operationId: 'createOrder', request: () => ({ operationId: 'createOrder', method: 'POST', path: '/orders', json: minimalOrder() }) },
  { name: 'GET /orders/{id}', operationId: 'getOrder', request: (id) => ({ operationId: 'getOrder', method: 'GET', path: orderPath(id) }) },
  { name: 'PUT /orders/{id}', operationId: 'updateOrder', request: (id) => ({ operationId: 'updateOrder', method: 'PUT', path: orderPath(id), json: { note: REFUSED_NOTE } }) },
  { name: 'DELETE /orders/{id}', operationId: 'deleteOrder', request: (id) => ({ operationId: 'deleteOrder', method: 'DELETE', path: orderPath(id) }) },
];

/** A request without valid credentials was refused with 401, and an update or delete it carried left the order as it was. */
export async function refusedAndUnchanged(api: OmsApi, requirementId: BadCredentials, operation: string, id: string, exchange: Exchange): Promise<void> {
  check(refusedWithBadCredentials(requirementId)(exchange));
  check(answered401(exchange));
  if (operation.startsWith('PUT') || operation.startsWith('DELETE')) check(untouchedByBadCredentials(requirementId, operation, id)(await api.get(id)));
}
