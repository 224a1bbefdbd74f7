import { contract } from '../../../contract/openapi';
import { ApiError, errorReply } from '../../../reference/http';
import { declaredFields } from '../../../contract/projection';
import type { StoredOrder } from '../../../reference/store';
import { allOrders, callerOf, is, isSuccess, operationOf, withQuery, withStore, type Hooks, type Json } from '../faults/kit';
import { variant, type VariantDefinition } from './definition';

/** Conformant differences in what the service stores, lists and accepts. */
export const STORAGE_VARIANTS: VariantDefinition[] = [
  variant({
    name: 'soft-delete',
    description:
      'Delete keeps the order: get answers it with deleted_at set; it leaves the list and meta.total; a later update or delete of it answers 410.',
    basis: '4.5: "Effect of deletion on the stored order and on its later retrieval: not shown." (ORD-OBS-004)',
    hooks: () => softDelete({ listed: false }),
  }),
  variant({
    name: 'soft-delete-listed',
    description: 'As soft-delete, but a deleted order stays in the list and in meta.total.',
    basis: '4.5: the effect of deletion is not shown; nothing says a deleted order leaves the list.',
    hooks: () => softDelete({ listed: true }),
  }),
  variant({
    name: 'soft-delete-conflict',
    description: 'As soft-delete, but a later update or delete of a deleted order answers 409 (a conflict with its state), not 410.',
    basis: '4.5: the effect of deletion is not shown; error status codes per condition are not shown either (7).',
    hooks: () => softDelete({ listed: false, refusal: 409 }),
  }),
  variant({
    name: 'update-replace',
    description: 'An update replaces rather than merges: an optional field the update omits (note) is cleared.',
    basis: '4.4: "Whether omitted fields are kept or cleared ... not shown." (ORD-OBS-005)',
    hooks: () => {
      // Only what the full form does not require can be cleared: customer, items, currency and price stay.
      const required = new Set(contract().schema('Order').required as string[]);
      const clearable = declaredFields(contract().schema('OrderUpdate')).filter((field) => !required.has(field));
      return {
        rewriteReply: (request, reply, { services }) => {
          if (!is(request, 'update') || !isSuccess(reply)) return reply;
          const sent = JSON.parse(request.bodyText) as Json;
          const order = { ...(reply.body as StoredOrder) };
          for (const field of clearable) if (!(field in sent)) delete order[field];
          services.store.replace(order);
          return { ...reply, body: order };
        },
      };
    },
  }),
  variant({
    name: 'oldest-first',
    description: 'The list is ordered oldest first.',
    basis: '4.1: the order of the list is not shown (ORD-OBS-008).',
    hooks: () => ({
      wrapServices: (services) =>
        withStore(services, (store) => ({
          page: (account, offset, limit) => {
            const orders = allOrders(store, account).reverse();
            return { orders: orders.slice(offset, offset + limit), total: orders.length };
          },
        })),
    }),
  }),
  variant({
    name: 'clamp-paging',
    description: 'An out-of-range page or limit is clamped into range (limit=500 is 100, page=0 is 1); a non-integer one falls back to the default.',
    basis: '8: what happens to an out-of-range page or limit is not shown (ORD-OBS-009, ORD-LIST-010).',
    hooks: () => ({
      rewriteRequest: (request) => {
        if (!is(request, 'list')) return request;
        const clamped: Record<string, string> = {};
        for (const name of ['page', 'limit']) {
          const raw = request.query.get(name);
          const bounds = contract().queryParameter('listOrders', name) as { default: number; minimum: number; maximum?: number };
          const value = Number(raw);
          if (raw === null) continue;
          const inRange = Math.min(Math.max(Math.trunc(value), bounds.minimum), bounds.maximum ?? Number.MAX_SAFE_INTEGER);
          clamped[name] = String(raw.trim() !== '' && Number.isFinite(value) ? inRange : bounds.default);
        }
        return withQuery(request, clamped);
      },
    }),
  }),
  variant({
    name: 'unknown-fields-rejected',
    description: 'A create or update with a top-level field the document does not list is refused with 400 and the error envelope.',
    basis: '4.2: whether an unknown request field is ignored or rejected is not shown (ORD-OBS-012).',
    hooks: () => {
      const known = {
        create: new Set(declaredFields(contract().schema('OrderCreate'))),
        update: new Set(declaredFields(contract().schema('OrderUpdate'))),
      };
      return {
        intercept: (request, { accounts }) => {
          const { operation } = operationOf(request);
          // Authentication still comes first: only an authenticated create or update is looked at.
          if ((operation !== 'create' && operation !== 'update') || !callerOf(request, accounts)) return undefined;
          let body: unknown;
          try {
            body = JSON.parse(request.bodyText);
          } catch {
            return undefined;
          }
          if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
          const unknown = Object.keys(body).filter((field) => !known[operation].has(field));
          if (unknown.length === 0) return undefined;
          return errorReply(
            new ApiError(400, 'unknown_field', 'The request body has fields this operation does not take', unknown.map((field) => ({ field, error: 'unknown field' }))),
          );
        },
      };
    },
  }),
];

/**
 * A delete that keeps the order with deleted_at set; `refusal` answers a later update or delete of it (409 or
 * 410), or 'none' lets them through: an update changes the deleted order (it stays deleted), a delete again answers 200.
 */
export function softDelete({ listed, refusal = 410 }: { listed: boolean; refusal?: 409 | 410 | 'none' }): Hooks {
  const deleted = new Set<string>();
  return {
    wrapServices: (services) => {
      return withStore(services, (store) => ({
        remove: (account, orderId) => {
          const order = store.get(account, orderId);
          if (!order) return false;
          deleted.add(orderId);
          store.replace({ ...order, deleted_at: services.now() });
          return true;
        },
        ...(listed
          ? {}
          : {
              page: (account: string, offset: number, limit: number) => {
                const orders = allOrders(store, account).filter((order) => !deleted.has(order.id));
                return { orders: orders.slice(offset, offset + limit), total: orders.length };
              },
            }),
      }));
    },
    // A deleted order can still be read, but no longer changed or deleted again.
    intercept: (request, { accounts }) => {
      const { orderId } = operationOf(request);
      const gone = refusal !== 'none' && is(request, 'update', 'delete') && orderId !== undefined && deleted.has(orderId) && callerOf(request, accounts);
      return gone ? errorReply(new ApiError(refusal, refusal === 410 ? 'gone' : 'order_deleted', `Order ${orderId} was deleted`)) : undefined;
    },
  };
}
