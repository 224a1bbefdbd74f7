import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { fault, is, type FaultDefinition } from './kit';

/** What only shows under parallel requests. */
export const CONCURRENCY_FAULTS: FaultDefinition[] = [
  fault({
    id: 'concurrency-duplicate-ids',
    level: 'SHOULD',
    catches: ['ORD-CREATE-007'],
    subtle: true,
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
];
