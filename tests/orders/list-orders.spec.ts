import { contract } from '../../contract/openapi';
import { deleteAccepted } from '../../checks/deletion';
import {
  defaultLimitHonoured,
  firstPageByDefault,
  lastPageHoldsRest,
  limitHonoured,
  listShowsOrders,
  neverAboveMaximum,
  nothingPastLastPage,
  outOfRangePagingAnswered,
  pagesContinue,
  readPage,
  sameOrderTwice,
  sameTotalOnEveryPage,
} from '../../checks/listing';
import { updateAccepted } from '../../checks/orders';
import { isSuccess } from '../../checks/status';
import { check, ensure } from '../../harness/record/findings';
import { test } from '../../harness/fixtures';
import { ensureOrders, listPage, stableView, summaryMatchesFullForm } from '../../harness/requests/listing';
import { observe } from '../../harness/record/observe';
import { createOrder, orderToRead } from '../../harness/requests/orders';
import type { Json } from '../../contract/exchange';
import { fullOrder, item, nonAsciiOrder } from '../../contract/examples';
import { verifies, whileNothingWrites } from '../../harness/record/verifies';
import { together } from '../../harness/requests/together';

const limitBounds = contract().queryParameter('listOrders', 'limit') as { minimum: number; maximum: number; default: number };
const pageBounds = contract().queryParameter('listOrders', 'page') as { minimum: number; default: number };
/** Enough orders that a page at the maximum limit is full and a page beyond it exists. */
const FULL_ACCOUNT = limitBounds.maximum + 1;

test.describe('GET /orders (4.1, 8)', () => {
  test('answers the list envelope', verifies('ORD-LIST-001', 'ORD-FORM-002', 'ORD-OBS-001'), async ({ api }) => {
    await ensureOrders(api, FULL_ACCOUNT);
    const page = await listPage(api, {});
    observe('ORD-OBS-001', `list answers ${page.exchange.status}`);
    check(listShowsOrders(page, FULL_ACCOUNT));
  });

  test(`holds ${limitBounds.default} orders when no limit is given`, whileNothingWrites(verifies('ORD-LIST-002')), async ({ api }) => {
    await ensureOrders(api, FULL_ACCOUNT);
    const [page] = await stableView(api, [{}]);
    check(defaultLimitHonoured(page, limitBounds.default));
  });

  test('answers the first page when no page is given', whileNothingWrites(verifies('ORD-LIST-003')), async ({ api }) => {
    await ensureOrders(api, FULL_ACCOUNT);
    const [implicit, explicit] = await stableView(api, [{ limit: 5 }, { page: pageBounds.default, limit: 5 }]);
    check(firstPageByDefault(implicit, explicit));
  });

  test('honours every limit from 1 to 100', whileNothingWrites(verifies('ORD-LIST-004')), async ({ api }) => {
    await ensureOrders(api, FULL_ACCOUNT);
    const limits = [limitBounds.minimum, 2, 3, 7, limitBounds.default, 25, 50, limitBounds.maximum - 1, limitBounds.maximum];
    const view = await stableView(api, limits.map((limit) => ({ limit })));
    limits.forEach((limit, index) => check(limitHonoured(view[index], limit)));
  });

  test('never holds more than 100 orders, whatever limit is asked', verifies('ORD-LIST-005', 'ORD-OBS-009'), async ({ api }) => {
    await ensureOrders(api, FULL_ACCOUNT);
    const seen: string[] = [];
    const limits = [limitBounds.maximum, limitBounds.maximum + 1, 150, 1000];
    const answers = await together(limits.map((limit) => api.list({ limit })));
    for (const [index, limit] of limits.entries()) {
      const page = readPage({ limit }, answers[index]);
      check(neverAboveMaximum(page));
      seen.push(`limit=${limit}: ${page.exchange.status >= 300 ? `rejected (${page.exchange.status})` : `clamped (${page.data.length} orders)`}`);
    }
    observe('ORD-OBS-009', seen.join('; '));
  });

  for (const limit of [3, undefined]) {
    test(`numbers pages from 1, without gap or overlap (${limit === undefined ? 'no limit' : `limit ${limit}`})`, whileNothingWrites(verifies('ORD-LIST-006')), async ({ api }) => {
      await ensureOrders(api, FULL_ACCOUNT);
      // Without limit, pages are numbered at the server's own page size: whether that is 10 is ORD-LIST-002's question.
      const size = limit ?? Math.max(1, (await listPage(api, {})).data.length);
      const pageCount = Math.max(1, Math.min(4, Math.floor(limitBounds.maximum / size)));
      const query = (page: number): Record<string, number> => (limit === undefined ? { page } : { page, limit });
      const view = await stableView(api, [...Array.from({ length: pageCount }, (_, i) => query(i + 1)), { limit: Math.min(limitBounds.maximum, size * pageCount) }]);
      check(pagesContinue(view.slice(0, pageCount), view[pageCount], size));
    });
  }

  test('reports the total count in meta.total, also after a delete and while another account holds orders', whileNothingWrites(verifies('ORD-LIST-007')), async ({ api, accounts, settings }) => {
    await ensureOrders(api, FULL_ACCOUNT);
    if (!settings.readOnly) {
      // "The count of orders" is the account's own: another account's order must not be counted.
      // A count kept by hand goes wrong at the first delete: make sure one happened.
      const [created] = await together([createOrder(api, fullOrder()), ...(accounts.B ? [createOrder(accounts.B, fullOrder())] : [])]);
      ensure(deleteAccepted(await api.delete(created.id)));
    }
    // Each limit's views wait for nothing of the other's: side by side.
    const views = await together(
      [limitBounds.maximum, 7].map(async (limit) => {
        const [first] = await stableView(api, [{ limit }]);
        const total = first.total ?? 0;
        const last = Math.max(1, Math.ceil(total / limit));
        return { limit, total, pages: await stableView(api, [{ page: last, limit }, { page: last + 1, limit }, { limit }]) };
      }),
    );
    for (const { limit, total, pages: [lastPage, beyond, again] } of views) {
      if (again.total !== total) continue; // the account changed between the two views: nothing to conclude
      check(lastPageHoldsRest(lastPage, total, limit));
      check(nothingPastLastPage(beyond, total));
      check(sameTotalOnEveryPage([lastPage, beyond], total));
    }
  });

  test('observes what a page beyond the last one answers', verifies('ORD-LIST-009', 'ORD-LIST-007'), async ({ api }) => {
    await ensureOrders(api, FULL_ACCOUNT);
    const first = await listPage(api, { limit: limitBounds.maximum });
    const seen: string[] = [];
    const pages = [Math.ceil((first.total ?? 0) / limitBounds.maximum) + 1, 1_000_000];
    const answers = await together(pages.map((page) => api.list({ page, limit: limitBounds.maximum })));
    for (const [index, page] of pages.entries()) {
      const exchange = answers[index];
      const data = (exchange.json as { data?: unknown } | undefined)?.data;
      // Whatever it answers (not shown), a page past the end holds no orders. Other tests of the run create orders
      // meanwhile: the page's own meta.total says where the end is now (a page the account grew into is no longer past it).
      const answered = readPage({ page, limit: limitBounds.maximum }, exchange);
      const total = answered.total ?? first.total;
      if ((page - 1) * limitBounds.maximum >= (total ?? 0)) check(nothingPastLastPage(answered, total));
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
    await ensureOrders(api, FULL_ACCOUNT);
    const seen: string[] = [];
    const answers = await together(outOfRange.map(([name, value]) => api.list({ [name]: value })));
    for (const [index, [name, value]] of outOfRange.entries()) {
      const page = readPage({ [name]: value }, answers[index]);
      check(outOfRangePagingAnswered(page));
      seen.push(`${name}=${JSON.stringify(value)}: ${isSuccess(page.exchange.status) ? 'clamped' : page.exchange.status}`);
    }
    observe('ORD-OBS-009', seen.join('; '));
  });

  test('lists the same orders in the same order when asked twice', verifies('ORD-LIST-011', 'ORD-OBS-008'), async ({ api }) => {
    await ensureOrders(api, FULL_ACCOUNT);
    const first = await listPage(api, { limit: limitBounds.maximum });
    const second = await listPage(api, { limit: limitBounds.maximum });
    check(sameOrderTwice(first, second));
    observe('ORD-OBS-008', listDirection(first.data));
  });

  test('shows each order with the values of its full form', verifies('ORD-LIST-008'), async ({ api }) => {
    await ensureOrders(api, FULL_ACCOUNT);
    const created = await orderToRead(api, fullOrder());
    check(await summaryMatchesFullForm(api, created.id));
  });

  test('shows non-ASCII text in the list exactly as in the full form', verifies('ORD-LIST-008'), async ({ api }) => {
    await ensureOrders(api, FULL_ACCOUNT);
    const created = await createOrder(api, nonAsciiOrder());
    check(await summaryMatchesFullForm(api, created.id));
  });

  test('shows an updated order with its new values', verifies('ORD-LIST-008'), async ({ api }) => {
    await ensureOrders(api, FULL_ACCOUNT);
    const created = await createOrder(api, fullOrder());
    const update = { items: [item({ name: 'Replacement', quantity: 5, price: 3.3 }), item()], price: 41.5, note: 'after update' };
    ensure(updateAccepted(await api.update(created.id, update)));
    check(await summaryMatchesFullForm(api, created.id));
  });
});

function listDirection(data: Json[]): string {
  const times = data.map((order) => Date.parse(String(order.created_at))).filter(Number.isFinite);
  const descending = times.every((t, i) => i === 0 || times[i - 1] >= t);
  const ascending = times.every((t, i) => i === 0 || times[i - 1] <= t);
  if (descending && !ascending) return 'newest first (created_at descending)';
  if (ascending && !descending) return 'oldest first (created_at ascending)';
  return descending ? 'all orders share one created_at: direction unknown' : 'neither newest nor oldest first';
}
