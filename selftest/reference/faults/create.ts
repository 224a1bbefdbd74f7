import { randomUUID } from 'node:crypto';
import { ApiError, errorReply } from '../../../reference/http';
import { mergesItemsBy } from './anomalies';
import { honoursClientValueOnCreate } from './assigned';
import { because, fault, is, mangleNonAscii, mapStrings, onFullForm, onSummaries, withJsonBody, type FaultDefinition, type Json } from './kit';

/** Create (section 4.2) and the service-assigned fields of the full form (2.1, 2.3, 2.4). */
export const CREATE_FAULTS: FaultDefinition[] = [
  fault({
    id: 'create-merges-repeated-items',
    level: 'MUST',
    catches: ['ORD-CREATE-004'],
    collateral: [
      ...because('an item named as an earlier one is merged into it before it is read, so a mistyped field of it is not refused', ['ORD-ERR-004']),
      ...because('the order is stored with the items merged, so a get of it shows them merged too', ['ORD-GET-002']),
    ],
    subtle: true,
    description: 'Items with the same name are stored as one, their quantities summed (a table keyed on order and item name): shows only with two items of one name.',
    hooks: () => ({ rewriteRequest: (request) => (is(request, 'create') ? withJsonBody(request, mergesItemsBy('name')) : request) }),
  }),
  fault({
    id: 'create-drops-last-item',
    level: 'MUST',
    catches: ['ORD-CREATE-004', 'ORD-GET-002'],
    collateral: because('the last item is never read, so a mistyped last item is not refused', ['ORD-ERR-004']),
    subtle: true,
    description: 'An order created with two or more items is stored without its last item.',
    hooks: () => ({
      rewriteRequest: (request) =>
        is(request, 'create') ? withJsonBody(request, (body) => (isList(body.items) && body.items.length >= 2 ? { ...body, items: body.items.slice(0, -1) } : body)) : request,
    }),
  }),
  fault({
    id: 'create-reverses-items',
    level: 'MUST',
    catches: ['ORD-CREATE-004', 'ORD-GET-002'],
    subtle: true,
    description: 'Items are stored in reverse order: shows only with two or more items.',
    hooks: () => ({
      rewriteRequest: (request) =>
        is(request, 'create') ? withJsonBody(request, (body) => (isList(body.items) ? { ...body, items: [...body.items].reverse() } : body)) : request,
    }),
  }),
  fault({
    id: 'create-sorts-items-by-name',
    level: 'MUST',
    catches: ['ORD-CREATE-004'],
    collateral: because('the order is stored with its items sorted, so a get of it shows them sorted too', ['ORD-GET-002']),
    subtle: true,
    description: 'Items are stored sorted by name (as a database index would return them): shows only with two or more items sent out of name order.',
    hooks: () => ({
      rewriteRequest: (request) =>
        is(request, 'create')
          ? withJsonBody(request, (body) =>
              isList(body.items) ? { ...body, items: [...body.items].sort((a, b) => String((a as Json).name).localeCompare(String((b as Json).name))) } : body,
            )
          : request,
    }),
  }),
  fault({
    id: 'create-numbers-as-strings',
    level: 'MUST',
    catches: ['ORD-FORM-001', 'ORD-CREATE-004'],
    collateral: [
      { requirement: 'ORD-CREATE-005', reason: "each item's total is written as a string, so the full form lacks the item total as a number" },
    ],
    subtle: false,
    description: 'The create response writes price and each item\'s quantity, price and total as strings ("46.75").',
    hooks: () => ({
      rewriteReply: (request, reply) =>
        is(request, 'create')
          ? onFullForm(request, reply, (order) => ({
              ...order,
              price: String(order.price),
              items: (order.items as Json[]).map((item) => ({ ...item, quantity: String(item.quantity), price: String(item.price), total: String(item.total) })),
            }))
          : reply,
    }),
  }),
  fault({
    id: 'create-numeric-id',
    level: 'MUST',
    catches: ['ORD-FORM-001', 'ORD-CREATE-003'],
    collateral: [
      { requirement: 'ORD-FORM-002', reason: 'ids are numbers in every response, the order summaries of the list included' },
    ],
    subtle: false,
    description: 'Order ids are JSON numbers (42), not strings, in every response.',
    hooks: () => {
      let counter = 0;
      const asNumber = (order: Json) => ({ ...order, id: Number(order.id) });
      return {
        wrapServices: (services) => ({ ...services, newId: () => String(++counter) }),
        rewriteReply: (request, reply) => onSummaries(request, onFullForm(request, reply, asNumber), asNumber),
      };
    },
  }),
  fault({
    id: 'create-omits-timestamps',
    level: 'MUST',
    catches: ['ORD-FORM-001', 'ORD-CREATE-003'],
    subtle: false,
    description: 'The create response leaves out created_at and updated_at (get has them).',
    hooks: () => ({
      rewriteReply: (request, reply) =>
        is(request, 'create') ? onFullForm(request, reply, ({ created_at: _c, updated_at: _u, ...order }) => order) : reply,
    }),
  }),
  fault({
    id: 'create-mangles-non-ascii',
    level: 'MUST',
    catches: ['ORD-CREATE-004', 'ORD-GET-002'],
    subtle: true,
    description: 'Text is stored as ASCII: every non-ASCII character of a created order becomes "?".',
    hooks: () => ({
      rewriteRequest: (request) => (is(request, 'create') ? withJsonBody(request, (body) => mapStrings(body, mangleNonAscii) as Json) : request),
    }),
  }),
  fault({
    id: 'create-rounds-prices',
    level: 'MUST',
    catches: ['ORD-CREATE-004', 'ORD-GET-002'],
    subtle: false,
    description: 'The order price and item prices are stored rounded to whole units (12.5 becomes 13).',
    hooks: () => ({
      rewriteRequest: (request) =>
        is(request, 'create')
          ? withJsonBody(request, (body) => ({
              ...body,
              price: roundIfNumber(body.price),
              items: isList(body.items) ? body.items.map((item) => (isObject(item) ? { ...item, price: roundIfNumber(item.price) } : item)) : body.items,
            }))
          : request,
    }),
  }),
  fault({
    id: 'create-drops-extra-item-dimensions',
    level: 'MUST',
    catches: ['ORD-CREATE-004', 'ORD-GET-002'],
    collateral: [
      ...because('the dimensions of the second and later items are never read, so mistyped ones are not refused', ['ORD-ERR-004']),
      ...because('a second item sent as text (a mistyped item) is taken as an object of its characters, stored with no total', ['ORD-FORM-003']),
    ],
    subtle: true,
    description: 'Only the first item keeps its nested dimensions object; the second and later items lose it.',
    hooks: () => ({
      rewriteRequest: (request) =>
        is(request, 'create')
          ? withJsonBody(request, (body) =>
              isList(body.items)
                ? { ...body, items: body.items.map((item, index) => (index === 0 ? item : withoutKey(item as Json, 'dimensions'))) }
                : body,
            )
          : request,
    }),
  }),
  fault({
    id: 'create-missing-item-ids',
    level: 'MUST',
    catches: ['ORD-CREATE-005'],
    subtle: false,
    description: 'Items of the full form carry no service-assigned id.',
    hooks: () => ({
      rewriteReply: (request, reply) =>
        onFullForm(request, reply, (order) => ({ ...order, items: (order.items as Json[]).map((item) => withoutKey(item, 'id')) })),
    }),
  }),
  fault({
    id: 'create-user-id-per-order',
    level: 'MUST',
    catches: ['ORD-CREATE-003'],
    subtle: true,
    description: 'user_id is a new UUID for every order instead of one for the account: shows only with two or more orders.',
    hooks: () => {
      const userIds = new Map<string, string>();
      return {
        rewriteReply: (request, reply) =>
          onFullForm(request, reply, (order) => {
            const id = String(order.id);
            if (!userIds.has(id)) userIds.set(id, randomUUID());
            return { ...order, user_id: userIds.get(id) };
          }),
      };
    },
  }),
  fault({
    id: 'create-keeps-client-status',
    level: 'MUST',
    catches: ['ORD-CREATE-008'],
    subtle: true,
    description: 'A create that carries a status keeps it instead of assigning its own (shows only when the client sends one).',
    hooks: () => honoursClientValueOnCreate(['status']),
  }),
  fault({
    id: 'create-defaults-missing-fields',
    level: 'SHOULD',
    catches: ['ORD-ERR-003'],
    subtle: false,
    description: 'A create missing customer, items, currency or price is accepted, the field filled with a default.',
    hooks: () => ({
      rewriteRequest: (request) =>
        is(request, 'create')
          ? withJsonBody(request, (body) => ({ customer: {}, items: [], currency: 'EUR', price: 0, ...body }))
          : request,
    }),
  }),
  fault({
    id: 'create-refuses-sales-channel',
    level: 'MUST',
    catches: ['ORD-CREATE-001'],
    subtle: true,
    description: 'A create that carries sales_channel (a documented optional field) is refused with 400.',
    hooks: () => ({
      intercept: (request) => (is(request, 'create') && /"sales_channel"\s*:/.test(request.bodyText) ? refusal('sales_channel') : undefined),
    }),
  }),
  fault({
    id: 'create-requires-billing',
    level: 'MUST',
    catches: ['ORD-CREATE-002'],
    collateral: [
      { requirement: 'ORD-CREATE-001', reason: 'a create with some optional fields but no billing is refused too, and the suite holds such bodies to ORD-CREATE-001' },
    ],
    subtle: false,
    description: 'A create without billing (optional in 4.2) is refused with 400: only full orders are accepted.',
    hooks: () => ({
      intercept: (request) => (is(request, 'create') && !/"billing"\s*:/.test(request.bodyText) && /^\s*\{/.test(request.bodyText) ? refusal('billing') : undefined),
    }),
  }),
];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isList(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

function roundIfNumber(value: unknown): unknown {
  return typeof value === 'number' ? Math.round(value) : value;
}

function withoutKey(value: Json, key: string): Json {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

function refusal(field: string) {
  return errorReply(new ApiError(400, 'validation_failed', 'The request body is invalid', [{ field, error: 'not accepted' }]));
}
