import { contract } from '../../contract/openapi';
import { check, unless } from '../../harness/findings';
import { test } from '../../harness/fixtures';
import { ensureOrders, stableView } from '../../harness/listing';
import { verifies } from '../../harness/verifies';

const limitBounds = contract().queryParameter('listOrders', 'limit') as { minimum: number; maximum: number };
const pageBounds = contract().queryParameter('listOrders', 'page') as { minimum: number };
/** More orders than the largest page: an answer with "every order" then shows as a page above the maximum. */
const FULL_ACCOUNT = limitBounds.maximum + 1;

/** Out-of-range values on both sides of each bound of section 8 (and far beyond). */
const OUT_OF_RANGE_LIMITS = [limitBounds.minimum - 1, limitBounds.minimum - 2, limitBounds.maximum + 1, limitBounds.maximum * 10];
const OUT_OF_RANGE_PAGES = [pageBounds.minimum - 1, pageBounds.minimum - 2];
const IN_RANGE_LIMIT = 5;

function dataOf(json: unknown): unknown[] | undefined {
  const data = (json as { data?: unknown } | undefined)?.data;
  return Array.isArray(data) ? data : undefined;
}

test.describe('GET /orders bounds against a full account (8)', () => {
  test.describe.configure({ mode: 'default' });
  test.beforeEach(async ({ api }) => {
    await ensureOrders(api, FULL_ACCOUNT);
  });

  test('never answers more than 100 orders for an out-of-range limit or page', verifies('ORD-LIST-005'), async ({ api }) => {
    const queries = [...OUT_OF_RANGE_LIMITS.map((limit) => ({ limit })), ...OUT_OF_RANGE_PAGES.map((page) => ({ page })), ...OUT_OF_RANGE_PAGES.map((page) => ({ page, limit: limitBounds.maximum }))];
    for (const query of queries) {
      const exchange = await api.list(query);
      const count = dataOf(exchange.json)?.length ?? 0;
      check(
        unless('ORD-LIST-005', exchange.status >= 300 || count <= limitBounds.maximum, () => ({
          expected: `${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}: at most ${limitBounds.maximum} orders (or the request refused); the account holds more than ${limitBounds.maximum}`,
          received: `${exchange.status} with ${count} orders`,
          exchange,
        })),
      );
    }
  });

  test('answers a page below 1, when it clamps rather than refuses, with the orders of page 1', verifies('ORD-LIST-010'), async ({ api }) => {
    for (const page of OUT_OF_RANGE_PAGES) {
      const [first] = await stableView(api, [{ page: pageBounds.minimum, limit: IN_RANGE_LIMIT }]);
      const exchange = await api.list({ page, limit: IN_RANGE_LIMIT });
      const [again] = await stableView(api, [{ page: pageBounds.minimum, limit: IN_RANGE_LIMIT }]);
      if (exchange.status < 200 || exchange.status >= 300 || again.ids.join() !== first.ids.join()) continue; // refused, or the account changed meanwhile
      const ids = (dataOf(exchange.json) ?? []).map((order) => String((order as { id?: unknown }).id));
      check(
        unless('ORD-LIST-010', ids.join() === first.ids.join(), () => ({
          expected: `page=${page}&limit=${IN_RANGE_LIMIT} clamped to page ${pageBounds.minimum}: its orders ${first.ids.join(', ')} (or the request refused with a 4xx)`,
          received: `${exchange.status} with the orders ${ids.join(', ') || '(none)'}`,
          exchange,
        })),
      );
    }
  });

  test('honours an in-range limit when the page is out of range', verifies('ORD-LIST-004'), async ({ api }) => {
    for (const page of OUT_OF_RANGE_PAGES) {
      const exchange = await api.list({ page, limit: IN_RANGE_LIMIT });
      const count = dataOf(exchange.json)?.length ?? 0;
      check(
        unless('ORD-LIST-004', exchange.status >= 300 || count <= IN_RANGE_LIMIT, () => ({
          expected: `page=${page}&limit=${IN_RANGE_LIMIT}: at most ${IN_RANGE_LIMIT} orders (or the request refused)`,
          received: `${exchange.status} with ${count} orders`,
          exchange,
        })),
      );
    }
  });
});
