import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { OperationId } from '../../contract/openapi';
import { operationOf, requestLine, type RequestLine } from '../../contract/operations';
import { idIsOnePathSegment } from '../../checks/orders';
import type { RequestSpec } from '../http/client';
import type { Exchange } from '../../contract/exchange';
import type { AccountName } from '../../config/settings';
import { ensure } from '../record/findings';
import { judgeResponse } from '../record/checked';
import type { Outgoing, Sender } from '../http/stage';
import type { CreatedOrders } from './created-orders';
import { orderRequestLine } from '../../contract/order-path';
import type { SentPathId } from '../../checks/readings';
import { readPage } from '../../checks/listing';
import { isSuccess } from '../../checks/status';
import { bounds } from '../../contract/query';
import { readLedger, runLedger } from '../http/ledger';
import { atOnce, together } from './together';
import { refuseInReadOnly } from './read-only';
import { mustRunApart } from '../record/verifies';
import { idExtensions, reachesNoOrder } from '../../generators/order-id';

/** An id no order has, to send get, update and delete to. */
export interface UnknownId {
  id: string;
  /** Of the form of the ids the service assigns (answered 404 or 410), or of another (any 4xx too: ORD-OBS-018). */
  ownForm: boolean;
  /** Made from an order's id (generators/order-id.ts): judged by its readings, and written to only where none reaches that order. */
  madeFrom?: SentPathId;
}

export interface ApiOptions {
  /** OMS_READ_ONLY: a test that needs a write is skipped instead. */
  readOnly: boolean;
  /** OMS_LIST_SETTLE_MS: how long a write may take to show in the list (harness/requests/listing.ts judgedWhenSettled). */
  listSettleMs: number;
}

/**
 * The order operations of one account, as tests use them. Every request goes out through the account's
 * request pipeline (harness/requests/pipeline.ts): read-only and ownership guards (only orders this run created
 * can be changed or deleted: a shared account's other orders are never touched), the ledger, the rate gate,
 * and on the way back the checks every response gets.
 */
export class OmsApi {
  constructor(
    readonly account: AccountName,
    /** The account's request pipeline; its transport, for what only a client knows (the bearer token, the base URL). */
    private readonly pipeline: Sender,
    readonly client: { readonly baseUrl: string; bearerToken(): Promise<string> },
    private readonly created: CreatedOrders,
    private readonly options: ApiOptions,
    /** Told of every exchange this api completes (the requests of a generated run, for its counterexample). */
    private readonly onExchange?: (exchange: Exchange) => void,
  ) {}

  /** The same account and guards, every exchange it completes also handed to `onExchange` (and another list settle time, if given). */
  recording(onExchange: (exchange: Exchange) => void, listSettleMs = this.options.listSettleMs): OmsApi {
    return new OmsApi(this.account, this.pipeline, this.client, this.created, { ...this.options, listSettleMs }, onExchange);
  }

  list(query: Record<string, string | number> = {}): Promise<Exchange> {
    return this.send({ ...requestLine('listOrders'), query });
  }

  create(body: unknown): Promise<Exchange> {
    return this.send({ ...requestLine('createOrder'), json: body });
  }

  get(id: string): Promise<Exchange> {
    return this.send(orderRequest('getOrder', id));
  }

  update(id: string, body: unknown): Promise<Exchange> {
    return this.send({ ...orderRequest('updateOrder', id), json: body });
  }

  delete(id: string): Promise<Exchange> {
    return this.send(orderRequest('deleteOrder', id));
  }

  /** Any request, for the cases the operations above cannot make (broken auth, malformed bodies); `outside` names where a request outside any test is made. */
  async send(spec: RequestSpec, outside?: string): Promise<Exchange> {
    return await this.pipeline.send(this.outgoing(spec, outside));
  }

  /**
   * Requests of methods the interface does not define to the collection itself (PUT, PATCH, DELETE /orders), which a
   * faulty server may apply to every order of the account: sent side by side only while a list read whole just before
   * shows nothing but orders this run created (any worker's: the run's ledger), as on a fresh preview or the embedded
   * server; otherwise held back, and why. A shared account's orders are never put at risk. Never in read-only mode.
   * Other tests' creates are held back meanwhile, so no create of the run still in flight looks like another's order.
   */
  async sendToCollection(specs: RequestSpec[]): Promise<{ sent: Exchange[] } | { heldBack: string }> {
    if (this.readOnly) refuseInReadOnly('send methods the interface does not define to /orders');
    if (specs.some((spec) => spec.path.split('?')[0] !== '/orders' || spec.method === 'GET' || spec.method === 'POST')) throw new Error('sendToCollection sends PUT, PATCH and DELETE to /orders only');
    return this.withoutOtherCreates(async () => {
      const others = await this.ordersOfOthers();
      if (others) return { heldBack: others };
      // The ownership stage lets them through: the collection was seen to hold this run's orders alone.
      return { sent: await together(specs.map((spec) => this.pipeline.send({ ...this.outgoing(spec), collectionClearedByList: true }))) };
    });
  }

  /**
   * Why the account may hold an order this run did not create, or undefined when it holds none: the list read whole
   * (its first page counts the pages, which are then read again all in flight at once, so no write falls between
   * them), each order it shows one the run's ledger records as created in this account, and as many shown as
   * meta.total counts (a list that changed while it was read may have hidden one).
   */
  private async ordersOfOthers(): Promise<string | undefined> {
    // A delete of another test may fall between the pages: the list is read again, a few times at most.
    for (let read = 1; ; read++) {
      const why = await this.ordersOfOthersInOneRead();
      if (why !== CHANGED_WHILE_READ || read === COLLECTION_READS) return why === CHANGED_WHILE_READ ? `the list changed each of the ${COLLECTION_READS} times it was read` : why;
    }
  }

  private async ordersOfOthersInOneRead(): Promise<string | undefined> {
    const limit = bounds('limit').maximum as number;
    const first = readPage({ page: 1, limit }, await this.list({ page: 1, limit }));
    if (!isSuccess(first.exchange.status) || first.total === undefined) return `the list answered ${first.exchange.status}${first.total === undefined ? ' without meta.total' : ''}`;
    const count = Math.ceil(first.total / limit);
    if (count > COLLECTION_CHECK_PAGES) return `the account holds ${first.total} orders, more than this run reads to tell whose they are`;
    const pages =
      count <= 1 ? [first] : (await atOnce(() => Array.from({ length: count }, (_, index) => this.list({ page: index + 1, limit })))).map((exchange, index) => readPage({ page: index + 1, limit }, exchange));
    if (pages.some((page) => !isSuccess(page.exchange.status))) return 'a page of the list was refused';
    const shown = new Set(pages.flatMap(({ ids }) => ids));
    const total = pages[0].total ?? first.total;
    if (shown.size < total || pages.some((page) => page.total !== total)) return CHANGED_WHILE_READ;
    const ours = this.createdByThisRun();
    const others = [...shown].filter((id) => !ours.has(id)).length;
    return others > 0 ? `the account holds ${others} order(s) this run did not create` : undefined;
  }

  /** The ids of the orders the run's ledger records as created in this account, by any worker (deleted since or not). */
  private createdByThisRun(): Set<string> {
    const ledger = runLedger();
    const entries = existsSync(ledger.file) ? readLedger(ledger.file) : [];
    return new Set(entries.filter(({ event, account }) => event === 'created' && account === this.account).map(({ orderId }) => orderId));
  }

  /** A request as it enters the pipeline. */
  private outgoing(spec: RequestSpec, outside?: string): Outgoing {
    return { spec, account: this.account, operation: operationOf(spec.method, spec.path), orderId: orderIdOf(spec.path), onExchange: this.onExchange, outside };
  }

  /**
   * An exchange of this run sent by other means than this api (POST /token by the token helper), held in the current
   * test to what every response must be, as if sent here: no answer of a run escapes the general checks.
   */
  judge(exchange: Exchange): Exchange {
    return judgeResponse(exchange);
  }

  /** Runs `hold` with every create of the worker's other tests held back until it ends (CreatedOrders.withoutOtherCreates). */
  withoutOtherCreates<T>(hold: () => Promise<T>): Promise<T> {
    mustRunApart('creates and writes no other test\'s create may come between', 'no-other-creates');
    return this.created.withoutOtherCreates(hold);
  }

  /** OMS_READ_ONLY: every request that could change something is refused (the test skipped with the reason). */
  get readOnly(): boolean {
    return this.options.readOnly;
  }

  /** How long a write may take to show in the list (OMS_LIST_SETTLE_MS). */
  get listSettleMs(): number {
    return this.options.listSettleMs;
  }

  /** How many orders this account holds that this worker created and has not deleted. */
  ownOrderCount(): number {
    return new Set(this.created.remaining().flatMap(([id, owner]) => (owner === this.account ? [id] : []))).size;
  }

  /** An id no order has, remembered so update and delete may be sent to it. */
  unknownId(): string {
    const id = `oms-conformance-missing-${randomUUID()}`;
    this.created.allowMissing(id);
    return id;
  }

  /**
   * Ids no order has, in two forms: one of the form of `sample` (an id the service assigned), which
   * any server looks up, and one of another form, which a server that checks ids may refuse with 400
   * (ORD-OBS-018). A sample with path characters gives a lookalike without them, which is then of another
   * form too (lookalikeId). And the ids made from the sample (generators/order-id.ts: 12abc, 12-x … of 12), each
   * with its readings; none carries path characters (PATH_SIGNIFICANT), which a server that decodes the segment
   * could read as another path (such a sample, never a number, gets none). Each is remembered so update and delete
   * may be sent to it, but for a made one that a correct server may read as the sample itself (a trailing space), or
   * one made from an order this run did not create: a write to it may reach that order.
   */
  unknownIds(sample: string | undefined): UnknownId[] {
    const ids: UnknownId[] = [{ id: this.unknownId(), ownForm: false }];
    if (sample !== undefined) {
      const lookalike = lookalikeId(sample);
      this.created.allowMissing(lookalike.id);
      ids.push({ id: lookalike.id, ownForm: lookalike.sameForm });
      for (const made of idExtensions(sample).filter(({ id }) => id.search(PATH_SIGNIFICANT) === -1)) {
        if (reachesNoOrder(made) && this.created.ownerOf(sample) === this.account) this.created.allowMissing(made.id);
        ids.push({ id: made.id, ownForm: false, madeFrom: made });
      }
    }
    return ids;
  }

  /** An order this account created and deleted, which a test may now update or delete again (CreatedOrders.allowAfterDelete). */
  allowAfterDelete(id: string): void {
    this.created.allowAfterDelete(id);
  }

  /** An order of this run that a write after its delete brought back: the cleanup deletes it again. */
  reclaim(id: string): void {
    this.created.reclaim(id, this.account);
  }

  /**
   * Ids no order has that a naive server mishandles: letters outside ASCII, an emoji, a percent sign (which a
   * server that decodes the path twice cannot decode). Each is remembered so update and delete may be sent to it.
   */
  unknownIdsOutsideAscii(): string[] {
    const suffix = randomUUID().slice(0, 8);
    const ids = [`Zoë-Ünïcödé-${suffix}`, `🦄🍵-${suffix}`, `100%-${suffix}`];
    for (const id of ids) this.created.allowMissing(id);
    return ids;
  }
}

/**
 * Characters a path gives a meaning once a server decodes the segment: separators (/, \\), a parameter (;), an
 * escape (%), a query or a fragment (?, #). A dot counts only where it is not between two letters or digits
 * (".." and "." as segments, ".\\" before a separator): "v1.2" keeps its dot.
 */
const PATH_SIGNIFICANT = /[/\\;%?#]|(?<![\p{L}\p{N}])\.|\.(?![\p{L}\p{N}])/gu;

/**
 * An id of the same form as `sample` that no order has: a number far past it, or the same text with its
 * last six letters and digits redrawn within their kind (digit, hex digit, lower or upper case letter).
 * A small number becomes the largest 32-bit integer: still an id a server with an int column can look up
 * (a number past that range may be refused as malformed, which is not "not found").
 * Path characters of the sample (PATH_SIGNIFICANT) are never carried over: each becomes "-", so a server
 * that decodes and normalises the segment cannot read the made-up id as another path. The id keeps the
 * sample's length but not its form then (`sameForm` false): a server that checks its form may refuse it.
 */
export function lookalikeId(sample: string): { id: string; sameForm: boolean } {
  if (/^\d{1,15}$/.test(sample)) return { id: String(Number(sample) < 1_000_000_000 ? 2_147_483_647 : Number(sample) + 987_654_321_000), sameForm: true };
  const safe = sample.replace(PATH_SIGNIFICANT, '-');
  const chars = [...safe];
  let changed = 0;
  const random = randomUUID().replace(/-/g, '');
  for (let index = chars.length - 1; index >= 0 && changed < 6; index--) {
    const char = chars[index];
    const pick = parseInt(random[changed * 2] + random[changed * 2 + 1], 16);
    const pool = /\d/.test(char) ? '0123456789' : /[a-f]/.test(char) ? 'abcdef' : /[A-F]/.test(char) ? 'ABCDEF' : /[a-z]/.test(char) ? 'abcdefghijklmnopqrstuvwxyz' : /[A-Z]/.test(char) ? 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' : '';
    if (!pool) continue;
    chars[index] = pool[(pool.indexOf(char) + 1 + (pick % (pool.length - 1))) % pool.length];
    changed++;
  }
  return { id: chars.join(''), sameForm: safe === sample };
}

/**
 * The one way an order id goes into a request: percent-encoded as one segment. An id that cannot be one
 * ("", ".", "..", or one with "/") stops the test with a finding against the server, before any request:
 * URL parsing would resolve it to another resource (".." of /orders/.. is GET /).
 */
export function orderRequest(operationId: OperationId, id: string): RequestLine {
  // A guard, not a judgement: a test takes an id only from an answer it has checked (harness/requests/orders.ts createOrder).
  if (typeof id !== 'string') throw new Error(`no order id to send ${operationId} to (got ${String(id)}): the request was not sent`);
  ensure(idIsOnePathSegment(id));
  return orderRequestLine(operationId, id);
}

/** The path of an order (as getOrder addresses it), for requests no operation of the interface makes: PATCH, POST. */
export function orderPath(id: string): string {
  return orderRequest('getOrder', id).path;
}

export type { OperationId };

/** How many pages of 100 orders the suite reads to tell that an account holds only its own, before it sends a method the interface does not define to the collection. */
const COLLECTION_CHECK_PAGES = 10;
/** How many times the list is read whole for the collection probes while it changes as it is read. */
const COLLECTION_READS = 3;
const CHANGED_WHILE_READ = 'the list changed while it was read';

/** The order id of a path /orders/{id} (decoded), or "" for /orders. */
function orderIdOf(path: string): string {
  return decodeURIComponent(path.split('/')[2] ?? '');
}

export { readOnlyOff } from './read-only';
