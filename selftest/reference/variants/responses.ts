import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { bearerToken, is, isSuccess, onFullForm, onSummaries, withReplyBody, withStatus, type Json } from '../faults/kit';
import { variant, type VariantDefinition } from './definition';

/** Conformant differences in what responses look like. */
export const RESPONSE_VARIANTS: VariantDefinition[] = [
  variant({
    name: 'create-200',
    description: 'Create answers 200 instead of 201.',
    basis: '4.5: "Success status codes of the create, update and delete operations: not shown."',
    hooks: () => ({
      rewriteReply: (request, reply) => (is(request, 'create') && reply.status === 201 ? { ...reply, status: 200 } : reply),
    }),
  }),
  variant({
    name: 'delete-envelope',
    description: 'Delete answers the envelope {success, meta: {status, code, message, total, details}}, total being the orders left in the account.',
    basis: '4.5: "A second shown shape is the envelope of 4.1 with success, meta (status, code, message, total, details)."',
    hooks: () => {
      return {
        rewriteReply: (request, reply, { services, accounts }) => {
          const account = accounts.accountFor(bearerToken(request) ?? '');
          if (!is(request, 'delete') || !isSuccess(reply) || !account) return reply;
          const total = services.store.page(account.id, 0, 0).total;
          return { ...reply, body: { success: true, meta: { status: reply.status, code: 'order_deleted', message: 'Order deleted', total, details: [] } } };
        },
      };
    },
  }),
  variant({
    name: 'gzip-responses',
    description: 'Every JSON body is gzip-compressed (Content-Encoding: gzip) when the client accepts gzip.',
    basis: 'Section 1 says bodies are JSON; HTTP content coding is not addressed, so a compressed JSON body is still JSON.',
    hooks: () => ({
      rewriteReply: (request, reply) => {
        if (reply.body === undefined || !/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply;
        return {
          ...reply,
          headers: { ...(reply.headers ?? {}), 'Content-Type': 'application/json; charset=utf-8', 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' },
          rawBody: gzipSync(Buffer.from(JSON.stringify(reply.body), 'utf8')),
        };
      },
    }),
  }),
  variant({
    name: 'status-422',
    description: 'Invalid bodies and parameters get 422 instead of 400.',
    basis: '7: "Error status codes and error bodies per condition: not shown."',
    hooks: () => ({
      rewriteReply: (_request, reply) =>
        reply.status === 400 ? withStatus(reply, 422) : reply,
    }),
  }),
  variant({
    name: 'extra-fields',
    description: 'Responses carry fields the document does not list: at the top of the order, in customer and items, in summaries, in meta.',
    basis: '2.1: the document lists the fields a response carries, never that it carries nothing else (ORD-OBS-010).',
    hooks: () => ({
      rewriteReply: (request, reply) => {
        const withExtras = (order: Json): Json => ({
          ...order,
          tenant: 'reference',
          _links: { self: `/orders/${String(order.id)}` },
          // An order an update replaced may have no customer or items: extras go only where there is something.
          ...(order.customer ? { customer: { ...(order.customer as Json), loyalty_tier: 'gold' } } : {}),
          ...(Array.isArray(order.items) ? { items: (order.items as Json[]).map((item) => ({ ...item, warehouse: 'IZM-1' })) } : {}),
        });
        const listed = onSummaries(request, onFullForm(request, reply, withExtras), (summary) => ({ ...withExtras(summary), item_count: Array.isArray(summary.items) ? summary.items.length : 0 }));
        return is(request, 'list') && isSuccess(listed)
          ? withReplyBody(listed, (body) => ({ ...body, meta: { ...(body.meta as Json), request_id: randomBytes(6).toString('hex') } }))
          : listed;
      },
    }),
  }),
  variant({
    name: 'null-optionals',
    description: 'Optional fields that were not sent come back as null instead of absent (full form and summaries).',
    basis: '2.1: the form of an optional field that was not sent is not shown (ORD-OBS-011).',
    hooks: () => {
      const optional = ['sales_channel', 'note', 'language', 'payment', 'billing', 'placed_at'];
      const withNulls = (order: Json, fields: string[]) => ({ ...Object.fromEntries(fields.map((field) => [field, null])), ...order });
      return {
        rewriteReply: (request, reply) =>
          onSummaries(request, onFullForm(request, reply, (order) => withNulls(order, optional)), (summary) => withNulls(summary, ['payment'])),
      };
    },
  }),
  variant({
    name: 'offset-timestamps',
    description: 'Service-assigned timestamps are written with a +03:00 offset and second precision ("2026-11-20T12:30:05+03:00").',
    basis: '2.1: "ISO 8601 timestamp"; precision and offset are not shown.',
    hooks: () => ({
      wrapServices: (services) => ({
        ...services,
        now: () => plusThree(Date.now()),
        later: (previous) => plusThree(Math.max(Date.now(), Date.parse(previous) + 1000)),
      }),
    }),
  }),
  variant({
    name: 'prefixed-ids',
    description: 'Ids are prefixed strings with URL-safe characters ("ord_3kT9-x_Qa1bC2dE4fG6h").',
    basis: '2.1: "id | string | Order identifier, assigned by the service"; its format is not shown (ORD-OBS-007).',
    hooks: () => ({
      wrapServices: (services) => ({ ...services, newId: () => `ord_${randomBytes(15).toString('base64url')}` }),
    }),
  }),
];

/** An instant as ISO 8601 in +03:00, to the second (later() adds a whole second, so updated_at still advances). */
function plusThree(instant: number): string {
  const seconds = Math.floor(instant / 1000) * 1000;
  return `${new Date(seconds + 3 * 3600_000).toISOString().slice(0, 19)}+03:00`;
}
