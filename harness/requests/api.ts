import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { test } from '@playwright/test';
import type { OperationId } from '../../contract/openapi';
import { operationOf, requestLine, type RequestLine } from '../../contract/operations';
import { recordCheckedOn } from '../record/checked-on';
import { responseChecks, responseRequirements } from '../../checks/body';
import { idIsOnePathSegment } from '../../checks/orders';
import { InconclusiveError, RateLimitedError, type OmsClient, type RequestSpec } from '../http/client';
import type { Exchange } from '../../contract/exchange';
import { skipTest } from '../record/skips';
import { settingName, type AccountName } from '../../config/settings';
import { check, ensure } from '../record/findings';
import type { CreatedOrders } from './created-orders';
import { orderRequestLine } from '../../contract/order-path';
import type { SentPathId } from '../../checks/readings';
import { readPage } from '../../checks/listing';
import { isSuccess } from '../../checks/status';
import { bounds } from '../../contract/query';
import { readLedger, runLedger } from '../http/ledger';
import { together } from './together';
import { sentAsOne } from '../http/gate';
import { idExtensions, reachesNoOrder } from '../../generators/order-id';

/** An id no order has, to send get, update and delete to. */
export interface UnknownId {
  id: string;
  /** Of the form of the ids the service assigns (answered 404 or 410), or of another (any 4xx too: ORD-OBS-018). */
  ownForm: boolean;
  /** Made from an order's id (generators/order-id.ts): judged by its readings, and written to only where none reaches that order. */
  madeFrom?: SentPathId;
}

/** What a create sent ahead came to: its exchange, or the transport failure (thrown in the test that takes it). */
export type Made = { exchange: Exchange } | { error: unknown };

export interface ApiOptions {
  /** OMS_READ_ONLY: a test that needs a write is skipped instead. */
  readOnly: boolean;
  /** OMS_LIST_SETTLE_MS: how long a write may take to show in the list (harness/requests/listing.ts judgedWhenSettled). */
  listSettleMs: number;
}

/** Annotation type of a request that waited out 429/503 answers; its description starts with the count. */
export const RATE_LIMIT_ANNOTATION = 'rate-limit-retries';

/**
 * The order operations of one account, as tests use them. Every response is checked against the
 * contract (JSON, meta.status, schema) on the way back. Only orders this run created can be changed
 * or deleted: a shared account's other orders are never touched.
 */
export class OmsApi {
  constructor(
    readonly account: AccountName,
    readonly client: OmsClient,
    private readonly created: CreatedOrders,
    private readonly options: ApiOptions,
    /** Told of every exchange this api completes (the requests of a generated run, for its counterexample). */
    private readonly onExchange?: (exchange: Exchange) => void,
  ) {}

  /** The same account and guards, every exchange it completes also handed to `onExchange` (and another list settle time, if given). */
  recording(onExchange: (exchange: Exchange) => void, listSettleMs = this.options.listSettleMs): OmsApi {
    return new OmsApi(this.account, this.client, this.created, { ...this.options, listSettleMs }, onExchange);
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
    this.refuseInReadOnly('update an order');
    this.created.assertOwn(id);
    return this.send({ ...orderRequest('updateOrder', id), json: body });
  }

  async delete(id: string): Promise<Exchange> {
    this.refuseInReadOnly('delete an order');
    this.created.assertOwn(id);
    return this.send(orderRequest('deleteOrder', id));
  }

  /** Any request, for the cases the operations above cannot make (broken auth, malformed bodies). */
  async send(spec: RequestSpec): Promise<Exchange> {
    if (spec.method !== 'GET') this.refuseInReadOnly(`send ${spec.method} ${spec.path}`);
    if (spec.method !== 'GET' && spec.method !== 'POST') this.created.assertOwn(orderIdOf(spec.path));
    return this.sentAndJudged(spec);
  }

  /**
   * Requests of methods the interface does not define to the collection itself (PUT, PATCH, DELETE /orders), which a
   * faulty server may apply to every order of the account: sent side by side only while a list read whole just before
   * shows nothing but orders this run created (any worker's: the run's ledger), as on a fresh preview or the embedded
   * server; otherwise held back, and why. A shared account's orders are never put at risk. Never in read-only mode.
   */
  async sendToCollection(specs: RequestSpec[]): Promise<{ sent: Exchange[] } | { heldBack: string }> {
    this.refuseInReadOnly('send methods the interface does not define to /orders');
    if (specs.some((spec) => spec.path.split('?')[0] !== '/orders' || spec.method === 'GET' || spec.method === 'POST')) throw new Error('sendToCollection sends PUT, PATCH and DELETE to /orders only');
    const others = await this.ordersOfOthers();
    if (others) return { heldBack: others };
    return { sent: await together(specs.map((spec) => this.sentAndJudged(spec))) };
  }

  /**
   * Why the account may hold an order this run did not create, or undefined when it holds none: the list read whole
   * (its first page counts the pages, which are then read again all in flight at once, so no write falls between
   * them), each order it shows one the run's ledger records as created in this account, and as many shown as
   * meta.total counts (a list that changed while it was read may have hidden one).
   */
  private async ordersOfOthers(): Promise<string | undefined> {
    const limit = bounds('limit').maximum as number;
    const first = readPage({ page: 1, limit }, await this.list({ page: 1, limit }));
    if (!isSuccess(first.exchange.status) || first.total === undefined) return `the list answered ${first.exchange.status}${first.total === undefined ? ' without meta.total' : ''}`;
    const count = Math.ceil(first.total / limit);
    if (count > COLLECTION_CHECK_PAGES) return `the account holds ${first.total} orders, more than this run reads to tell whose they are`;
    const pages =
      count <= 1
        ? [first]
        : (await sentAsOne(() => together(Array.from({ length: count }, (_, index) => this.list({ page: index + 1, limit }))))).map((exchange, index) => readPage({ page: index + 1, limit }, exchange));
    if (pages.some((page) => !isSuccess(page.exchange.status))) return 'a page of the list was refused';
    const shown = new Set(pages.flatMap(({ ids }) => ids));
    const total = pages[0].total ?? first.total;
    if (shown.size < total || pages.some((page) => page.total !== total)) return `the list showed ${shown.size} of the ${total} orders it counts (it changed while it was read)`;
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

  /** One exchange sent and judged: a transport failure is the current test's skip, as for every request of the api. */
  private async sentAndJudged(spec: RequestSpec): Promise<Exchange> {
    let exchange: Exchange;
    try {
      exchange = await this.transmitted(spec);
    } catch (error) {
      this.failed(error);
    }
    return this.judged(spec, exchange);
  }

  /**
   * A create of this body sent now, not judged until a test takes it (OrderPool): the order it makes is this
   * run's at once (the ledger, the cleanup), whichever test takes it, or none.
   */
  createAhead(body: unknown): Promise<Made> {
    return this.transmitted({ ...requestLine('createOrder'), json: body }).then(
      (exchange) => ({ exchange }),
      (error: unknown) => ({ error }),
    );
  }

  /** A create made ahead, judged now in the test that takes it, as if it had sent it. */
  async taken(made: Promise<Made>): Promise<Exchange> {
    const outcome = await made;
    return this.judged(requestLine('createOrder'), 'error' in outcome ? this.failed(outcome.error) : outcome.exchange);
  }

  /**
   * One exchange sent, judged by nothing yet, that keeps the
   * ledger (a create goes in before it is sent, so an order a create in flight makes is found after a kill;
   * what it made goes in once answered, whatever the checks later say). A transport failure is thrown as is.
   */
  private async transmitted(spec: RequestSpec): Promise<Exchange> {
    if (operationOf(spec.method, spec.path) === 'createOrder') {
      // Tracked from the start: a create made ahead may still be in flight when the worker's teardown settles the creates.
      return this.created.whileCreating(async () => {
        return this.sentAndRecorded(spec, { marker: this.created.sending(spec.json, this.account) });
      });
    }
    return this.sentAndRecorded(spec);
  }

  private async sentAndRecorded(spec: RequestSpec, creating?: { marker: string | undefined }): Promise<Exchange> {
    const exchange = await this.client.send(spec);
    if (creating) {
      const createdId = (exchange.json as { id?: unknown } | undefined)?.id;
      // Whatever the body was (even one the server should have refused), an order it made is ours to delete.
      const made = exchange.status >= 200 && exchange.status < 300 && (typeof createdId === 'string' || typeof createdId === 'number');
      this.created.answered(this.account, creating.marker, made ? String(createdId) : undefined);
    }
    const targetId = orderIdOf(spec.path);
    // Any accepted delete of an own order, also one sent with an unusual Authorization the server took.
    if (spec.method === 'DELETE' && exchange.status >= 200 && exchange.status < 300 && this.created.ownerOf(targetId) === this.account) this.created.forget(targetId);
    return exchange;
  }

  /** A transport failure as the current test takes it: no evidence either way, so a skip with the server as its cause. */
  private failed(error: unknown): never {
    // A 429 that outlasted the retries is no evidence either way.
    if (error instanceof RateLimitedError) skipTest({ kind: 'server', reason: `rate limited: ${error.message}` });
    // A connection reset or a silent server: no evidence either way, so never a requirement failure.
    if (error instanceof InconclusiveError) skipTest({ kind: 'server', reason: error.message });
    throw error;
  }

  /**
   * An exchange of this run sent by other means than this api (POST /token by the token helper), held in the current
   * test to what every response must be, as if sent here: no answer of a run escapes the general checks.
   */
  judge(exchange: Exchange): Exchange {
    return this.judged({ method: exchange.request.method as RequestSpec['method'], path: exchange.request.path }, exchange);
  }

  /** The exchange checked against the contract in the current test: what every response must be. */
  private judged(spec: Pick<RequestSpec, 'method' | 'path'>, exchange: Exchange): Exchange {
    if (exchange.retries) {
      // Counted in the report; a wait for a rate limit is never evidence about a requirement.
      test.info().annotations.push({ type: RATE_LIMIT_ANNOTATION, description: `${exchange.retries} ${spec.method} ${spec.path}` });
    }
    for (const finding of responseChecks(exchange)) check(finding);
    // Held to the checks every response gets, whether one judged here (meta.status where there is one) or not.
    for (const requirementId of responseRequirements(exchange)) recordCheckedOn(requirementId, exchange);
    this.onExchange?.(exchange);
    return exchange;
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

  private refuseInReadOnly(what: string): void {
    if (this.readOnly) skipTest({ kind: 'configuration', reason: `read-only mode (${settingName('readOnly')}): this check needs to ${what}`, settings: [readOnlyOff()] });
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

/** The order id of a path /orders/{id} (decoded), or "" for /orders. */
function orderIdOf(path: string): string {
  return decodeURIComponent(path.split('/')[2] ?? '');
}

/** What turns read-only mode off, in the user's terms: drop --read-only, or unset OMS_READ_ONLY. */
export function readOnlyOff(): string {
  const name = settingName('readOnly');
  return `${name.startsWith('--') ? 'drop' : 'unset'} ${name}`;
}
