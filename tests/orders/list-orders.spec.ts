import { contract, excerpt } from '../../contract/openapi';
import { is2xx } from '../../checks/body';
import { check, ensure, unless } from '../../harness/findings';
import { test } from '../../harness/fixtures';
import { ensureOrders, isPastLastPage, listPage, pageHolds, pagesContinue, stableView, summaryMatchesFullForm, type ListPage } from '../../harness/listing';
import { observe } from '../../harness/observe';
import { createOrder, type Json } from '../../harness/orders';
import { fullOrder, item, nonAsciiOrder } from '../../generators/examples';
import { verifies } from '../../harness/verifies';

const limitBounds = contract().queryParameter('listOrders', 'limit') as { minimum: number; maximum: number; default: number };
const pageBounds = contract().queryParameter('listOrders', 'page') as { minimum: number; default: number };
/** Enough orders that a page at the maximum limit is full and a page beyond it exists. */
const FULL_ACCOUNT = limitBounds.maximum + 1;

test.describe('GET /orders (4.1, 8)', () => {
  // One worker, in turn: the account is filled once, and the tests' own orders do not shift each other's pages.
  test.describe.configure({ mode: 'default' });
  test.beforeEach(async ({ api }) => {
    await ensureOrders(api, FULL_ACCOUNT);
  });

  test('answers the list envelope', verifies('ORD-LIST-001', 'ORD-FORM-002', 'ORD-OBS-001'), async ({ api }) => {
    const page = await listPage(api, {});
    observe('ORD-OBS-001', `list answers ${page.exchange.status}`);
    check(
      unless('ORD-LIST-001', page.data.length > 0, () => ({
        expected: `data holding orders (the account has at least ${FULL_ACCOUNT})`,
        received: 'an empty data array',
        exchange: page.exchange,
      })),
    );
  });

  test(`holds ${limitBounds.default} orders when no limit is given`, verifies('ORD-LIST-002'), async ({ api }) => {
    const [page] = await stableView(api, [{}]);
    check(pageSize('ORD-LIST-002', page, limitBounds.default));
  });

  test('answers the first page when no page is given', verifies('ORD-LIST-003'), async ({ api }) => {
    const [implicit, explicit] = await stableView(api, [{ limit: 5 }, { page: pageBounds.default, limit: 5 }]);
    check(
      unless('ORD-LIST-003', implicit.ids.join() === explicit.ids.join(), () => ({
        expected: `the same orders as page=${pageBounds.default}: ${explicit.ids.join(', ')}`,
        received: implicit.ids.join(', '),
        exchange: implicit.exchange,
      })),
    );
  });

  test('honours every limit from 1 to 100', verifies('ORD-LIST-004'), async ({ api }) => {
    const limits = [limitBounds.minimum, 2, 3, 7, limitBounds.default, 25, 50, limitBounds.maximum - 1, limitBounds.maximum];
    for (const limit of limits) {
      const [page] = await stableView(api, [{ limit }]);
      check(pageSize('ORD-LIST-004', page, limit));
    }
  });

  test('never holds more than 100 orders, whatever limit is asked', verifies('ORD-LIST-005', 'ORD-OBS-009'), async ({ api }) => {
    const seen: string[] = [];
    for (const limit of [limitBounds.maximum, limitBounds.maximum + 1, 150, 1000]) {
      const exchange = await api.list({ limit });
      const page = { data: ((exchange.json as { data?: unknown[] } | undefined)?.data ?? []) as unknown[] };
      check(
        unless('ORD-LIST-005', exchange.status >= 300 || page.data.length <= limitBounds.maximum, () => ({
          expected: `at most ${limitBounds.maximum} orders (or the limit refused)`,
          received: `${page.data.length} orders`,
          exchange,
        })),
      );
      seen.push(`limit=${limit}: ${exchange.status >= 300 ? `rejected (${exchange.status})` : `clamped (${page.data.length} orders)`}`);
    }
    observe('ORD-OBS-009', seen.join('; '));
  });

  for (const limit of [3, limitBounds.default]) {
    test(`numbers pages from 1, without gap or overlap (limit ${limit})`, verifies('ORD-LIST-006'), async ({ api }) => {
      const pageCount = 4;
      const query = (page: number): Record<string, number> => (limit === limitBounds.default ? { page } : { page, limit });
      const view = await stableView(api, [...Array.from({ length: pageCount }, (_, i) => query(i + 1)), { limit: limit * pageCount }]);
      check(pagesContinue(view.slice(0, pageCount), view[pageCount], limit));
    });
  }

  test('reports the total count in meta.total, also after a delete and while another account holds orders', verifies('ORD-LIST-007'), async ({ api, accounts, settings }) => {
    if (!settings.readOnly) {
      // "The count of orders" is the account's own: another account's order must not be counted.
      if (accounts.B) await createOrder(accounts.B, fullOrder());
      // A count kept by hand goes wrong at the first delete: make sure one happened.
      const created = await createOrder(api, fullOrder());
      ensure(is2xx('ORD-DELETE-001')(await api.delete(created.id)));
    }
    for (const limit of [limitBounds.maximum, 7]) {
      const [first] = await stableView(api, [{ limit }]);
      const total = first.total ?? 0;
      const last = Math.max(1, Math.ceil(total / limit));
      const [lastPage, beyond, again] = await stableView(api, [{ page: last, limit }, { page: last + 1, limit }, { limit }]);
      if (again.total !== total) continue; // the account changed between the two views: nothing to conclude
      check(pageSize('ORD-LIST-007', lastPage, total - (last - 1) * limit, `page ${last}, the last one for meta.total ${total} at limit ${limit},`));
      check(
        unless('ORD-LIST-007', beyond.exchange.status >= 300 || beyond.data.length === 0, () => ({
          expected: `no orders on page ${last + 1}: meta.total ${total} at limit ${limit} ends on page ${last}`,
          received: `${beyond.data.length} orders`,
          exchange: beyond.exchange,
        })),
      );
      // A page past the last answered with a 4xx carries no meta.total (ORD-LIST-009: what it answers is not shown).
      for (const page of [lastPage, beyond].filter((shown) => !isPastLastPage(shown, total))) {
        check(
          unless('ORD-LIST-007', page.total === total, () => ({
            expected: `meta.total ${total} on every page`,
            received: `meta.total ${excerpt(page.total)}`,
            exchange: page.exchange,
          })),
        );
      }
    }
  });

  test('observes what a page beyond the last one answers', verifies('ORD-LIST-009', 'ORD-LIST-007'), async ({ api }) => {
    const first = await listPage(api, { limit: limitBounds.maximum });
    const seen: string[] = [];
    for (const page of [Math.ceil((first.total ?? 0) / limitBounds.maximum) + 1, 1_000_000]) {
      const exchange = await api.list({ page, limit: limitBounds.maximum });
      const data = (exchange.json as { data?: unknown } | undefined)?.data;
      // Whatever it answers (not shown), a page past the end holds no orders.
      check(
        unless('ORD-LIST-007', exchange.status >= 300 || (Array.isArray(data) && data.length === 0), () => ({
          expected: `no orders on page ${page}, past the last one meta.total ${first.total ?? '?'} implies at limit ${limitBounds.maximum}`,
          received: `${exchange.status}${Array.isArray(data) ? ` with ${data.length} orders` : ''}`,
          exchange,
        })),
      );
      seen.push(`page ${page}: ${exchange.status}${Array.isArray(data) ? ` with ${data.length} orders` : ''}`);
    }
    observe('ORD-LIST-009', seen.join('; '));
  });

  const outOfRange: Array<[string, string]> = [
    ['limit', String(limitBounds.minimum - 1)],
    ['limit', '-1'],
    ['limit', String(limitBounds.maximum + 1)],
    ['limit', 'abc'],
    ['limit', '1.5'],
    ['limit', ''],
    ['page', String(pageBounds.minimum - 1)],
    ['page', '-1'],
    ['page', 'abc'],
    ['page', '1.5'],
    ['page', ''],
  ];
  test('rejects or clamps out-of-range paging, never with a 5xx', verifies('ORD-LIST-010', 'ORD-OBS-009', 'ORD-OBS-002'), async ({ api }) => {
    const seen: string[] = [];
    for (const [name, value] of outOfRange) {
      const exchange = await api.list({ [name]: value });
      const data = (exchange.json as { data?: unknown } | undefined)?.data;
      const clamped = exchange.status >= 200 && exchange.status < 300;
      check(
        unless(
          'ORD-LIST-010', (exchange.status >= 400 && exchange.status < 500) ||
            (clamped && Array.isArray(data) && data.length >= 1 && data.length <= limitBounds.maximum),
          () => ({
            expected: `${name}=${JSON.stringify(value)}: a 4xx, or a page clamped into range holding 1 to ${limitBounds.maximum} orders`,
            received: clamped ? `${exchange.status} with ${Array.isArray(data) ? data.length : 'no'} orders` : `${exchange.status}`,
            exchange,
          }),
        ),
      );
      seen.push(`${name}=${JSON.stringify(value)}: ${clamped ? 'clamped' : exchange.status}`);
    }
    observe('ORD-OBS-009', seen.join('; '));
  });

  test('lists the same orders in the same order when asked twice', verifies('ORD-LIST-011', 'ORD-OBS-008'), async ({ api }) => {
    const first = await listPage(api, { limit: limitBounds.maximum });
    const second = await listPage(api, { limit: limitBounds.maximum });
    // Another client may add or remove orders in between; the orders both answers hold must keep their order.
    const common = first.ids.filter((id) => second.ids.includes(id));
    const reordered = common.join() !== second.ids.filter((id) => first.ids.includes(id)).join();
    check(
      unless('ORD-LIST-011', !reordered, () => ({
        expected: 'the orders of two identical list requests in the same relative order',
        received: `first: ${first.ids.slice(0, 8).join(', ')}…; then: ${second.ids.slice(0, 8).join(', ')}…`,
        exchange: second.exchange,
      })),
    );
    observe('ORD-OBS-008', listDirection(first.data));
  });

  test('shows each order with the values of its full form', verifies('ORD-LIST-008'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    check(await summaryMatchesFullForm(api, created.id));
  });

  test('shows non-ASCII text in the list exactly as in the full form', verifies('ORD-LIST-008'), async ({ api }) => {
    const created = await createOrder(api, nonAsciiOrder());
    check(await summaryMatchesFullForm(api, created.id));
  });

  test('shows an updated order with its new values', verifies('ORD-LIST-008'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const update = { items: [item({ name: 'Replacement', quantity: 5, price: 3.3 }), item()], price: 41.5, note: 'after update' };
    ensure(is2xx('ORD-UPDATE-001')(await api.update(created.id, update)));
    check(await summaryMatchesFullForm(api, created.id));
  });
});

/** A full page holds `limit` orders, fewer only when meta.total shows the account has fewer. */
function pageSize(requirementId: string, page: ListPage, limit: number, what = `a page at limit ${page.query.limit ?? '(default)'}`) {
  return pageHolds(page, Math.max(0, Math.min(limit, page.total ?? limit)), requirementId, what);
}

function listDirection(data: Json[]): string {
  const times = data.map((order) => Date.parse(String(order.created_at))).filter(Number.isFinite);
  const descending = times.every((t, i) => i === 0 || times[i - 1] >= t);
  const ascending = times.every((t, i) => i === 0 || times[i - 1] <= t);
  if (descending && !ascending) return 'newest first (created_at descending)';
  if (ascending && !descending) return 'oldest first (created_at ascending)';
  return descending ? 'all orders share one created_at: direction unknown' : 'neither newest nor oldest first';
}
