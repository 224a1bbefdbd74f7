import { ApiError, errorReply } from '../../../reference/http';
import type { StoredOrder } from '../../../reference/store';
import { contract } from '../../../contract/openapi';
import { project } from '../../../contract/projection';
import { allOrders, because, callerOf, fault, is, listFromLaggingIndex, mangleNonAscii, onSummaries, withQuery, withStore, type FaultDefinition, type Hooks, type Json } from './kit';

/** List and pagination (sections 4.1, 2.7 and 8). */
export const LIST_FAULTS: FaultDefinition[] = [
  fault({
    id: 'list-empty-page-without-data',
    level: 'MUST',
    catches: ['ORD-LIST-001'],
    subtle: true,
    description:
      'A page with no orders on it (past the last, or of an account with none) answers {success, meta} without data: a response no test is about, which only the checks every response gets can catch.',
    hooks: () => ({
      rewriteReply: (request, reply) => {
        const body = reply.body as Json | undefined;
        if (!is(request, 'list') || reply.status !== 200 || !Array.isArray(body?.data) || body.data.length > 0) return reply;
        const { data: _left, ...rest } = body;
        return { ...reply, body: rest };
      },
    }),
  }),
  fault({
    id: 'list-index-drops-orders',
    level: 'MUST',
    catches: ['ORD-LIST-008'],
    collateral: because('an order the index never holds is counted in no meta.total either: an account whose orders were all dropped lists a total of 0', ['ORD-LIST-007']),
    subtle: true,
    description:
      'The list is served from an index 800 ms behind the store (conformant, knob list-lag), and every second order created never reaches it: get finds the order, the list never shows it.',
    hooks: () => listFromLaggingIndex(800, (created) => created % 2 === 1),
  }),
  fault({
    id: 'list-default-limit-20',
    level: 'MUST',
    catches: ['ORD-LIST-002'],
    subtle: false,
    description: 'Without limit, a page holds 20 orders instead of the default 10.',
    hooks: () => ({
      rewriteRequest: (request) => (is(request, 'list') && !request.query.has('limit') ? withQuery(request, { limit: '20' }) : request),
    }),
  }),
  fault({
    id: 'list-limit-off-by-one',
    level: 'MUST',
    catches: ['ORD-LIST-004', 'ORD-LIST-002'],
    collateral: [
      { requirement: 'ORD-LIST-006', reason: "each page stops one order short of the next page's start, so one order per page is on no page: a gap" },
      { requirement: 'ORD-LIST-007', reason: 'the last page meta.total implies holds one order fewer than the remainder' },
    ],
    subtle: false,
    description: 'A page holds one order fewer than the limit asked (9 by default).',
    hooks: () => ({
      wrapServices: (services) => withStore(services, (store) => ({ page: (account, offset, limit) => store.page(account, offset, limit - 1) })),
    }),
  }),
  fault({
    id: 'list-limit-capped-at-50',
    level: 'MUST',
    catches: ['ORD-LIST-004'],
    subtle: true,
    description: 'A limit above 50 is silently served as 50: shows only when the account holds more than 50 orders.',
    hooks: () => ({
      wrapServices: (services) =>
        withStore(services, (store) => ({ page: (account, offset, limit) => store.page(account, offset, Math.min(limit, 50)) })),
    }),
  }),
  fault({
    id: 'list-limit-100-unbounded',
    level: 'MUST',
    catches: ['ORD-LIST-005', 'ORD-LIST-004'],
    subtle: false,
    description: 'limit=100 is taken as "no limit": the page holds every order from the offset on, more than 100 when there are.',
    hooks: () => ({
      wrapServices: (services) =>
        withStore(services, (store) => ({
          page: (account, offset, limit) => store.page(account, offset, limit === 100 ? Number.MAX_SAFE_INTEGER : limit),
        })),
    }),
  }),
  fault({
    id: 'list-limit-below-one-answers-all',
    level: 'MUST',
    catches: ['ORD-LIST-005'],
    collateral: [
      { requirement: 'ORD-LIST-010', reason: 'an out-of-range limit answered with every order is neither refused nor clamped into range' },
    ],
    subtle: true,
    description: 'limit=0 or a negative limit is taken as "no limit": every order of the account in one page (shows with more than 100 orders).',
    hooks: () => answersEveryOrderWhen((query) => /^-?\d+$/.test(query.get('limit') ?? '') && Number(query.get('limit')) < 1),
  }),
  fault({
    id: 'list-page-below-one-answers-all',
    level: 'MUST',
    catches: ['ORD-LIST-005', 'ORD-LIST-004'],
    collateral: [
      { requirement: 'ORD-LIST-010', reason: 'an out-of-range page answered with every order is neither refused nor clamped into range' },
    ],
    subtle: true,
    description: 'page=0 or a negative page answers every order of the account, whatever the limit.',
    hooks: () => answersEveryOrderWhen((query) => /^-?\d+$/.test(query.get('page') ?? '') && Number(query.get('page')) < 1),
  }),
  fault({
    id: 'list-pages-zero-based',
    level: 'MUST',
    catches: ['ORD-LIST-006', 'ORD-LIST-003'],
    collateral: [
      { requirement: 'ORD-LIST-007', reason: 'page=N is the N+1-th page, so the last page meta.total implies holds nothing' },
      { requirement: 'ORD-LIST-008', reason: 'the newest orders sit on page 0, which no page number from 1 reaches: they never appear in the list' },
      { requirement: 'ORD-LIST-010', reason: 'page 0 is the first page, so a page below 1 that is answered shows other orders than page 1' },
    ],
    subtle: false,
    description: 'Pages are numbered from 0: page=0 is the first page, page=1 the second (without page, the first).',
    hooks: () => ({
      rewriteRequest: (request) => {
        const page = request.query.get('page');
        return is(request, 'list') && page !== null && /^\d+$/.test(page) ? withQuery(request, { page: String(Number(page) + 1) }) : request;
      },
    }),
  }),
  fault({
    id: 'list-page-three-overlap',
    level: 'MUST',
    catches: ['ORD-LIST-006'],
    collateral: [
      { requirement: 'ORD-LIST-007', reason: 'from page 3 on every page starts one order early, so the last page meta.total implies holds one order more than the remainder' },
    ],
    subtle: true,
    description: 'From page 3 on, a page starts one order early: the last order of page 2 shows again on page 3.',
    hooks: () => ({
      wrapServices: (services) =>
        withStore(services, (store) => ({
          page: (account, offset, limit) => store.page(account, offset >= 2 * limit ? offset - 1 : offset, limit),
        })),
    }),
  }),
  fault({
    id: 'list-mid-pages-slip',
    level: 'MUST',
    catches: ['ORD-LIST-006'],
    collateral: [
      { requirement: 'ORD-LIST-007', reason: 'from page 3 on pages start one order early, so the last page meta.total implies holds one order more than the remainder' },
    ],
    subtle: true,
    description: 'From page 3 on, mid-sized pages (limit 11 to 99) start one order early and repeat the last order of the page before.',
    hooks: () => ({
      wrapServices: (services) =>
        withStore(services, (store) => ({
          page: (account, offset, limit) => store.page(account, limit > 10 && limit < 100 && offset >= 2 * limit ? offset - 1 : offset, limit),
        })),
    }),
  }),
  fault({
    id: 'list-page-three-gap',
    level: 'MUST',
    catches: ['ORD-LIST-006'],
    collateral: [
      { requirement: 'ORD-LIST-007', reason: 'from page 3 on every page starts one order late, so the last page meta.total implies holds one order fewer than the remainder' },
    ],
    subtle: true,
    description: 'From page 3 on, a page starts one order late: one order between page 2 and page 3 is never listed.',
    hooks: () => ({
      wrapServices: (services) =>
        withStore(services, (store) => ({
          page: (account, offset, limit) => store.page(account, offset >= 2 * limit ? offset + 1 : offset, limit),
        })),
    }),
  }),
  fault({
    id: 'list-total-counts-page',
    level: 'MUST',
    catches: ['ORD-LIST-007'],
    collateral: [{ requirement: 'ORD-LIST-004', reason: 'how many orders the last page at a limit must hold is read from meta.total, which is wrong' }],
    subtle: false,
    description: 'meta.total is the number of orders on the page, not in the account.',
    hooks: () => ({
      wrapServices: (services) =>
        withStore(services, (store) => ({
          page: (account, offset, limit) => {
            const { orders } = store.page(account, offset, limit);
            return { orders, total: orders.length };
          },
        })),
    }),
  }),
  fault({
    id: 'list-total-counts-every-account',
    level: 'MUST',
    catches: ['ORD-LIST-007'],
    subtle: true,
    description: "meta.total counts the orders of every account, not the caller's: right only while no other account holds orders.",
    hooks: () => ({
      wrapServices: (services, accounts) =>
        withStore(services, (store) => ({
          page: (account, offset, limit) => {
            const page = store.page(account, offset, limit);
            const total = accounts.accounts.reduce((sum, other) => sum + store.page(other.id, 0, 1).total, 0);
            return { ...page, total };
          },
        })),
    }),
  }),
  fault({
    id: 'list-page-below-one-counts-from-the-end',
    level: 'SHOULD',
    catches: ['ORD-LIST-010'],
    subtle: true,
    description: 'page=0 or a negative page answers a page counted from the end (page 0 is the last page), like a negative list index.',
    hooks: () => ({
      rewriteRequest: (request, { services, accounts }) => {
        const page = Number(request.query.get('page'));
        const caller = callerOf(request, accounts);
        if (!is(request, 'list') || !caller || !/^-?\d+$/.test(request.query.get('page') ?? '') || page >= 1) return request;
        const limit = Math.min(100, Math.max(1, Number(request.query.get('limit') ?? 10) || 10));
        const pages = Math.max(1, Math.ceil(services.store.page(caller.id, 0, 1).total / limit));
        return withQuery(request, { page: String(Math.max(1, pages + page)) });
      },
    }),
  }),
  fault({
    id: 'list-total-counts-deleted',
    level: 'MUST',
    catches: ['ORD-LIST-007'],
    subtle: true,
    description: 'meta.total still counts deleted orders: right until the first delete, too high after it.',
    hooks: () => {
      const deleted = new Map<string, number>();
      return {
        wrapServices: (services) =>
          withStore(services, (store) => ({
            remove: (account, orderId) => {
              const removed = store.remove(account, orderId);
              if (removed) deleted.set(account, (deleted.get(account) ?? 0) + 1);
              return removed;
            },
            page: (account, offset, limit) => {
              const page = store.page(account, offset, limit);
              return { ...page, total: page.total + (deleted.get(account) ?? 0) };
            },
          })),
      };
    },
  }),
  fault({
    id: 'list-unstable-order',
    level: 'MUST',
    catches: ['ORD-LIST-011'],
    collateral: [
      { requirement: 'ORD-LIST-008', reason: 'a list shuffled on every request can leave an order on none of the pages a search reads: it does not appear in the list' },
    ],
    subtle: false,
    description: 'Every list request shuffles the account\'s orders before paging them.',
    hooks: () => ({
      wrapServices: (services) =>
        withStore(services, (store) => ({
          page: (account, offset, limit) => {
            const orders = shuffled(allOrders(store, account));
            return { orders: orders.slice(offset, offset + limit), total: orders.length };
          },
        })),
    }),
  }),
  fault({
    id: 'list-hides-multi-item-orders',
    level: 'MUST',
    catches: ['ORD-LIST-008'],
    collateral: because('meta.total leaves the hidden orders out too: an account whose orders the run made with two items lists a total below them', ['ORD-LIST-007']),
    subtle: true,
    description: 'Orders with two or more items are left out of the list (and of meta.total).',
    hooks: () => ({
      wrapServices: (services) =>
        withStore(services, (store) => ({
          page: (account, offset, limit) => {
            const orders = allOrders(store, account).filter((order) => (order.items as unknown[]).length < 2);
            return { orders: orders.slice(offset, offset + limit), total: orders.length };
          },
        })),
    }),
  }),
  fault({
    id: 'list-summary-stale-after-update',
    level: 'MUST',
    catches: ['ORD-LIST-008'],
    subtle: true,
    description: 'The list serves each order as it was created: after an update its summary no longer matches its full form.',
    hooks: () => {
      const asCreated = new Map<string, StoredOrder>();
      return {
        wrapServices: (services) =>
          withStore(services, (store) => ({
            insert: (order) => {
              asCreated.set(order.id, structuredClone(order));
              store.insert(order);
            },
            page: (account, offset, limit) => {
              const page = store.page(account, offset, limit);
              return { ...page, orders: page.orders.map((order) => asCreated.get(order.id) ?? order) };
            },
          })),
      };
    },
  }),
  fault({
    id: 'list-summary-wrong-price',
    level: 'MUST',
    catches: ['ORD-LIST-008'],
    subtle: true,
    description: 'A summary of an order with two or more items shows the first item\'s price as the order price.',
    hooks: () => ({
      rewriteReply: (request, reply) =>
        onSummaries(request, reply, (summary) => {
          const items = summary.items as Json[];
          return items.length >= 2 ? { ...summary, price: items[0].price } : summary;
        }),
    }),
  }),
  fault({
    id: 'list-summary-mangles-non-ascii',
    level: 'MUST',
    catches: ['ORD-LIST-008'],
    subtle: true,
    description: 'The list writes non-ASCII characters of the customer name as "?" (the full form is right).',
    hooks: () => ({
      rewriteReply: (request, reply) =>
        onSummaries(request, reply, (summary) => {
          const customer = summary.customer as Json;
          return typeof customer?.name === 'string' ? { ...summary, customer: { ...customer, name: mangleNonAscii(customer.name) } } : summary;
        }),
    }),
  }),
  fault({
    id: 'list-bad-parameter-500',
    level: 'SHOULD',
    catches: ['ORD-LIST-010'],
    subtle: false,
    description: 'An out-of-range or non-integer page or limit answers 500 instead of a 4xx.',
    hooks: () => ({
      rewriteReply: (request, reply) =>
        is(request, 'list') && reply.status === 400 ? errorReply(new ApiError(500, 'internal_error', 'Unexpected server error')) : reply,
    }),
  }),
];

/** A list that skips paging for some out-of-range queries: the whole account in one answer. */
export function answersEveryOrderWhen(applies: (query: URLSearchParams) => boolean): Hooks {
  return {
    intercept: (request, { services, accounts }) => {
      const caller = callerOf(request, accounts);
      if (!is(request, 'list') || !caller || !applies(request.query)) return undefined;
      const orders = allOrders(services.store, caller.id);
      const summary = contract().schema('OrderSummary');
      return { status: 200, body: { success: true, meta: { status: 200, message: 'Orders listed', total: orders.length }, data: orders.map((order) => project(order, summary)) } };
    },
  };
}

function shuffled<T>(values: T[]): T[] {
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
