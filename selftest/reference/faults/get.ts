import { randomUUID } from 'node:crypto';
import { answersWhen, idOfKind, internalError } from './anomalies';
import { because, fault, is, isSuccess, onFullForm, operationOf, withReplyBody, type FaultDefinition, type Json } from './kit';
import { int32SequenceIds } from '../variants/freedoms';
import type { StoredOrder } from '../../../reference/store';

/** Get (section 4.3). */
export const GET_FAULTS: FaultDefinition[] = [
  fault({
    id: 'get-ids-with-slash',
    level: 'SHOULD',
    catches: ['ORD-GET-005'],
    subtle: false,
    description: 'Order ids hold a "/" ("ord/<uuid>"): no client can put them in /orders/{order_id} as one segment without encoding it, and many proxies decode %2F.',
    hooks: () => ({ wrapServices: (services) => ({ ...services, newId: () => `ord/${randomUUID()}` }) }),
  }),
  fault({
    id: 'get-returns-newest',
    level: 'MUST',
    catches: ['ORD-GET-001'],
    collateral: because(
      "a get answers another order than the one asked for, so any check that reads an order back by get may see the wrong one: across a network, tests that run side by side create orders at once, and the newest is often another test's",
      ['ORD-GET-002', 'ORD-GET-003', 'ORD-UPDATE-003', 'ORD-UPDATE-005', 'ORD-UPDATE-007', 'ORD-ISO-002', 'ORD-DELETE-004'],
    ),
    subtle: true,
    acrossTests: "across a network the tests run side by side: the newest order of the account is another test's whenever one creates while a get is answered, so any check that reads an order back may meet it",
    description: 'Get answers the account\'s newest order, whatever id was asked: right only for the last order created.',
    hooks: () => ({
      rewriteReply: (request, reply, { services }) => {
        if (!is(request, 'get') || !isSuccess(reply)) return reply;
        const asked = reply.body as StoredOrder;
        return { ...reply, body: services.store.page(asked.user_id, 0, 1).orders[0] ?? asked };
      },
    }),
  }),
  fault({
    id: 'get-missing-nested',
    level: 'MUST',
    catches: ['ORD-GET-002'],
    collateral: [
      { requirement: 'ORD-UPDATE-003', reason: 'the get after an update leaves out the nested customer objects the update sent' },
    ],
    subtle: false,
    description: 'Get leaves out the nested customer.address, customer.email, customer.phone and billing.address.',
    hooks: () => ({
      rewriteReply: (request, reply) =>
        is(request, 'get')
          ? onFullForm(request, reply, (order) => {
              const { address: _a, email: _e, phone: _p, ...customer } = order.customer as Json;
              const billing = order.billing && typeof order.billing === 'object' ? { ...(order.billing as Json), address: undefined } : order.billing;
              return { ...order, customer, billing };
            })
          : reply,
    }),
  }),
  fault({
    id: 'get-stale-after-update',
    level: 'SHOULD',
    catches: ['ORD-UPDATE-003'],
    subtle: true,
    description: 'Get serves an order from a cache filled on its first get and never invalidated: stale only after an update.',
    hooks: () => {
      const cache = new Map<string, unknown>();
      return {
        rewriteReply: (request, reply) => {
          if (!is(request, 'get') || !isSuccess(reply)) return reply;
          return withReplyBody(reply, (order) => {
            const id = String(order.id);
            if (!cache.has(id)) cache.set(id, order);
            return cache.get(id);
          });
        },
      };
    },
  }),
  fault({
    id: 'get-shifts-created-at',
    level: 'MUST',
    catches: ['ORD-GET-003'],
    collateral: [
      { requirement: 'ORD-UPDATE-005', reason: 'the get after an update shows created_at a day earlier than create gave it' },
      { requirement: 'ORD-LIST-008', reason: 'the summary carries the created_at create gave, the full form of get the shifted one' },
    ],
    subtle: false,
    description: 'Get answers created_at one day earlier than create did (a time zone applied twice).',
    hooks: () => ({
      rewriteReply: (request, reply) =>
        is(request, 'get') ? onFullForm(request, reply, (order) => ({ ...order, created_at: new Date(Date.parse(String(order.created_at)) - 86_400_000).toISOString() })) : reply,
    }),
  }),
  fault({
    id: 'get-id-outside-ascii-500',
    level: 'SHOULD',
    catches: ['ORD-GET-004'],
    subtle: true,
    description: 'A get of an id with letters outside ASCII, an emoji or a percent sign crashes (the id goes into a Latin-1 query, or is decoded a second time): 500, where other unknown ids get 404.',
    hooks: () => answersWhen(['get'], (request) => idOfKind('letters')(request) || idOfKind('emoji')(request) || idOfKind('percent')(request), () => internalError('URIError: URI malformed')),
  }),
  fault({
    id: 'ids-cast-to-integer',
    level: 'MUST',
    catches: ['ORD-GET-004', 'ORD-UPDATE-006', 'ORD-DELETE-003', 'ORD-DELETE-004'],
    subtle: true,
    description:
      'Order ids are integers ("1", "2" …), and the path id is cast to one before the lookup, as Ruby\'s "12abc".to_i, PHP\'s (int) and MySQL\'s \'12abc\' = 12 read it: GET, PUT and DELETE /orders/12abc, /orders/12-x and /orders/12.5 reach order 12 (an update changes it, a delete deletes it).',
    hooks: () => ({
      ...int32SequenceIds(),
      rewriteRequest: (request) => {
        const { orderId } = operationOf(request);
        const cast = orderId !== undefined && is(request, 'get', 'update', 'delete') ? /^(\d+)[A-Za-z. -]/.exec(orderId) : null;
        return cast ? { ...request, path: `/orders/${cast[1]}` } : request;
      },
    }),
  }),
];
