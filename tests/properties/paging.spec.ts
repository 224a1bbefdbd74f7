import fc from 'fast-check';
import { lastPageHoldsRest, nothingPastLastPage, pagesContinue, pagesFull, readPage, sameTotalOnEveryPage } from '../../checks/listing';
import { inTurn } from '../../checks/check';
import { listQuery, pageWalk } from '../../generators/query';
import { forAll, stopOn } from '../../harness/property';
import { test } from '../../harness/fixtures';
import { ensureOrders, listAnswerHolds, readStableView } from '../../harness/requests/listing';
import { verifies, whileNothingWrites } from '../../harness/record/verifies';

/** Limits below and above the default, and page 3 and beyond, in an account of about a hundred orders. */
const WALK = { maxLimit: 25, maxPages: 4 };
const CHANGING = 'the account changed while each view was read (another client writing): no view to check';
const READ_TWICE = 'each view is read twice in a row: the same answers show no other client changed the account meanwhile';

test.describe('generated paging (4.1, 8)', () => {
  test(
    'holds on consecutive pages, at any limit, the first orders without duplicate or gap',
    whileNothingWrites(verifies('ORD-LIST-004', 'ORD-LIST-006')),
    async ({ api, settings }) => {
      await ensureOrders(api, WALK.maxLimit * WALK.maxPages + 1);
      await forAll(settings, {
        input: pageWalk(WALK),
        // Page 3 and beyond at a limit above the default, every time: a slip there shows nowhere else.
        examples: [{ limit: 17, pages: 4 }],
        inconclusive: CHANGING,
        requestsNote: READ_TWICE,
        run: async ({ limit, pages }, trail) => {
          const walked = Array.from({ length: pages }, (_, index) => ({ page: index + 1, limit }));
          const view = await readStableView(trail.api(api), pages > 1 ? [...walked, { limit: limit * pages }] : walked, { attempts: 6, stop: stopOn });
          if (!view) fc.pre(false);
          return inTurn(
            () => pagesFull(view.slice(0, pages), limit),
            () => (pages > 1 ? pagesContinue(view.slice(0, pages), view[pages], limit) : undefined),
          );
        },
      });
    },
  );

  test('ends, at any limit, on the last page meta.total implies', whileNothingWrites(verifies('ORD-LIST-007')), async ({ api, settings }) => {
    await ensureOrders(api, WALK.maxLimit * WALK.maxPages + 1);
    await forAll(settings, {
      input: pageWalk(WALK),
      inconclusive: CHANGING,
      requestsNote: READ_TWICE,
      run: async ({ limit }, trail) => {
        const own = trail.api(api);
        for (let attempt = 0; attempt < 3; attempt++) {
          const total = readPage({ limit }, await own.list({ limit })).total ?? 0;
          const last = Math.max(1, Math.ceil(total / limit));
          const view = await readStableView(own, [{ limit }, { page: last, limit }, { page: last + 1, limit }], { attempts: 6, stop: stopOn });
          // Another client changed the account between the count and the view: count again.
          if (!view || view[0].total !== total) continue;
          const [, lastPage, beyond] = view;
          return inTurn(
            () => sameTotalOnEveryPage(view, total),
            () => lastPageHoldsRest(lastPage, total, limit),
            () => nothingPastLastPage(beyond, total),
          );
        }
        fc.pre(false);
        return undefined;
      },
    });
  });

  test('answers any page and limit, in range or not, with a 2xx or a 4xx, never a 5xx', verifies('ORD-LIST-002', 'ORD-LIST-004', 'ORD-LIST-005', 'ORD-LIST-010'), async ({ api, settings }) => {
    await forAll(settings, {
      input: listQuery(),
      runsFactor: 2,
      run: async (query, trail) => listAnswerHolds(trail.api(api), query, await trail.api(api).list(query as Record<string, string | number>)),
    });
  });
});
