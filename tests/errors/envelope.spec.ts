import type { OperationId } from '../../contract/openapi';
import type { RequestSpec } from '../../harness/http/client';
import { test } from '../../harness/fixtures';
import { ORDER_OPERATIONS } from '../../harness/requests/operations';
import { orderToRead } from '../../harness/requests/orders';
import { verifies } from '../../harness/record/verifies';
import { orderPath } from '../../harness/requests/api';

/**
 * Section 1 ("Bodies are JSON") and section 7 (the envelope's fields, and no internals in them: ORD-ERR-010) on the
 * error answers of every operation. The api checks every response it receives (checks/body.ts responseChecks): these
 * tests make each operation answer its errors, so that no operation's 401, 404 or 4xx goes unseen.
 */
const ERRORS_BY_OPERATION: Partial<Record<OperationId, (id: string, unknownId: string) => Array<[string, Partial<RequestSpec>]>>> = {
  listOrders: () => [['an out-of-range limit', { query: { limit: 0 } }], ['a page that is not a number', { query: { page: 'abc' } }]],
  createOrder: () => [['a body without the required fields', { json: { note: 'no customer' } }], ['a body that is not JSON', { json: undefined, rawBody: '{"customer":', contentType: 'application/json' }]],
  getOrder: (_id, unknownId) => [['an unknown id', { path: orderPath(unknownId) }]],
  updateOrder: (id, unknownId) => [['an unknown id', { path: orderPath(unknownId) }], ['a field of the wrong type', { path: orderPath(id), json: { price: 'not a number' } }]],
  deleteOrder: (_id, unknownId) => [['an unknown id', { path: orderPath(unknownId) }]],
};

test.describe('JSON bodies and the error envelope on every response (1, 7)', () => {
  for (const { name: operation, operationId, request } of ORDER_OPERATIONS) {
    test(`${operation} answers its errors in JSON, with the envelope of section 7 where it carries one, and without internals`, verifies('ORD-GEN-001', 'ORD-ERR-006', 'ORD-ERR-001', 'ORD-GEN-003', 'ORD-ERR-010'), async ({ api }) => {
      const created = await orderToRead(api);
      await api.send({ ...request(created.id), authorization: null });
      for (const [, change] of ERRORS_BY_OPERATION[operationId]!(created.id, api.unknownId())) {
        await api.send({ ...request(created.id), ...change });
      }
    });
  }

});
