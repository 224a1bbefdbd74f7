import { contract } from '../../contract/openapi';
import { atMostLimit, clampedToFirstPage, neverAboveMaximum, readPage } from '../../checks/listing';
import { isSuccess } from '../../checks/status';
import { check } from '../../harness/record/findings';
import { test } from '../../harness/fixtures';
import { ensureOrders, stableView } from '../../harness/requests/listing';
import { verifies, whileNothingWrites } from '../../harness/record/verifies';
import { together } from '../../harness/requests/together';

const limitBounds = contract().queryParameter('listOrders', 'limit') as { minimum: number; maximum: number };
const pageBounds = contract().queryParameter('listOrders', 'page') as { minimum: number };
/** More orders than the largest page: an answer with "every order" then shows as a page above the maximum. */
const FULL_ACCOUNT = limitBounds.maximum + 1;

/** Out-of-range values on both sides of each bound of section 8 (and far beyond). */
const OUT_OF_RANGE_LIMITS = [limitBounds.minimum - 1, limitBounds.minimum - 2, limitBounds.maximum + 1, limitBounds.maximum * 10];
const OUT_OF_RANGE_PAGES = [pageBounds.minimum - 1, pageBounds.minimum - 2];
const IN_RANGE_LIMIT = 5;

test.describe('GET /orders bounds against a full account (8)', () => {
  test('never answers more than 100 orders for an out-of-range limit or page', verifies('ORD-LIST-005'), async ({ api }) => {
    await ensureOrders(api, FULL_ACCOUNT);
    const queries = [...OUT_OF_RANGE_LIMITS.map((limit) => ({ limit })), ...OUT_OF_RANGE_PAGES.map((page) => ({ page })), ...OUT_OF_RANGE_PAGES.map((page) => ({ page, limit: limitBounds.maximum }))];
    const answers = await together(queries.map((query) => api.list(query)));
    queries.forEach((query, index) => check(neverAboveMaximum(readPage(query, answers[index]))));
  });

  test('answers a page below 1, when it clamps rather than refuses, with the orders of page 1', whileNothingWrites(verifies('ORD-LIST-010')), async ({ api }) => {
    await ensureOrders(api, FULL_ACCOUNT);
    // Page 1 before and after the out-of-range pages: unchanged, it is what a clamped page must show.
    const [first] = await stableView(api, [{ page: pageBounds.minimum, limit: IN_RANGE_LIMIT }]);
    const answers = await together(OUT_OF_RANGE_PAGES.map((page) => api.list({ page, limit: IN_RANGE_LIMIT })));
    const [again] = await stableView(api, [{ page: pageBounds.minimum, limit: IN_RANGE_LIMIT }]);
    if (again.ids.join() !== first.ids.join()) return; // the account changed meanwhile: nothing to conclude
    for (const [index, page] of OUT_OF_RANGE_PAGES.entries()) {
      const answered = readPage({ page, limit: IN_RANGE_LIMIT }, answers[index]);
      if (isSuccess(answered.exchange.status)) check(clampedToFirstPage(answered, first)); // a refusal is the other choice
    }
  });

  test('honours an in-range limit when the page is out of range', verifies('ORD-LIST-004'), async ({ api }) => {
    await ensureOrders(api, FULL_ACCOUNT);
    const answers = await together(OUT_OF_RANGE_PAGES.map((page) => api.list({ page, limit: IN_RANGE_LIMIT })));
    OUT_OF_RANGE_PAGES.forEach((page, index) => check(atMostLimit(readPage({ page, limit: IN_RANGE_LIMIT }, answers[index]))));
  });
});
