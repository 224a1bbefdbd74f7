import { contract, excerpt } from '../contract/openapi';
import { project } from '../contract/projection';
import type { Finding } from './finding';
import type { Exchange } from '../contract/exchange';
import { bounds, isValidQuery, type ListQuery } from '../contract/query';
import { changesBetween, differences, formatDifferences, pointersOf } from './roundtrip';
import { accepted, isClientError, isSuccess } from './status';
import { unless, type Check, type Judgement, type Verdict } from './check';

/** Judgements of the list (4.1, 8): paging invariants, meta.total, and what each summary carries. */

export interface ListPage {
  query: Record<string, string | number>;
  exchange: Exchange;
  ids: string[];
  total: number | undefined;
  data: Array<Record<string, unknown>>;
}

/** A list answer as a page: its data (an empty array where the body has none), their ids and meta.total. */
export function readPage(query: Record<string, string | number>, exchange: Exchange): ListPage {
  const body = exchange.json as { data?: unknown; meta?: { total?: unknown } } | undefined;
  const data = (Array.isArray(body?.data) ? body.data : []) as Array<Record<string, unknown>>;
  const total = body?.meta?.total;
  return { query, exchange, data, ids: data.map((order) => String(order.id)), total: typeof total === 'number' ? total : undefined };
}

/**
 * True when a list request was for a page past the last one meta.total implies and was answered with a
 * 4xx: what such a page answers is not shown (ORD-LIST-009), so a 4xx there is no failure.
 */
export function isPastLastPage(page: ListPage, total: number | undefined): boolean {
  if (!isClientError(page.exchange.status) || total === undefined) return false;
  const limit = Number(page.query.limit ?? contract().queryParameter('listOrders', 'limit').default);
  const number = Number(page.query.page ?? contract().queryParameter('listOrders', 'page').default);
  return Number.isInteger(number) && number > Math.max(1, Math.ceil(total / limit));
}

export function describeQuery(query: ListQuery): string {
  const parts = Object.entries(query).map(([name, value]) => `${name}=${JSON.stringify(value)}`);
  return parts.length ? parts.join(' ') : 'no page or limit';
}

// Shared verdicts.

/** A page holds `expected` orders. */
const holds = (page: ListPage, expected: number, what: string): Verdict => [
  page.data.length === expected,
  () => ({
    expected: `${what} to hold ${expected} orders (meta.total ${page.total ?? '?'}, limit ${page.query.limit ?? '(default)'})`,
    received: `${page.data.length} orders`,
    exchange: page.exchange,
  }),
  page.exchange,
];

/** A full page at `limit`: fewer only where meta.total shows the account has fewer (a page read alone: an unknown total expects a full page). */
const isFull = (page: ListPage, limit: number): Verdict =>
  holds(page, Math.max(0, Math.min(limit, page.total ?? limit)), `a page at limit ${page.query.limit ?? '(default)'}`);

/** A page answered holds at most `maximum` orders, or the request was refused. */
const holdsAtMost = (page: ListPage, maximum: number): Verdict => [
  !isSuccess(page.exchange.status) || page.data.length <= maximum,
  () => ({
    expected: `${describeQuery(page.query)}: at most ${maximum} orders (or the request refused)`,
    received: `${page.exchange.status} with ${page.data.length} orders`,
    exchange: page.exchange,
  }),
  page.exchange,
];

// ORD-LIST-001: the list answers a 2xx with the envelope (its schema is judged in body.ts).

export const listAccepted: Check = (exchange) => unless('ORD-LIST-001', ...accepted(exchange));

/** The first page of an account that holds orders shows some. */
export const listShowsOrders = (page: ListPage, accountHolds: number): Judgement | undefined =>
  unless('ORD-LIST-001', page.data.length > 0, () => ({
    expected: `data holding orders (the account has at least ${accountHolds})`,
    received: 'an empty data array',
    exchange: page.exchange,
  }), page.exchange);

// ORD-LIST-002 to ORD-LIST-005: page sizes.

export const defaultLimitHonoured = (page: ListPage, defaultLimit: number): Judgement | undefined => unless('ORD-LIST-002', ...isFull(page, defaultLimit));

/** Without page, the first page is answered: the same orders as page=1. */
export const firstPageByDefault = (implicit: ListPage, explicit: ListPage): Judgement | undefined =>
  unless('ORD-LIST-003', implicit.ids.join() === explicit.ids.join(), () => ({
    expected: `the same orders as page=${explicit.query.page}: ${explicit.ids.join(', ')}`,
    received: implicit.ids.join(', '),
    exchange: implicit.exchange,
  }), [implicit.exchange, explicit.exchange]);

export const limitHonoured = (page: ListPage, limit: number): Judgement | undefined => unless('ORD-LIST-004', ...isFull(page, limit));

/** Pages 1..k at one limit, read as one view: each full, fewer only where meta.total says the account ends (an unknown total ends it). */
export function pagesFull(pages: ListPage[], limit: number): Judgement | undefined {
  if (pages.length === 0) return undefined;
  const verdicts = pages.map((page, index) => holds(page, Math.max(0, Math.min(limit, (page.total ?? 0) - index * limit)), `page ${index + 1}`));
  // Judged page by page up to the first that is not full: the pages after it were not judged.
  const short = verdicts.findIndex(([full]) => !full);
  const judged = pages.slice(0, short === -1 ? pages.length : short + 1).map((page) => page.exchange);
  return unless('ORD-LIST-004', short === -1, () => verdicts[short][1](), judged);
}

/** An answered page holds at most the limit asked (whatever page was asked with it). */
export const atMostLimit = (page: ListPage): Judgement | undefined => unless('ORD-LIST-004', ...holdsAtMost(page, Number(page.query.limit)));

export const neverAboveMaximum = (page: ListPage): Judgement | undefined =>
  unless('ORD-LIST-005', ...holdsAtMost(page, bounds('limit').maximum as number));

// ORD-LIST-006: numbering.

/**
 * Pages 1..k at one limit hold, in turn and each once, the orders `whole` (page 1 at limit k times L) holds.
 * A `whole` short of its own limit while meta.total says there are more fails ORD-LIST-004 itself: the
 * walk is then compared with as many orders as it holds.
 */
export function pagesContinue(pages: ListPage[], whole: ListPage, limit: number): Judgement | undefined {
  const shortWhole = whole.total !== undefined && whole.ids.length < Math.min(Number(whole.query.limit), whole.total);
  const problem = repeatedAcrossPages(pages) ?? firstMisplaced(pages, whole, limit, shortWhole ? whole.ids.length : undefined);
  return unless('ORD-LIST-006', problem === undefined, () => problem as Omit<Finding, 'requirementId'>, [...pages, whole].map((page) => page.exchange));
}

function repeatedAcrossPages(pages: ListPage[]): Omit<Finding, 'requirementId'> | undefined {
  const walked = pages.flatMap((page) => page.ids);
  const repeated = walked.find((id, index) => walked.indexOf(id) !== index);
  if (repeated === undefined) return undefined;
  const on = pages.flatMap((page, index) => (page.ids.includes(repeated) ? [index] : []));
  return {
    expected: 'each order on one page only',
    received: `order ${repeated} on pages ${on.map((index) => index + 1).join(' and ')}`,
    exchange: pages[on[on.length - 1]].exchange,
  };
}

function firstMisplaced(pages: ListPage[], whole: ListPage, limit: number, compared?: number): Omit<Finding, 'requirementId'> | undefined {
  // A whole page holding more than its limit is ORD-LIST-004's and ORD-LIST-005's to judge: the walk is compared with its first `limit`.
  const wholeIds = whole.ids.slice(0, Number(whole.query.limit) || undefined);
  const walked = pages.flatMap((page) => page.ids).slice(0, compared);
  const at = walked.findIndex((id, index) => id !== wholeIds[index]);
  const position = at === -1 && wholeIds.length !== walked.length ? walked.length : at;
  if (position === -1) return undefined;
  const page = Math.min(pages.length - 1, Math.floor(position / limit));
  return {
    expected: `pages 1 to ${pages.length} at limit ${limit} to hold, in turn, the first ${wholeIds.length} orders (as page 1 at limit ${whole.query.limit} lists them)`,
    received: `position ${position + 1} (page ${page + 1}) holds ${walked[position] ?? 'nothing'} instead of ${wholeIds[position] ?? 'nothing'}`,
    exchange: pages[page].exchange,
  };
}

// ORD-LIST-007: meta.total.

/** meta.total counts at least the orders the run knows the account holds (other clients may add more). */
export const totalAtLeast = (page: ListPage, count: number, why: string): Judgement | undefined =>
  unless('ORD-LIST-007', typeof page.total === 'number' && page.total >= count, () => ({
    expected: `meta.total at least ${count}: ${why}`,
    received: `meta.total ${excerpt(page.total)}`,
    exchange: page.exchange,
  }), page.exchange);

/** Every page of one unchanged view carries the same meta.total (a page past the last answered with a 4xx carries none: ORD-LIST-009). */
export function sameTotalOnEveryPage(pages: ListPage[], total: number): Judgement | undefined {
  const other = pages.find((page) => page.total !== total && !isPastLastPage(page, total));
  return unless('ORD-LIST-007', other === undefined, () => ({
    expected: `meta.total ${total} on every page of one unchanged view`,
    received: `meta.total ${excerpt(other?.total)} on page ${other?.query.page ?? 1}`,
    exchange: other?.exchange,
  }), pages.map((page) => page.exchange));
}

/** The last page meta.total implies holds the rest of the orders. */
export function lastPageHoldsRest(lastPage: ListPage, total: number, limit: number): Judgement | undefined {
  const last = Math.max(1, Math.ceil(total / limit));
  return unless('ORD-LIST-007', ...holds(lastPage, total - (last - 1) * limit, `page ${last}, the last for meta.total ${total} at limit ${limit},`));
}

/** A page past the last one meta.total implies holds no orders, whatever it answers (ORD-LIST-009). */
export const nothingPastLastPage = (page: ListPage, total: number | undefined): Judgement | undefined =>
  unless('ORD-LIST-007', !isSuccess(page.exchange.status) || page.data.length === 0, () => ({
    expected: `no orders on page ${page.query.page}, past the last one meta.total ${total ?? '?'} implies at limit ${page.query.limit ?? '(default)'}`,
    received: `${page.exchange.status} with ${page.data.length} orders`,
    exchange: page.exchange,
  }), page.exchange);

// ORD-LIST-008: the summaries.

/** Where a list shows an order: its summary, its position in the whole list and the page that showed it. */
export interface Listed {
  summary: Record<string, unknown>;
  position: number;
  exchange: Exchange;
}

/**
 * Where a search of the list found the orders it looked for, the pages it read, and whether they were all
 * the pages of the list: a search bounded in pages proves no absence, so it gives no verdict on one.
 */
export interface ListSearch {
  found: Map<string, Listed>;
  searched: Exchange[];
  complete: boolean;
}

/** One page read as a search: whole when it is the first page and holds every order meta.total counts. */
export function searchOfPage(page: ListPage): ListSearch {
  const found = new Map(page.data.map((summary, position) => [String(summary.id), { summary, position, exchange: page.exchange }]));
  const whole = Number(page.query.page ?? 1) === 1 && typeof page.total === 'number' && page.total <= page.data.length;
  return { found, searched: [page.exchange], complete: whole };
}

/** Where the search found the order; 'unknown' where it did not and could not read the whole list. */
export function whereListed(search: ListSearch, id: string): Listed | undefined | 'unknown' {
  return search.found.get(id) ?? (search.complete ? undefined : 'unknown');
}

/** An order just created is in the list. */
export function listedAfterCreate(id: string, search: ListSearch): Judgement | undefined {
  const listed = whereListed(search, id);
  if (listed === 'unknown') return undefined;
  return unless('ORD-LIST-008', listed !== undefined, () => ({
    expected: `order ${id}, just created, in the list (its summary is what section 2.7 describes)`,
    received: `not found in the list (read all of its ${search.searched.length} page(s))`,
    exchange: search.searched[search.searched.length - 1],
  }), search.searched);
}

/**
 * The summary of an order carries the values of its full form (2.7): the full form as get answers it,
 * projected on the summary schema, compared field for field.
 */
export function summaryCarriesFullForm(id: string, fullForm: Exchange, search: ListSearch): Judgement | undefined {
  const listed = whereListed(search, id);
  if (listed === 'unknown') return undefined;
  // A get that answered another order than the one asked for is ORD-GET-001's to judge: it says nothing of the list.
  const answered = (fullForm.json as { id?: unknown } | undefined)?.id;
  if (answered !== undefined && String(answered) !== id) return undefined;
  const changed = listed ? changesBetween(project(fullForm.json, contract().schema('OrderSummary')), listed.summary) : [];
  return unless('ORD-LIST-008', listed !== undefined && changed.length === 0, () =>
    listed
      ? {
          expected: `the summary of ${id} to carry the values of its full form (the fields of 2.7; sent = full form, got = summary)`,
          received: `${changed.length} field(s) differ:\n${formatDifferences(changed)}`,
          exchange: listed.exchange,
          fieldsAtFault: pointersOf(changed).map((pointer) => `/data/${listed.position}${pointer}`),
        }
      : { expected: `order ${id} in the list`, received: `not found (read all of its ${search.searched.length} page(s))`, exchange: fullForm },
    [fullForm, ...search.searched],
  );
}

/** The summary at `position` of a page carries the values the order was sent with (the fields of 2.7). */
export function summaryCarriesWhatWasSent(what: string, sent: unknown, page: ListPage, position: number): Judgement | undefined {
  const found = differences(project(sent, contract().schema('OrderSummary')), page.data[position]);
  const atPosition = found.map((d) => ({ ...d, pointer: `/data/${position}${d.pointer}` }));
  return unless('ORD-LIST-008', found.length === 0, () => ({
    expected: `the summary of ${what} to carry the values it was sent (fields of 2.7)`,
    received: `${found.length} field(s) differ:\n${formatDifferences(atPosition)}`,
    exchange: page.exchange,
    fieldsAtFault: pointersOf(atPosition),
  }), page.exchange);
}

// ORD-LIST-010: out of range.

/** An out-of-range or non-integer page or limit, against an account fuller than the largest page: a 4xx, or a page clamped into range. */
export function outOfRangePagingAnswered(page: ListPage): Judgement | undefined {
  const maximum = bounds('limit').maximum as number;
  const clamped = isSuccess(page.exchange.status);
  return unless('ORD-LIST-010', isClientError(page.exchange.status) || (clamped && page.data.length >= 1 && page.data.length <= maximum), () => ({
    expected: `${describeQuery(page.query)}: a 4xx, or a page clamped into range holding 1 to ${maximum} orders`,
    received: clamped ? `${page.exchange.status} with ${page.data.length} orders` : `${page.exchange.status}`,
    exchange: page.exchange,
  }), page.exchange);
}

/** A page below 1 that was clamped rather than refused is page 1 (`first`: page 1 at the same limit, from an unchanged account). */
export const clampedToFirstPage = (page: ListPage, first: ListPage): Judgement | undefined =>
  unless('ORD-LIST-010', page.ids.join() === first.ids.join(), () => ({
    expected: `${describeQuery(page.query)} clamped to page ${first.query.page}: its orders ${first.ids.join(', ')} (or the request refused with a 4xx)`,
    received: `${page.exchange.status} with the orders ${page.ids.join(', ') || '(none)'}`,
    exchange: page.exchange,
  }), page.exchange);

/**
 * What any page and limit must get (4.1, 8): in range, a 2xx page of at most limit orders (or, for a page
 * past the last, a 4xx: ORD-LIST-009 leaves it open, so `accountTotal`, the account's meta.total, tells);
 * out of range or not an integer, a 4xx or a page clamped into range (ORD-LIST-010 allows both); never a 5xx.
 */
export function listAnswerInRange(query: ListQuery, exchange: Exchange, accountTotal: number | undefined): Judgement | undefined {
  const maximum = bounds('limit').maximum as number;
  const page = readPage(query as Record<string, string | number>, exchange);
  const success = isSuccess(exchange.status);
  if (isValidQuery(query)) {
    const limit = Number(query.limit ?? bounds('limit').default);
    if (!success && isPastLastPage(page, accountTotal)) return undefined;
    const verdict: Verdict = [
      success && page.data.length <= limit,
      () => ({ expected: `${describeQuery(query)} (in range): a 2xx page of at most ${limit} orders`, received: success ? `${page.data.length} orders` : `${exchange.status}`, exchange }),
      exchange,
    ];
    // Without limit the page size is the default's (ORD-LIST-002), not a limit asked for.
    return query.limit === undefined ? unless('ORD-LIST-002', ...verdict) : unless('ORD-LIST-004', ...verdict);
  }
  const clampedOrRefused = isClientError(exchange.status) || (success && page.data.length <= maximum);
  const details = () => ({
    expected: `${describeQuery(query)} (out of range or not an integer): a 4xx, or a page clamped into range (at most ${maximum} orders)`,
    received: success ? `${page.data.length} orders` : `${exchange.status}`,
    exchange,
  });
  // A page above the maximum breaks ORD-LIST-005; any other wrong answer (a 5xx) is ORD-LIST-010's.
  return success ? unless('ORD-LIST-005', clampedOrRefused, details, exchange) : unless('ORD-LIST-010', clampedOrRefused, details, exchange);
}

// ORD-LIST-011: a stable order.

/** Two identical list requests show the orders both hold in the same relative order (another client may add or remove some in between). */
export function sameOrderTwice(first: ListPage, second: ListPage): Judgement | undefined {
  const common = first.ids.filter((id) => second.ids.includes(id));
  const reordered = common.join() !== second.ids.filter((id) => first.ids.includes(id)).join();
  return unless('ORD-LIST-011', !reordered, () => ({
    expected: 'the orders of two identical list requests in the same relative order',
    received: `first: ${first.ids.slice(0, 8).join(', ')}…; then: ${second.ids.slice(0, 8).join(', ')}…`,
    exchange: second.exchange,
  }), [first.exchange, second.exchange]);
}
