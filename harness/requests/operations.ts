import type { OperationId } from '../../contract/openapi';
import { operations, requestLine } from '../../contract/operations';
import { orderRequest, type OmsApi } from './api';
import { answered401, REFUSED_NOTE, refusedWithBadCredentials, untouchedByBadCredentials, type BadCredentials } from '../../checks/auth';
import type { Exchange } from '../../contract/exchange';
import { check } from '../record/findings';
import type { RequestSpec } from '../http/client';
import { minimalOrder } from '../../contract/examples';

/** One of the five order operations of section 4, as a request a test can send against an order id. */
export interface OrderOperation {
  /** Method and path as the document writes them: GET /orders/{order_id}. */
  name: string;
  operationId: OperationId;
  /** A well-formed request; update stores a note, so a refused update can be told from a served one. */
  request(id: string): RequestSpec;
}

/** What a request to each operation carries besides its method and path. */
const CARRIES: Partial<Record<OperationId, () => Partial<RequestSpec>>> = {
  listOrders: () => ({ query: { limit: 1 } }),
  createOrder: () => ({ json: minimalOrder() }),
  updateOrder: () => ({ json: { note: REFUSED_NOTE } }),
};

/** The operations openapi.yaml tags "orders", in its order; those with a path parameter are sent to the given order. */
export const ORDER_OPERATIONS: readonly OrderOperation[] = operations()
  .filter((operation) => operation.tags.includes('orders'))
  .map(({ id: operationId, name, parameters }) => ({
    name,
    operationId,
    request: (id) => ({ ...(parameters.length ? orderRequest(operationId, id) : requestLine(operationId)), ...CARRIES[operationId]?.() }),
  }));

/** Requests without valid credentials (sent together) were refused with 401, and the updates or deletes among them left the order as it was. */
export async function refusedAndUnchanged(api: OmsApi, requirementId: BadCredentials, operation: string, id: string, ...exchanges: Exchange[]): Promise<void> {
  for (const exchange of exchanges) {
    check(refusedWithBadCredentials(requirementId)(exchange));
    check(answered401(exchange));
  }
  if (exchanges.some(({ operationId }) => operationId === 'updateOrder' || operationId === 'deleteOrder')) check(untouchedByBadCredentials(requirementId, operation, id)(await api.get(id)));
}
