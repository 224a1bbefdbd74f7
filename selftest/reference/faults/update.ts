import { serviceAssignedFields } from '../../../contract/assigned';
import { ApiError, errorReply } from '../../../reference/http';
import { newOrder } from '../../../reference/routes/orders';
import { reassignsKeptIds } from './assigned';
import type { StoredOrder } from '../../../reference/store';
import { answersWhen, emptyObjectBody, internalError } from './anomalies';
import { replacingUpdateNullAsOmitted } from '../variants/readings';
import { bearerToken, because, fault, is, isSuccess, jsonBodyOf, mangleNonAscii, mapStrings, onFullForm, operationOf, withJsonBody, withReplyBody, withStore, type FaultDefinition, type Json } from './kit';

/** A request header by which a fault carries a null past validation to its merge (update-null-customer-stored). */
const NULL_CUSTOMER = 'x-oms-fault-null-customer';

/** Update (section 4.4). */
export const UPDATE_FAULTS: FaultDefinition[] = [
  fault({
    id: 'update-not-persisted',
    level: 'SHOULD',
    catches: ['ORD-UPDATE-003'],
    collateral: [
      { requirement: 'ORD-UPDATE-004', reason: 'the update is not stored, so the next get shows the old updated_at' },
    ],
    subtle: false,
    description: 'An update answers the changed order but never stores it.',
    hooks: () => ({
      wrapServices: (services) => withStore(services, () => ({ replace: () => undefined })),
    }),
  }),
  fault({
    id: 'update-changes-id',
    level: 'MUST',
    catches: ['ORD-UPDATE-005'],
    collateral: [
      { requirement: 'ORD-GET-001', reason: 'after an update the order is gone from the id it had, so a get of that id finds nothing' },
      { requirement: 'ORD-DELETE-001', reason: 'after an update the order is gone from the id it had, so a delete of that id answers 404' },
    ],
    subtle: false,
    description: 'An update moves the order to a new id (the old id is gone).',
    hooks: () => ({
      rewriteReply: (request, reply, { services }) => {
        if (!is(request, 'update') || !isSuccess(reply)) return reply;
        const order = reply.body as StoredOrder;
        const moved = { ...order, id: services.newId() };
        services.store.remove(order.user_id, order.id);
        services.store.insert(moved);
        return { ...reply, body: moved };
      },
    }),
  }),
  fault({
    id: 'update-resets-created-at',
    level: 'MUST',
    catches: ['ORD-UPDATE-005'],
    subtle: false,
    description: 'An update sets created_at to the time of the update.',
    hooks: () => ({
      wrapServices: (services) =>
        withStore(services, (store) => ({ replace: (order) => store.replace(Object.assign(order, { created_at: order.updated_at })) })),
    }),
  }),
  fault({
    id: 'update-answer-drops-language',
    level: 'MUST',
    catches: ['ORD-UPDATE-008'],
    subtle: true,
    description: 'The update answer leaves out language, which an update never sends; the order keeps it, and the next get shows it.',
    hooks: () => ({
      rewriteReply: (request, reply) => (is(request, 'update') && isSuccess(reply) ? withReplyBody(reply, ({ language: _dropped, ...order }) => order) : reply),
    }),
  }),
  fault({
    id: 'update-ignores-items',
    level: 'MUST',
    catches: ['ORD-UPDATE-002'],
    collateral: [
      { requirement: 'ORD-UPDATE-003', reason: 'the items an update sent are not on the next get either' },
      { requirement: 'ORD-ERR-004', reason: "an update's items are never read, so mistyped items in an update are not refused" },
    ],
    subtle: false,
    description: 'An update applies every field sent except items, which it silently keeps as they were.',
    hooks: () => ({
      rewriteRequest: (request) => (is(request, 'update') ? withJsonBody(request, ({ items: _ignored, ...body }) => body) : request),
    }),
  }),
  fault({
    id: 'update-keeps-first-item-only',
    level: 'MUST',
    catches: ['ORD-UPDATE-002'],
    collateral: [
      { requirement: 'ORD-UPDATE-003', reason: 'the next get shows only the first item the update sent' },
      { requirement: 'ORD-ERR-004', reason: 'items after the first are never read, so a mistyped second item is not refused' },
    ],
    subtle: true,
    description: 'An update that sends two or more items stores only the first.',
    hooks: () => ({
      rewriteRequest: (request) =>
        is(request, 'update')
          ? withJsonBody(request, (body) => (Array.isArray(body.items) ? { ...body, items: body.items.slice(0, 1) } : body))
          : request,
    }),
  }),
  fault({
    id: 'update-mangles-non-ascii',
    level: 'MUST',
    catches: ['ORD-UPDATE-002'],
    collateral: because('the text is stored mangled, so the get after the update shows it mangled too', ['ORD-UPDATE-003']),
    subtle: true,
    description: 'Text sent in an update is stored as ASCII: every non-ASCII character becomes "?" (create is right).',
    hooks: () => ({
      rewriteRequest: (request) => (is(request, 'update') ? withJsonBody(request, (body) => mapStrings(body, mangleNonAscii) as Json) : request),
    }),
  }),
  fault({
    id: 'update-items-without-ids',
    level: 'MUST',
    catches: ['ORD-CREATE-005'],
    collateral: [
      { requirement: 'ORD-UPDATE-007', reason: 'items an update kept come back without the ids assigned at create' },
      { requirement: 'ORD-UPDATE-008', reason: 'the update answer leaves out the item ids the next get shows, so it is not the order as stored' },
      { requirement: 'ORD-FORM-003', reason: "each item's total is a field 2.4 says is returned, and the update answer leaves it out" },
    ],
    subtle: true,
    description: 'The update response carries its items without the service-assigned id and total: the full form is wrong only after an update.',
    hooks: () => ({
      rewriteReply: (request, reply) =>
        is(request, 'update')
          ? onFullForm(request, reply, (order) => ({
              ...order,
              items: (order.items as Json[]).map(({ id: _id, total: _total, ...item }) => item),
            }))
          : reply,
    }),
  }),
  fault({
    id: 'update-drops-resent-customer-id',
    level: 'MUST',
    catches: ['ORD-CREATE-005'],
    collateral: [{ requirement: 'ORD-FORM-003', reason: 'customer.id is also a field 2.3 says the full form returns, and the update answer leaves it out' }],
    subtle: true,
    description: 'An update that sends a customer stores and answers it without the service-assigned customer.id (an update without customer keeps it).',
    hooks: () => ({
      rewriteReply: (request, reply, { services }) => {
        if (!is(request, 'update') || !isSuccess(reply) || !('customer' in (JSON.parse(request.bodyText) as Json))) return reply;
        return onFullForm(request, reply, (order) => {
          const { id: _id, ...customer } = (order.customer ?? {}) as Json;
          const changed = { ...order, customer };
          services.store.replace(changed as unknown as StoredOrder);
          return changed;
        });
      },
    }),
  }),
  fault({
    id: 'update-reassigns-kept-ids',
    level: 'MUST',
    catches: ['ORD-UPDATE-007'],
    subtle: true,
    description: 'An update gives new ids to the customer and items it keeps (those the client did not resend).',
    hooks: () => reassignsKeptIds(serviceAssignedFields().filter((field) => field.path.length > 1).map((field) => field.path)),
  }),
  fault({
    id: 'update-freezes-updated-at',
    level: 'SHOULD',
    catches: ['ORD-UPDATE-004'],
    subtle: false,
    description: 'updated_at keeps the creation time through every update.',
    hooks: () => ({
      wrapServices: (services) => ({ ...services, later: (previous) => previous }),
    }),
  }),
  fault({
    id: 'update-unknown-creates',
    level: 'SHOULD',
    catches: ['ORD-UPDATE-006'],
    collateral: [
      { requirement: 'ORD-ISO-002', reason: "account B's update of account A's order is, in B's account, an update of an unknown id, which this fault stores as B's order and answers 201" },
      { requirement: 'ORD-DELETE-005', reason: 'after a hard delete the id is unknown, so an update of the deleted order stores it again and answers 201' },
      { requirement: 'ORD-FORM-001', reason: 'the order an update of an unknown id makes holds only what the update sent: no customer, items, currency or price, fields every order holds' },
    ],
    subtle: false,
    description: 'An update of an unknown id stores its body as a new order with that id (an upsert) and answers 201.',
    hooks: () => {
      return {
        rewriteReply: (request, reply, { services, accounts }) => {
          const account = accounts.accountFor(bearerToken(request) ?? '');
          if (!is(request, 'update') || reply.status !== 404 || !account) return reply;
          let body: Json;
          try {
            body = JSON.parse(request.bodyText) as Json;
          } catch {
            return reply;
          }
          const order = newOrder(body, services, account.id, operationOf(request).orderId as string);
          services.store.insert(order);
          return { status: 201, body: order };
        },
      };
    },
  }),
  fault({
    id: 'update-refuses-price',
    level: 'MUST',
    catches: ['ORD-UPDATE-001'],
    collateral: [
      { requirement: 'ORD-UPDATE-006', reason: 'an update carrying price is refused with 400 before the id is looked up, so an unknown id with a price gets 400, not 404' },
    ],
    subtle: false,
    description: 'An update that carries price (one of the optional fields of 4.4) is refused with 400.',
    hooks: () => ({
      intercept: (request) =>
        is(request, 'update') && /"price"\s*:\s*[-\d]/.test(request.bodyText.replace(/"items"\s*:\s*\[[^\]]*\]/g, ''))
          ? errorReply(new ApiError(400, 'validation_failed', 'The request body is invalid', [{ field: 'price', error: 'cannot be changed' }]))
          : undefined,
    }),
  }),
  fault({
    id: 'update-answers-items-null',
    level: 'MUST',
    // items is a field every order holds (the create requires it): null is no value the full form may show for it.
    catches: ['ORD-UPDATE-008', 'ORD-FORM-001'],
    subtle: true,
    description: 'An update that does not send items answers items: null (it builds its answer from the row it wrote, and a nil list is written as null), though the stored order keeps them.',
    hooks: () => ({
      rewriteReply: (request, reply) =>
        is(request, 'update') && (jsonBodyOf(request) as Json | undefined)?.items === undefined ? onFullForm(request, reply, (order) => ({ ...order, items: null })) : reply,
    }),
  }),
  fault({
    id: 'update-null-customer-stored',
    level: 'MUST',
    catches: ['ORD-FORM-001'],
    subtle: true,
    description:
      'An update of customer null stores null over the customer (a merge that writes every key it was sent, null too), where it may only refuse it, keep the customer, or do what it does to an update without customer: the order is left without the customer every order holds.',
    hooks: () => ({
      // Past its validation (which takes null here): the null is carried on to the merge, which writes it.
      rewriteRequest: (request) => {
        const body = jsonBodyOf(request) as Json | undefined;
        if (!is(request, 'update') || !body || typeof body !== 'object' || body.customer !== null) return request;
        const { customer: _null, ...rest } = body;
        return { ...request, bodyText: JSON.stringify(rest), headers: { ...request.headers, [NULL_CUSTOMER]: '1' } };
      },
      rewriteReply: (request, reply, { services }) => {
        if (!is(request, 'update') || !isSuccess(reply) || request.headers[NULL_CUSTOMER] !== '1') return reply;
        const order = { ...(reply.body as StoredOrder), customer: null } as unknown as StoredOrder;
        services.store.replace(order);
        return { ...reply, body: order };
      },
    }),
  }),
  fault({
    id: 'replacing-update-loses-note',
    level: 'MUST',
    catches: ['ORD-UPDATE-002'],
    collateral: because('the order after the update shows the note cleared too', ['ORD-UPDATE-003']),
    subtle: true,
    description:
      'An update that replaces the updatable part of the order (every field it omits cleared, null counted as omitted, as update-omitted=replace-null-as-omitted does) loses the note it was sent: its struct names the field "notes", so the note sent is bound to nothing and cleared as if omitted.',
    hooks: () => {
      const replacing = replacingUpdateNullAsOmitted();
      return {
        ...replacing,
        rewriteRequest: (request, context) => {
          const replaced = replacing.rewriteRequest?.(request, context) ?? request;
          return is(replaced, 'update') ? withJsonBody(replaced, ({ note: _lost, ...rest }) => rest) : replaced;
        },
      };
    },
  }),
  fault({
    id: 'update-empty-body-500',
    level: 'SHOULD',
    catches: ['ORD-UPDATE-009'],
    collateral: [{ requirement: 'ORD-ERR-010', reason: "the 500 carries SQLite's own error text (SQLITE_ERROR), internals of the service" }],
    subtle: true,
    description: 'An update with no field ({}) crashes: it builds "UPDATE orders SET  WHERE id = ?" from the fields sent, a syntax error, and answers 500.',
    hooks: () => answersWhen(['update'], emptyObjectBody, () => internalError('SQLITE_ERROR: near "WHERE": syntax error')),
  }),
  fault({
    id: 'update-of-items-or-customer-keeps-updated-at',
    level: 'SHOULD',
    catches: ['ORD-UPDATE-004'],
    subtle: true,
    description:
      'An update that changes only the items or the customer (held in tables of their own) leaves updated_at as it was, in its answer and for later gets: the ORM writes only the changed columns of the order row, and none of them changed.',
    hooks: () => {
      // The columns of the order row: its top-level scalars; objects and arrays are rows of other tables.
      const rowUnchanged = (before: Json, after: Json) =>
        Object.keys({ ...before, ...after }).every((key) => key === 'updated_at' || typeof (before[key] ?? after[key]) === 'object' || before[key] === after[key]);
      return {
        wrapServices: (services) =>
          withStore(services, (store) => ({
            replace: (order) => {
              const before = store.get(order.user_id, order.id) as Json | undefined;
              store.replace(before && rowUnchanged(before, order as Json) ? { ...order, updated_at: before.updated_at as string } : order);
            },
          })),
        rewriteReply: (request, reply, { services }) =>
          is(request, 'update') ? onFullForm(request, reply, (order) => ({ ...order, updated_at: services.store.get(String(order.user_id), String(order.id))?.updated_at ?? order.updated_at })) : reply,
      };
    },
  }),
];
