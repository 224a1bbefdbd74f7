import fc from 'fast-check';
import type { AsCreated } from '../checks/deletion';
import type { Judgement, Judgements } from '../checks/check';
import type { Exchange } from '../contract/exchange';
import type { AccountName } from '../config/settings';

/**
 * The model of a model-based run: the orders THIS run created, and only those. The account may hold
 * other orders and other clients may write to it, so no command asserts about anything else (no
 * exact totals, no order it did not create).
 */
export interface OwnOrder {
  /** #1, #2 … in the order the run created them (ids change from run to run; handles do not). */
  handle: number;
  account: AccountName;
  /** What the order must show: every field sent and not replaced since (nor cleared by an update that omitted it). */
  expected: Record<string, unknown>;
  /** Updated at least once: its get answers to ORD-UPDATE-003 rather than ORD-GET-002. */
  updated: boolean;
  deleted: boolean;
  /** created_at and deleted_at as the create answered them: what a live order holds in deleted_at is not shown (ORD-OBS-025). */
  asCreated: AsCreated;
}

export interface OrdersModel {
  /** The accounts the run may use: A, and B when OMS_TOKEN_B is given. */
  accounts: AccountName[];
  orders: OwnOrder[];
}

/** The order operations of one account, as the commands send them (the harness's OmsApi is one). */
export interface OrdersApi {
  create(body: unknown): Promise<Exchange>;
  get(id: string): Promise<Exchange>;
  update(id: string, body: unknown): Promise<Exchange>;
  delete(id: string): Promise<Exchange>;
  list(query?: Record<string, string | number>): Promise<Exchange>;
}

/**
 * The system under test as the commands reach it, and what the harness lends them: the model sits below
 * the harness, so it sends through these and hands its judgements to them (tests/stateful/orders.spec.ts
 * builds one from harness/property.ts and harness/requests/listing.ts).
 */
export interface OrdersReal {
  apis: Partial<Record<AccountName, OrdersApi>>;
  /** Service-assigned id of each handle. */
  ids: Map<number, string>;
  /** Records a judgement and ends the run at a violation. */
  stopOn(judgement: Judgement | Judgements | undefined): void;
  /** Reads the list again while its judgement finds a violation and a write may still be settling; every read's judgements recorded, the last read's returned. */
  whenSettled<T>(api: OrdersApi, read: () => Promise<T>, judge: (value: T) => Judgements): Promise<Judgements>;
}

export function emptyModel(accounts: AccountName[]): OrdersModel {
  return { accounts, orders: [] };
}

export function apiOf(real: OrdersReal, account: AccountName): OrdersApi {
  const api = real.apis[account];
  if (!api) throw new Error(`no api for account ${account}`);
  return api;
}

export function idOf(real: OrdersReal, order: OwnOrder): string {
  const id = real.ids.get(order.handle);
  if (id === undefined) throw new Error(`order #${order.handle} has no id`);
  return id;
}

export const otherAccount = (account: AccountName): AccountName => (account === 'A' ? 'B' : 'A');

/**
 * A command of a model-based run: check(model) says whether it applies, run(model, real) sends its
 * request and compares the answer with the model, toString() reads as that request. An order is
 * picked by a number, resolved against the model when the command runs, so commands shrink freely.
 */
export abstract class OrderCommand implements fc.AsyncCommand<OrdersModel, OrdersReal> {
  /** The order this command resolved to when it last ran, for toString. */
  protected target?: OwnOrder;

  abstract check(model: Readonly<OrdersModel>): boolean;
  abstract run(model: OrdersModel, real: OrdersReal): Promise<void>;
  abstract toString(): string;
  /** A fresh copy: each run resolves its own targets, so a printed counterexample shows what it ran. */
  abstract [fc.cloneMethod](): OrderCommand;

  /** The order a pick number names among the candidates, or undefined when there is none. */
  protected static pickFrom(candidates: OwnOrder[], pick: number): OwnOrder | undefined {
    return candidates.length ? candidates[pick % candidates.length] : undefined;
  }

  protected get targetLabel(): string {
    return this.target ? `#${this.target.handle}` : '#?';
  }
}

/** Orders of the run not deleted, optionally of one account. */
export function liveOrders(model: Readonly<OrdersModel>, account?: AccountName): OwnOrder[] {
  return model.orders.filter((order) => !order.deleted && (account === undefined || order.account === account));
}

/** A request body, short enough for one line of a counterexample. */
export function bodyText(body: unknown, max = 400): string {
  const text = JSON.stringify(body);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}
