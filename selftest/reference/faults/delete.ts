import { mishandlesWriteAfterDelete } from './anomalies';
import { allOrders, because, fault, is, isSuccess, withStore, type FaultDefinition } from './kit';

/** Delete (section 4.5). */
export const DELETE_FAULTS: FaultDefinition[] = [
  fault({
    id: 'delete-no-effect',
    level: 'SHOULD',
    catches: ['ORD-DELETE-002'],
    subtle: false,
    description: 'A delete answers success but the order stays, unchanged (no deleted_at either).',
    hooks: () => ({
      wrapServices: (services) => withStore(services, () => ({ remove: () => true })),
    }),
  }),
  fault({
    id: 'delete-removes-neighbour',
    level: 'MUST',
    catches: ['ORD-DELETE-004'],
    collateral: because(
      "a delete removes another test's or generated run's order too (the one created next to it), so a later get, update or delete of that order answers 404, and a test that checks a refused request left its order as it was finds it gone",
      ['ORD-DELETE-001', 'ORD-GET-001', 'ORD-UPDATE-001', 'ORD-AUTH-004'],
    ),
    subtle: true,
    description: 'A delete also removes the order created just before the one named (or just after, for the oldest): shows only with two or more orders.',
    hooks: () => ({
      wrapServices: (services) =>
        withStore(services, (store) => ({
          remove: (account, orderId) => {
            const orders = allOrders(store, account);
            const index = orders.findIndex((order) => order.id === orderId);
            const neighbour = orders[index + 1] ?? orders[index - 1];
            if (index >= 0 && neighbour) store.remove(account, neighbour.id);
            return store.remove(account, orderId);
          },
        })),
    }),
  }),
  fault({
    id: 'delete-unknown-200',
    level: 'SHOULD',
    catches: ['ORD-DELETE-003'],
    collateral: [
      { requirement: 'ORD-ISO-003', reason: "account B's delete of account A's order is, in B's account, a delete of an unknown id, which this fault answers 200" },
    ],
    subtle: false,
    description: 'Deleting an id that does not exist answers 200 with the success message.',
    hooks: () => ({
      rewriteReply: (request, reply) => (is(request, 'delete') && reply.status === 404 ? { status: 200, body: { message: 'Order deleted' } } : reply),
    }),
  }),
  fault({
    id: 'delete-wrong-shape',
    level: 'MUST',
    catches: ['ORD-DELETE-001'],
    subtle: false,
    description: 'A delete answers {"deleted": true}, neither of the two documented shapes.',
    hooks: () => ({
      rewriteReply: (request, reply) => (is(request, 'delete') && isSuccess(reply) ? { ...reply, body: { deleted: true } } : reply),
    }),
  }),
  fault({
    id: 'delete-update-revives-deleted',
    level: 'SHOULD',
    catches: ['ORD-DELETE-005'],
    subtle: true,
    description: 'A deleted order answers 404 to get, but an update of it answers 200 and brings it back (the server keeps deleted rows in a trash table and its update restores them): shows only after a delete.',
    hooks: () => mishandlesWriteAfterDelete('update', true),
  }),
  fault({
    id: 'delete-twice-500',
    level: 'SHOULD',
    catches: ['ORD-DELETE-005'],
    subtle: true,
    description: 'A second delete of the same order crashes the handler: 500 (a 404 for ids that never existed).',
    hooks: () => mishandlesWriteAfterDelete('delete', false),
  }),
];
