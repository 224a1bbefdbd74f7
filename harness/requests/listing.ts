import { setTimeout as sleep } from 'node:timers/promises';
import { readOnlyOff, type OmsApi } from './api';
import { skipTest } from '../record/skips';
import { settingName } from '../../config/settings';
import { isPastLastPage, listAccepted, listAnswerInRange, readPage, summaryCarriesFullForm, type Listed, type ListPage, type ListSearch } from '../../checks/listing';
import { getAccepted, requiredOnlyCreateAccepted } from '../../checks/orders';
import { isSuccess } from '../../checks/status';
import type { Exchange } from '../../contract/exchange';
import { ensure, judged } from '../record/findings';
import type { Judgement, Judgements } from '../../checks/check';
import { minimalOrder } from '../../contract/examples';
import { mustRunApart } from '../record/verifies';
import { untilNothingWrites } from '../schedule/scheduler';
import { bounds, isValidQuery, type ListQuery } from '../../contract/query';
import { atOnce, together } from './together';

/** Lists and stops the test unless the answer is a 2xx. */
export async function listPage(api: OmsApi, query: Record<string, string | number>): Promise<ListPage> {
  const exchange = await api.list(query);
  ensure(listAccepted(exchange));
  return readPage(query, exchange);
}

/** The first wait before a list is read again for a write it does not show yet; each wait doubles, up to the last. */
const SETTLE_FIRST_WAIT_MS = 100;
const SETTLE_LAST_WAIT_MS = 1_000;

/** After a view changed, it is read again at once this many times, then after a short wait that grows: a client writing every 200 ms leaves gaps that two reads fit in. */
const REREADS_AT_ONCE = 3;
const REREAD_FIRST_WAIT_MS = 25;
const REREAD_LAST_WAIT_MS = 100;

/**
 * The same list requests, answered twice in a row with identical results: a view of the account that
 * no other client changed while it was taken (no write of this run can: the test runs while nothing of the run
 * writes, config/phases.ts). Every page of a view is in flight at once (atOnce). A shared account may be written
 * to at any time, so a changed view is read again, at once a few times, then after a short wait that grows
 * (a client writing now and then leaves gaps that two reads fit in; a list that lags behind writes goes on
 * changing a while after the writes stopped), `attempts` times and for as long as OMS_LIST_SETTLE_MS lasts;
 * undefined when every read changed. `stop` ends the test (or the generated run) on a list request that did
 * not succeed.
 */
export async function readStableView(
  api: OmsApi,
  queries: Array<Record<string, string | number>>,
  { attempts = 10, stop = ensure }: { attempts?: number; stop?: (judgement: Judgement | undefined) => void } = {},
): Promise<ListPage[] | undefined> {
  mustRunApart('a list view read twice for a stable account', 'quiet');
  // What the test wrote first went out beside the other tests; its views wait until nothing of the run writes.
  await untilNothingWrites();
  const until = Date.now() + api.listSettleMs;
  let previous: ListPage[] | undefined;
  let changes = 0;
  for (let attempt = 0, wait = REREAD_FIRST_WAIT_MS; attempt < attempts || Date.now() < until; attempt++) {
    // Only after the view changed a few times: a view that holds still is read twice back to back.
    if (changes > REREADS_AT_ONCE) {
      await sleep(wait);
      wait = Math.min(2 * wait, REREAD_LAST_WAIT_MS);
    }
    const exchanges = await atOnce(() => queries.map((query) => api.list(query)));
    const pages = exchanges.map((exchange, index) => readPage(queries[index], exchange));
    // A page past the last may answer a 4xx (ORD-LIST-009: not shown); any other list request must succeed.
    const total = pages.find((page) => page.total !== undefined)?.total;
    for (const page of pages) if (!isPastLastPage(page, total)) stop(listAccepted(page.exchange));
    if (previous && sameView(previous, pages)) return pages;
    if (previous) changes++;
    previous = pages;
  }
  return undefined;
}

/** A stable view, or the test skipped with the reason (never failed) when the account never held still. */
export async function stableView(api: OmsApi, queries: Array<Record<string, string | number>>): Promise<ListPage[]> {
  const view = await readStableView(api, queries);
  if (view) return view;
  // The server, or another client of the account, left the check without evidence: it counts against the verdict.
  return skipTest({ kind: 'server', reason: 'the account changed during every attempt to read it (another client writing?): no stable view to check' });
}

function sameView(a: ListPage[], b: ListPage[]): boolean {
  return a.every((page, i) => page.total === b[i].total && page.ids.join('\n') === b[i].ids.join('\n'));
}

/** Clients (one per worker and account) whose list has shown, or failed to show within the settle time, what ensureOrders made. */
const listCaughtUp = new WeakSet<object>();

/**
 * Makes sure the account holds at least `count` orders, creating (and so owning and later deleting) the
 * missing ones, and that the list shows them: a list that lags behind writes is given the settle time
 * (OMS_LIST_SETTLE_MS) to count them, once per worker, so later views of the account are of a list that caught up.
 */
export async function ensureOrders(api: OmsApi, count: number): Promise<void> {
  // One at a time per account: tests running side by side would each make the orders missing, and a view read
  // while another test makes them would see writes. The others wait for the one making them, then count again.
  for (let pending = ensuring.get(api.client); pending; pending = ensuring.get(api.client)) await pending.catch(() => undefined);
  // Orders this worker created and still holds are there whatever anyone else did: no need to count.
  if (api.ownOrderCount() >= count && listCaughtUp.has(api.client)) return;
  const making = madeAndShown(api, count);
  ensuring.set(api.client, making);
  try {
    await making;
  } finally {
    ensuring.delete(api.client);
  }
}

/** The ensureOrders of each account under way. */
const ensuring = new WeakMap<object, Promise<void>>();

/** The orders missing made, and the list given the settle time to count them. */
async function madeAndShown(api: OmsApi, count: number): Promise<void> {
  for (let round = 0; round < 3 && api.ownOrderCount() < count; round++) {
    const { total } = await listPage(api, { limit: 1 });
    // Bounded by what this worker already created: a meta.total that stays low (a fault) costs `count` orders, not more.
    const missing = Math.min(count - (total ?? 0), count - api.ownOrderCount());
    if (missing <= 0) break;
    if (api.readOnly) skipTest({ kind: 'configuration', reason: `read-only mode (${settingName('readOnly')}): this check needs an account holding at least ${count} orders, and it holds ${total ?? 0}`, settings: [readOnlyOff()] });
    // All at once: the worker's gate bounds how many are in flight, and none waits for another's answer.
    for (const exchange of await together(Array.from({ length: missing }, () => api.create(minimalOrder())))) ensure(requiredOnlyCreateAccepted(exchange));
  }
  if (listCaughtUp.has(api.client)) return;
  await readUntilShown(api, () => listPage(api, { limit: 1 }), (page) => ((page.total ?? 0) >= count ? undefined : `meta.total of ${count} orders or more (it counts ${page.total ?? 'none'})`));
  listCaughtUp.add(api.client);
}

/** Pages of a search read side by side: the newest orders are on the first or the last pages, so a few usually suffice. */
const PAGES_AT_ONCE = 4;

/**
 * Finds orders in the list of an account that may hold many others: the first and the last pages at
 * limit 100 (where the newest orders are, whichever the order direction), then a bounded walk.
 */
export async function findInList(api: OmsApi, ids: string[], maxPages = 20): Promise<ListSearch> {
  const found = new Map<string, Listed>();
  const searched: Exchange[] = [];
  const read = new Set<number>([1]);
  const limit = 100;
  const visit = (page: ListPage, pageNumber: number) => {
    searched.push(page.exchange);
    page.data.forEach((summary, index) => {
      const id = String(summary.id);
      if (ids.includes(id) && !found.has(id)) found.set(id, { summary, position: (pageNumber - 1) * limit + index, exchange: page.exchange });
    });
  };
  const first = await listPage(api, { page: 1, limit });
  visit(first, 1);
  const lastPage = Math.max(1, Math.ceil((first.total ?? 0) / limit));
  const order = [lastPage, lastPage - 1, ...Array.from({ length: maxPages }, (_, i) => i + 2)];
  const toRead = [...new Set(order)].filter((p) => p > 1 && p <= lastPage + 1);
  // A few pages at a time, in the order above (the newest orders first), until every id is found.
  for (let start = 0; start < toRead.length && found.size < ids.length; start += PAGES_AT_ONCE) {
    const batch = toRead.slice(start, start + PAGES_AT_ONCE);
    const exchanges = await together(batch.map((pageNumber) => api.list({ page: pageNumber, limit })));
    batch.forEach((pageNumber, index) => {
      // The page after the last (there in case the account grew meanwhile) may answer a 4xx (ORD-LIST-009).
      const page = readPage({ page: pageNumber, limit }, exchanges[index]);
      if (pageNumber > lastPage && isPastLastPage(page, first.total)) return;
      ensure(listAccepted(page.exchange));
      visit(page, pageNumber);
      read.add(pageNumber);
    });
  }
  const complete = Array.from({ length: lastPage }, (_, i) => i + 1).every((pageNumber) => read.has(pageNumber));
  return { found, searched, complete };
}

/**
 * A judgement of the list against a write it must show (an order created, updated or deleted), read again
 * while the judgement finds a violation and OMS_LIST_SETTLE_MS lasts: a list served from an index or a
 * replica shows writes late, and the document says nothing of list consistency (ORD-OBS-027). The last
 * read's judgement stands, so a write never shown within the time is still a violation. Only a list that
 * lags is read more than once: a list that shows the write at once is judged on its first read.
 */
export async function judgedWhenSettled<T, J extends Judgement | Judgements | undefined>(api: OmsApi, read: () => Promise<T>, judge: (value: T) => J): Promise<J> {
  // Every read is judged and its judgements recorded (reached, checked on); only the last read's violation stands.
  const violation = (value: T) => {
    const finding = judged(judge(value));
    return finding && `${finding.expected} (${finding.requirementId})`;
  };
  return judge(await readUntilShown(api, read, violation));
}

/**
 * Reads while `missing` names what the read does not show yet and OMS_LIST_SETTLE_MS lasts, waiting longer
 * each time; the last read. A wait is said as it starts (for how long, and what the list does not show yet)
 * and as it ends, on stderr, which the reporter passes on: a run slowed by a lagging list says why.
 */
export async function readUntilShown<T>(api: OmsApi, read: () => Promise<T>, missing: (value: T) => string | undefined): Promise<T> {
  const started = Date.now();
  const until = started + api.listSettleMs;
  let waitingFor: string | undefined;
  for (let wait = SETTLE_FIRST_WAIT_MS; ; wait = Math.min(2 * wait, SETTLE_LAST_WAIT_MS)) {
    const value = await read();
    const lacking = missing(value);
    if (lacking === undefined || Date.now() + wait > until) {
      const after = seconds(Date.now() - started);
      if (waitingFor !== undefined) console.warn(`oms-conformance: ${lacking === undefined ? `the list settled after ${after}: it shows ${waitingFor}` : `the list still does not show ${lacking} after ${after}: judged on that read`}`);
      return value;
    }
    if (waitingFor === undefined) {
      waitingFor = lacking;
      console.warn(`oms-conformance: waiting up to ${seconds(api.listSettleMs)} (${settingName('listSettleMs')}) for the list to settle, as a list served from an index or a replica may lag behind writes; not shown yet: ${lacking}`);
    }
    await sleep(wait);
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The summary of an order in the list carries the values of its full form (ORD-LIST-008): gets the order, finds it in the list, compares. */
export async function summaryMatchesFullForm(
  api: OmsApi,
  id: string,
  stop: (judgement: Judgement | undefined) => void = ensure,
): Promise<Judgement | undefined> {
  const got = await api.get(id);
  stop(getAccepted(got));
  return judgedWhenSettled(api, () => findInList(api, [id]), (search) => summaryCarriesFullForm(id, got, search));
}

/**
 * What any page and limit must get (checks/listing.ts listAnswerInRange); a failed answer to an in-range
 * query may be for a page past the last, so the account is counted to tell.
 */
export async function listAnswerHolds(api: OmsApi, query: ListQuery, exchange: Exchange): Promise<Judgement | undefined> {
  if (!isValidQuery(query) || isSuccess(exchange.status)) return listAnswerInRange(query, exchange, undefined);
  const limit = Number(query.limit ?? bounds('limit').default);
  return listAnswerInRange(query, exchange, readPage({ limit }, await api.list({ limit })).total);
}
