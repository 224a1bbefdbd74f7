import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiRequest } from '../../../reference/http';
import { because, callerOf, fault, is, isSuccess, withStore, type FaultDefinition } from './kit';

/** What only shows under parallel requests. */
export const CONCURRENCY_FAULTS: FaultDefinition[] = [
  fault({
    id: 'concurrency-duplicate-ids',
    level: 'SHOULD',
    catches: ['ORD-CREATE-007'],
    collateral: because(
      "the suite's generated runs create side by side, as concurrent clients do, and across a network so do its tests: two of their orders get one id, and reading one back (get, list, the other account's view) shows the other; deleting both, the second delete finds none (404), and a write after a delete meets the other order; a test that checks a refused request left its order as it was finds another order there",
      ['ORD-GET-001', 'ORD-GET-002', 'ORD-GET-003', 'ORD-UPDATE-003', 'ORD-UPDATE-005', 'ORD-UPDATE-007', 'ORD-LIST-008', 'ORD-ISO-001', 'ORD-ISO-002', 'ORD-ISO-003', 'ORD-DELETE-001', 'ORD-DELETE-005', 'ORD-OBS-004', 'ORD-AUTH-001', 'ORD-AUTH-003', 'ORD-AUTH-004', 'ORD-AUTH-007'],
    ),
    subtle: true,
    acrossTests: 'across a network the tests run side by side and create at the same moments: which two orders share an id, and so which test reads back, updates or deletes the other one, depends on timing',
    description:
      'Order ids come from a counter read before a slow step and written after it: creates in flight together get the same id (the later overwrites the earlier).',
    hooks: () => {
      let lastNumber = 0;
      let reserved: string | undefined;
      return {
        intercept: async (request) => {
          if (!is(request, 'create')) return undefined;
          const next = lastNumber + 1;
          await sleep(10);
          lastNumber = next;
          reserved = String(next);
          return undefined;
        },
        // A create refused before it took its id leaves none behind for the next request.
        rewriteReply: (request, reply) => {
          if (is(request, 'create')) reserved = undefined;
          return reply;
        },
        // The create route asks for the order id first, then for the customer and item ids.
        wrapServices: (services) => ({
          ...services,
          newId: () => {
            const id = reserved ?? randomUUID();
            reserved = undefined;
            return id;
          },
        }),
      };
    },
  }),
  fault({
    id: 'concurrency-total-drifts-under-parallel-creates',
    level: 'MUST',
    catches: ['ORD-LIST-007'],
    collateral: because(
      "a list view's page holds as many orders as its limit allows of meta.total's: across a network, the account's orders are made many at once and the total drifts far enough that a page of the count it claims cannot be full",
      ['ORD-LIST-004'],
    ),
    subtle: true,
    description:
      'meta.total is a counter per account, read before a slow step and written after it: creates (and deletes) in flight together lose their updates, so meta.total drifts away from the orders the list holds.',
    hooks: () => {
      const counters = new Map<string, number>();
      const readBefore = new WeakMap<ApiRequest, { account: string; value: number }>();
      let trueTotal: (account: string) => number = () => 0;
      return {
        wrapServices: (services) =>
          withStore(services, (store) => {
            trueTotal = (account) => store.page(account, 0, 0).total;
            return { page: (account, offset, limit) => ({ ...store.page(account, offset, limit), total: counters.get(account) ?? trueTotal(account) }) };
          }),
        // Read: the counter as it is when the request arrives, before the slow step.
        intercept: async (request, { accounts }) => {
          const account = is(request, 'create', 'delete') ? callerOf(request, accounts)?.id : undefined;
          if (!account) return undefined;
          readBefore.set(request, { account, value: counters.get(account) ?? trueTotal(account) });
          await sleep(10);
          return undefined;
        },
        // Modify and write: what was read, plus or minus one, over whatever other requests wrote meanwhile.
        rewriteReply: (request, reply) => {
          const read = readBefore.get(request);
          if (read && isSuccess(reply)) counters.set(read.account, read.value + (is(request, 'create') ? 1 : -1));
          return reply;
        },
      };
    },
  }),
];
