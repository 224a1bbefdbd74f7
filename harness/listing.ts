import { test } from '@playwright/test';
import type { OmsApi } from './api';
import { is2xx } from '../checks/body';
import type { Exchange } from './http/exchange';
import { ensure, reached, unless, type Finding } from './findings';
import { minimalOrder } from '../generators/examples';
import { whileReading } from './quiet';
import { contract } from '../contract/openapi';
import { bounds, isValidQuery, type ListQuery } from '../generators/query';
import { project } from '../contract/projection';
import { changesBetween, formatDifferences } from '../checks/roundtrip';

export interface ListPage {
  query: Record<string, string | number>;
  exchange: Exchange;
  ids: string[];
  total: number | undefined;
  data: Array<Record<string, unknown>>;
}

/** Lists and stops the test unless the answer is a 2xx list envelope with a data array. */
export async function listPage(api: OmsApi, query: Record<string, string | number>, requirementId = 'ORD-LIST-001'): Promise<ListPage> {
  const exchange = await api.list(query);
  ensure(is2xx(requirementId)(exchange));
  return readPage(query, exchange);
}

export function readPage(query: Record<string, string | number>, exchange: Exchange): ListPage {
  const body = exchange.json as { data?: unknown; meta?: { total?: unknown } } | undefined;
  const data = (Array.isArray(body?.data) ? body.data : []) as Array<Record<string, unknown>>;
  const total = body?.meta?.total;
  return { query, exchange, data, ids: data.map((order) => String(order.id)), total: typeof total === 'number' ? total : undefined };
}

/**
 * The same list requests, answered twice in a row with identical results: a view of the account that
 * no other client changed while it was taken. A shared account may be written to at any time, so a
 * changed view is read again; undefined when every attempt changed. `stop` ends the test (or the
 * generated run) on a list request that did not succeed.
 */
export async function readStableView(
  api: OmsApi,
  queries: Array<Record<string, string | number>>,
  { attempts = 6, stop = ensure }: { attempts?: number; stop?: (finding: Finding | undefined) => void } = {},
): Promise<ListPage[] | undefined> {
  return whileReading(async () => {
    let previous: ListPage[] | undefined;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const pages: ListPage[] = [];
      for (const query of queries) pages.push(readPage(query, await api.list(query)));
      // A page past the last may answer a 4xx (ORD-LIST-009: not shown); any other list request must succeed.
      const total = pages.find((page) => page.total !== undefined)?.total;
      for (const page of pages) if (!isPastLastPage(page, total)) stop(is2xx('ORD-LIST-001')(page.exchange));
      if (previous && sameView(previous, pages)) return pages;
      previous = pages;
    }
    return undefined;
  });
}

/**
 * True when a list request was for a page past the last one meta.total implies and was answered with a
 * 4xx: what such a page answers is not shown (ORD-LIST-009), so a 4xx there is no failure.
 */
export function isPastLastPage(page: ListPage, total: number | undefined): boolean {
  const status = page.exchange.status;
  if (status < 400 || status >= 500 || total === undefined) return false;
  const limit = Number(page.query.limit ?? contract().queryParameter('listOrders', 'limit').default);
  const number = Number(page.query.page ?? contract().queryParameter('listOrders', 'page').default);
  return Number.isInteger(number) && number > Math.max(1, Math.ceil(total / limit));
}

/** A stable view, or the test skipped with the reason (never failed) when the account never held still. */
export async function stableView(api: OmsApi, queries: Array<Record<string, string | number>>): Promise<ListPage[]> {
  const view = await readStableView(api, queries);
  if (view) return view;
  test.info().skip(true, 'the account changed during every attempt to read it (another client writing?): no stable view to check');
  throw new Error('unreachable');
}

/** A page holds `expected` orders. */
export function pageHolds(page: ListPage, expected: number, requirementId: string, what: string): Finding | undefined {
  return unless(requirementId, page.data.length === expected, () => ({
    expected: `${what} to hold ${expected} orders (meta.total ${page.total ?? '?'}, limit ${page.query.limit ?? '(default)'})`,
    received: `${page.data.length} orders`,
    exchange: page.exchange,
  }));
}

/** Pages 1..k at one limit hold, in turn and each once, the orders `whole` (page 1 at limit k times L) holds (ORD-LIST-006). */
export function pagesContinue(pages: ListPage[], whole: ListPage, limit: number): Finding | undefined {
  reached('ORD-LIST-006');
  const walked = pages.flatMap((page) => page.ids);
  const repeated = walked.find((id, index) => walked.indexOf(id) !== index);
  if (repeated !== undefined) {
    const on = pages.flatMap((page, index) => (page.ids.includes(repeated) ? [index] : []));
    return {
      requirementId: 'ORD-LIST-006',
      expected: 'each order on one page only',
      received: `order ${repeated} on pages ${on.map((index) => index + 1).join(' and ')}`,
      exchange: pages[on[on.length - 1]].exchange,
    };
  }
  const at = walked.findIndex((id, index) => id !== whole.ids[index]);
  const position = at === -1 && whole.ids.length !== walked.length ? walked.length : at;
  if (position === -1) return undefined;
  const page = Math.min(pages.length - 1, Math.floor(position / limit));
  return {
    requirementId: 'ORD-LIST-006',
    expected: `pages 1 to ${pages.length} at limit ${limit} to hold, in turn, the first ${whole.ids.length} orders (as page 1 at limit ${whole.query.limit} lists them)`,
    received: `position ${position + 1} (page ${page + 1}) holds ${walked[position] ?? 'nothing'} instead of ${whole.ids[position] ?? 'nothing'}`,
    exchange: pages[page].exchange,
  };
}

function sameView(a: ListPage[], b: ListPage[]): boolean {
  return a.every((page, i) => page.total === b[i].total && page.ids.join('\n') === b[i].ids.join('\n'));
}

/** Makes sure the account holds at least `count` orders, creating (and so owning and later deleting) the missing ones. */
export async function ensureOrders(api: OmsApi, count: number): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const { total } = await listPage(api, { limit: 1 });
    const missing = count - (total ?? 0);
    if (missing <= 0) return;
    for (let start = 0; start < missing; start += 10) {
      const batch = Array.from({ length: Math.min(10, missing - start) }, () => api.create(minimalOrder()));
      for (const exchange of await Promise.all(batch)) ensure(is2xx('ORD-CREATE-002')(exchange));
    }
  }
}

/**
 * Finds orders in the list of an account that may hold many others: the first and the last pages at
 * limit 100 (where the newest orders are, whichever the order direction), then a bounded walk.
 */
export async function findInList(api: OmsApi, ids: string[], maxPages = 20): Promise<Map<string, { summary: Record<string, unknown>; position: number; exchange: Exchange }>> {
  const found = new Map<string, { summary: Record<string, unknown>; position: number; exchange: Exchange }>();
  const limit = 100;
  const visit = (page: ListPage, pageNumber: number) =>
    page.data.forEach((summary, index) => {
      const id = String(summary.id);
      if (ids.includes(id) && !found.has(id)) found.set(id, { summary, position: (pageNumber - 1) * limit + index, exchange: page.exchange });
    });
  const first = await listPage(api, { page: 1, limit });
  visit(first, 1);
  const lastPage = Math.max(1, Math.ceil((first.total ?? 0) / limit));
  const order = [lastPage, lastPage - 1, ...Array.from({ length: maxPages }, (_, i) => i + 2)];
  for (const pageNumber of [...new Set(order)].filter((p) => p > 1 && p <= lastPage + 1)) {
    if (found.size === ids.length) break;
    // The page after the last (there in case the account grew meanwhile) may answer a 4xx (ORD-LIST-009).
    const page = readPage({ page: pageNumber, limit }, await api.list({ page: pageNumber, limit }));
    if (pageNumber > lastPage && isPastLastPage(page, first.total)) continue;
    ensure(is2xx('ORD-LIST-001')(page.exchange));
    visit(page, pageNumber);
  }
  return found;
}

/**
 * The summary of an order in the list carries the values of its full form (2.7, ORD-LIST-008):
 * the full form as get answers it, projected on the summary schema, compared field for field.
 */
export async function summaryMatchesFullForm(
  api: OmsApi,
  id: string,
  stop: (finding: Finding | undefined) => void = ensure,
): Promise<Finding | undefined> {
  const got = await api.get(id);
  stop(is2xx('ORD-GET-001')(got));
  const found = (await findInList(api, [id])).get(id);
  if (!found) {
    return {
      requirementId: 'ORD-LIST-008',
      expected: `order ${id} in the list (searched the first, last and up to 20 further pages at limit 100)`,
      received: 'not found',
      exchange: got,
    };
  }
  const changed = changesBetween(project(got.json, contract().schema('OrderSummary')), found.summary);
  return unless('ORD-LIST-008', changed.length === 0, () => ({
    expected: `the summary of ${id} to carry the values of its full form (the fields of 2.7; sent = full form, got = summary)`,
    received: `${changed.length} field(s) differ:\n${formatDifferences(changed)}`,
    exchange: found.exchange,
  }));
}

/**
 * What any page and limit must get (4.1, 8): in range, a 2xx page of at most limit orders (or, for a page
 * past the last, a 4xx: ORD-LIST-009 leaves it open, so `api` counts the account to tell); out of range or
 * not an integer, a 4xx or a page clamped into range (ORD-LIST-010 allows both); never a 5xx.
 */
export async function listAnswerHolds(api: OmsApi, query: ListQuery, exchange: Exchange): Promise<Finding | undefined> {
  const maximum = bounds('limit').maximum as number;
  const page = readPage(query as Record<string, string | number>, exchange);
  const success = exchange.status >= 200 && exchange.status < 300;
  if (isValidQuery(query)) {
    const limit = Number(query.limit ?? bounds('limit').default);
    if (!success && isPastLastPage(page, readPage({ limit }, await api.list({ limit })).total)) return undefined;
    return unless('ORD-LIST-004', success && page.data.length <= limit, () => ({
      expected: `${describeQuery(query)} (in range): a 2xx page of at most ${limit} orders`,
      received: success ? `${page.data.length} orders` : `${exchange.status}`,
      exchange,
    }));
  }
  return unless(success ? 'ORD-LIST-005' : 'ORD-LIST-010', (exchange.status >= 400 && exchange.status < 500) || (success && page.data.length <= maximum), () => ({
    expected: `${describeQuery(query)} (out of range or not an integer): a 4xx, or a page clamped into range (at most ${maximum} orders)`,
    received: success ? `${page.data.length} orders` : `${exchange.status}`,
    exchange,
  }));
}

export function describeQuery(query: ListQuery): string {
  const parts = Object.entries(query).map(([name, value]) => `${name}=${JSON.stringify(value)}`);
  return parts.length ? parts.join(' ') : 'no page or limit';
}
