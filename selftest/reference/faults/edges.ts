import { contract } from '../../../contract/openapi';
import type { StoredOrder } from '../../../reference/store';
import { fault, is, isSuccess, jsonBodyOf, onFullForm, withReplyBody, type FaultDefinition, type Json } from './kit';

/**
 * What servers break at the edges of values and freedoms (issue 28): a null taken where the document
 * leaves no room for one, a timestamp field holding text that names no time.
 */
export const EDGE_FAULTS: FaultDefinition[] = [
  fault({
    id: 'update-nulls-omitted-fields',
    level: 'MUST',
    catches: ['ORD-FORM-001'],
    subtle: true,
    description:
      'An update writes null over every field of the order it did not send, the ones the create requires too: after a PUT of a note alone, customer, items, currency and price come back null (null taken for "the client did not send it").',
    hooks: () => {
      const fields = Object.keys(contract().schema('OrderCreate').properties as object);
      return {
        rewriteReply: (request, reply, { services }) => {
          if (!is(request, 'update') || !isSuccess(reply)) return reply;
          const sent = (jsonBodyOf(request) ?? {}) as Json;
          const order = { ...(reply.body as StoredOrder) } as Json;
          for (const field of fields) if (!(field in sent)) order[field] = null;
          services.store.replace(order as StoredOrder);
          return { ...reply, body: order };
        },
      };
    },
  }),
  fault({
    id: 'list-empty-page-data-null',
    level: 'MUST',
    catches: ['ORD-LIST-001'],
    subtle: true,
    description: 'A page with no orders on it (past the last one) answers "data": null instead of an empty array.',
    hooks: () => ({
      rewriteReply: (request, reply) =>
        is(request, 'list') && isSuccess(reply) ? withReplyBody(reply, (body) => (Array.isArray(body.data) && body.data.length === 0 ? { ...body, data: null } : body)) : reply,
    }),
  }),
  fault({
    id: 'unsent-placed-at-not-a-date',
    level: 'MUST',
    catches: ['ORD-FORM-001'],
    subtle: true,
    description: 'A placed_at the client did not send comes back as the text "not placed": a date-time field holding something other than a date-time or nothing.',
    hooks: () => ({
      rewriteReply: (request, reply) => onFullForm(request, reply, (order) => (order.placed_at === undefined || order.placed_at === null ? { ...order, placed_at: 'not placed' } : order)),
    }),
  }),
];
