import { test } from '@playwright/test';
import type { OmsApi } from './api';
import { is2xx } from './checks';
import type { Exchange } from './exchange';
import { ensure } from './findings';
import { minimalOrder } from './payloads';

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
 * changed view is retried, and after the last attempt the test is skipped with the reason, never failed.
 */
export async function stableView(api: OmsApi, queries: Array<Record<string, string | number>>, attempts = 6): Promise<ListPage[]> {
  let previous: ListPage[] | undefined;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const pages: ListPage[] = [];
    for (const query of queries) pages.push(await listPage(api, query));
    if (previous && sameView(previous, pages)) return pages;
    previous = pages;
  }
  test.info().skip(true, `the account changed during each of ${attempts} attempts to read it (another client writing?): no stable view to check`);
  throw new Error('unreachable');
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
    visit(await listPage(api, { page: pageNumber, limit }), pageNumber);
  }
  return found;
}
