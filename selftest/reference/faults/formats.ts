import { instantOf } from '../../../contract/datetime';
import { fault, onFullForm, onSummaries, withReplyBody, type FaultDefinition, type Json } from './kit';

/** Formats of bodies, types and timestamps (sections 1, 2 and 4.1). */
export const FORMAT_FAULTS: FaultDefinition[] = [
  fault({
    id: 'format-text-plain',
    level: 'MUST',
    catches: ['ORD-GEN-001'],
    subtle: false,
    description: 'Every JSON body is sent with Content-Type text/plain.',
    hooks: () => ({
      rewriteReply: (_request, reply) => ({ ...reply, headers: { ...reply.headers, 'Content-Type': 'text/plain; charset=utf-8' } }),
    }),
  }),
  fault({
    id: 'format-timestamps-not-iso',
    level: 'MUST',
    catches: ['ORD-FORM-001', 'ORD-FORM-002'],
    collateral: [
      { requirement: 'ORD-UPDATE-004', reason: 'an updated_at written as an HTTP date has no ISO 8601 instant, so it cannot be shown to advance' },
    ],
    subtle: false,
    description: 'created_at and updated_at are HTTP dates ("Fri, 20 Nov 2026 09:30:00 GMT"), not ISO 8601.',
    hooks: () => ({
      wrapServices: (services) => ({
        ...services,
        now: () => new Date().toUTCString(),
        later: (previous) => new Date(Math.max(Date.now(), Date.parse(previous) + 1000)).toUTCString(),
      }),
    }),
  }),
  fault({
    id: 'format-updated-at-epoch-after-update',
    level: 'MUST',
    catches: ['ORD-FORM-001'],
    collateral: [
      { requirement: 'ORD-FORM-002', reason: 'the updated_at an update stores is in the summaries of the list too' },
      { requirement: 'ORD-UPDATE-004', reason: 'an updated_at written as epoch milliseconds has no ISO 8601 instant, so it cannot be shown to advance' },
    ],
    subtle: true,
    description: 'An update writes updated_at as milliseconds since the epoch in a string ("1790000000000"): wrong only after an update.',
    hooks: () => ({
      wrapServices: (services) => ({
        ...services,
        later: (previous) => String(Math.max(Date.now(), (/^\d+$/.test(previous) ? Number(previous) : instantOf(previous)) + 1)),
      }),
    }),
  }),
  fault({
    id: 'format-customer-email-as-string',
    level: 'MUST',
    catches: ['ORD-FORM-001', 'ORD-CREATE-004'],
    collateral: [
      { requirement: 'ORD-GET-002', reason: 'get writes customer.email as a string too, so the object sent does not come back' },
      { requirement: 'ORD-UPDATE-002', reason: 'the update response writes customer.email as a string too' },
      { requirement: 'ORD-UPDATE-003', reason: 'the get after an update writes customer.email as a string too' },
      { requirement: 'ORD-LIST-008', reason: 'the summary carries customer.email as the object, the full form as a string' },
    ],
    subtle: false,
    description: 'customer.email, an object (main, work), comes back as the string of its main address.',
    hooks: () => ({
      rewriteReply: (request, reply) =>
        onFullForm(request, reply, (order) => {
          const customer = order.customer as Json;
          const email = customer.email as Json | undefined;
          return email ? { ...order, customer: { ...customer, email: email.main } } : order;
        }),
    }),
  }),
  fault({
    id: 'format-billing-email-as-object',
    level: 'MUST',
    catches: ['ORD-FORM-001', 'ORD-CREATE-004'],
    collateral: [
      { requirement: 'ORD-GET-002', reason: 'get writes billing.email as an object too, so the string sent does not come back' },
    ],
    subtle: false,
    description: 'billing.email, one address in a string, comes back as an object {"main": …}.',
    hooks: () => ({
      rewriteReply: (request, reply) =>
        onFullForm(request, reply, (order) => {
          const billing = order.billing as Json | undefined;
          return typeof billing?.email === 'string' ? { ...order, billing: { ...billing, email: { main: billing.email } } } : order;
        }),
    }),
  }),
  fault({
    id: 'format-meta-status-string',
    level: 'MUST',
    catches: ['ORD-GEN-002'],
    collateral: [
      { requirement: 'ORD-LIST-001', reason: 'meta.status of the list envelope is a string, not the integer 4.1 states' },
      { requirement: 'ORD-ERR-006', reason: 'meta.status of the error envelope is a string, not the integer section 7 states' },
    ],
    subtle: false,
    description: 'meta.status is the status as a string ("200"), in the list and in error envelopes.',
    hooks: () => ({
      rewriteReply: (_request, reply) =>
        withReplyBody(reply, (body) => {
          const meta = body.meta as Json | undefined;
          return meta && 'status' in meta ? { ...body, meta: { ...meta, status: String(meta.status) } } : body;
        }),
    }),
  }),
  fault({
    id: 'format-summary-items-object',
    level: 'MUST',
    catches: ['ORD-FORM-002'],
    collateral: [
      { requirement: 'ORD-LIST-008', reason: 'a summary whose items is an object cannot carry the items of the full form' },
    ],
    subtle: false,
    description: 'In the list, each summary\'s items is an object keyed by position ({"0": …}) instead of an array.',
    hooks: () => ({
      rewriteReply: (request, reply) => onSummaries(request, reply, (summary) => ({ ...summary, items: { ...(summary.items as Json[]) } })),
    }),
  }),
  fault({
    id: 'format-payment-type-not-returned',
    level: 'MUST',
    catches: ['ORD-FORM-003'],
    subtle: true,
    description: 'The full form leaves out payment.type, which 2.5 says it returns: shows only on an order with a payment.',
    hooks: () => ({
      rewriteReply: (request, reply) =>
        onFullForm(request, reply, (order) => {
          const payment = order.payment as Json | null | undefined;
          if (!payment || typeof payment !== 'object') return order;
          const { type: _type, ...rest } = payment;
          return { ...order, payment: rest };
        }),
    }),
  }),
  fault({
    id: 'format-timestamps-without-offset',
    level: 'SHOULD',
    catches: ['ORD-FORM-004'],
    subtle: false,
    description: 'created_at and updated_at are local times without an offset ("2026-11-24T03:22:10.123456"), as Python writes a naive datetime: no instant.',
    hooks: () => ({
      wrapServices: (services) => ({
        ...services,
        now: () => naive(Date.now()),
        later: (previous) => naive(Math.max(Date.now(), instantOf(previous) + 1)),
      }),
    }),
  }),
];

/** An instant as a local time without offset, to the microsecond (Python's isoformat of a naive datetime in UTC). */
function naive(instant: number): string {
  return `${new Date(instant).toISOString().slice(0, 23)}000`;
}
