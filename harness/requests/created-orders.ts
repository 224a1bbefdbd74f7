import type { AccountName } from '../../config/settings';
import { currentTest, type TestRecord } from '../record/current-test';
import { HELD_CREATES_ANNOTATION } from '../record/annotations';
import { isSuccess } from '../../checks/status';
import { runLedger } from '../http/ledger';
import { createdIdOf, type Outgoing, type Sender } from '../http/stage';
import type { Exchange } from '../../contract/exchange';

/**
 * The orders this worker created, and the ids it made up for "unknown id" checks. The suite may
 * change or delete nothing else; whatever is still here at the end is deleted by the cleanup.
 */
export class CreatedOrders {
  private readonly owners = new Map<string, AccountName>();
  /** Creates the server answered with each id: more than one where it gave one id to several orders (a fault). */
  private readonly creates = new Map<string, number>();
  private readonly madeUp = new Set<string>();
  /** Creates on their way, each until its answer is recorded, and who waits for the last to end. */
  private creating = 0;
  private readonly waitingForNoCreate: Array<() => void> = [];
  private readonly deleted = new Set<string>();

  private closed = false;
  /** The test that holds the worker's creates back now (withoutOtherCreates), and what waits for it to let go. */
  private holder?: { record: TestRecord | undefined; released: Promise<void> };

  /**
   * The ownership stage of the request pipeline, around `next`: a request that changes an order goes out only for an order this
   * run created (or an id it made up); a create is tracked while it is on its way (an interrupted test's requests
   * are not cancelled, and the order one makes is ours to delete), and the order it made is this run's once
   * answered; an accepted delete of an own order gives it up.
   */
  owning(next: Sender): Sender {
    return { send: (request) => this.owned(request, next) };
  }

  private async owned(request: Outgoing, next: Sender): Promise<Exchange> {
    const { spec, orderId } = request;
    const create = request.operation === 'createOrder';
    // Reads, and posts to the collection, change no order of anyone's; anything else must name one of this run's, or be
    // sent to a collection seen to hold the run's orders alone.
    if (spec.method !== 'GET' && !(spec.method === 'POST' && orderId === '') && !request.collectionClearedByList) this.assertOwn(orderId);
    if (spec.method === 'DELETE') request.releases = (this.creates.get(orderId) ?? 0) <= 1 && this.owners.get(orderId) === request.account;
    // An interrupted test's body runs on after its teardown began: a create it starts then would make an order no one deletes.
    if (create && this.closed) throw new Error('the worker is shutting down: no create is sent after its cleanup began');
    if (create) {
      // A create of another test waits while a test holds them back; a test's own go out. Counted in the same turn
      // as the last look, so no window opens between them.
      const record = currentTest();
      while (this.holder && this.holder.record !== record) await this.holder.released;
      this.creating++;
    }
    let exchange: Exchange;
    try {
      exchange = await next.send(request);
    } finally {
      if (create && --this.creating === 0) for (const wake of this.waitingForNoCreate.splice(0)) wake();
    }
    const id = create ? createdIdOf(exchange) : undefined;
    // Whatever the body was (even one the server should have refused), an order it made is ours to delete.
    if (id !== undefined) this.own(id, request.account);
    // Any accepted delete of an own order, also one sent with an unusual Authorization the server took.
    if (spec.method === 'DELETE' && isSuccess(exchange.status) && this.owners.get(orderId) === request.account) this.forget(orderId);
    return exchange;
  }

  /**
   * Runs `hold` with every create of this worker's other tests held back until it ends (creates in flight when it starts
   * are waited for first): a write to an order just deleted that no create may give the deleted id to, orders made one
   * after another with nothing made between. Tests that hold take turns. A run of several workers runs such tests where
   * no other worker creates (config/phases.ts).
   */
  async withoutOtherCreates<T>(hold: () => Promise<T>): Promise<T> {
    const record = currentTest();
    while (this.holder) await this.holder.released;
    let release = () => {};
    this.holder = { record, released: new Promise<void>((resolve) => (release = resolve)) };
    let from = Date.now();
    try {
      await this.noCreateInFlight();
      // The window, as its annotation shows it, opens once the last create of another test has its answer.
      from = Date.now();
      return await hold();
    } finally {
      this.holder = undefined;
      release();
      record?.annotations.push({ type: HELD_CREATES_ANNOTATION, description: JSON.stringify({ from, to: Date.now() }) });
    }
  }

  /** Once every create on its way has its answer recorded (each ends at the request timeout at the latest); no create starts after it is called. */
  async settled(): Promise<void> {
    this.closed = true;
    await this.noCreateInFlight();
  }

  /** Once no create of this worker is in flight. */
  private async noCreateInFlight(): Promise<void> {
    while (this.creating > 0) await new Promise<void>((wake) => this.waitingForNoCreate.push(wake));
  }

  /** An order of this run that a write after its delete brought back: held again, so the cleanup deletes it. */
  reclaim(id: string, account: AccountName): void {
    runLedger().created(id, account, undefined);
    this.owners.set(id, account);
    this.creates.set(id, 1);
  }

  /** An order this worker created and deleted may be written to again (to see what a write after a delete answers). */
  allowAfterDelete(id: string): void {
    if (!this.deleted.has(id)) throw new Error(`The suite refuses to write to order ${id} after a delete: this run did not create and delete it.`);
    this.madeUp.add(id);
  }

  ownerOf(id: string): AccountName | undefined {
    return this.owners.get(id);
  }

  allowMissing(id: string): void {
    this.madeUp.add(id);
  }

  assertOwn(id: string): void {
    if (!this.owners.has(id) && !this.madeUp.has(id)) {
      throw new Error(
        `The suite refuses to change or delete order ${id}: this run did not create it (safety on shared accounts).`,
      );
    }
  }

  /** Every order held, once per create the server answered with its id (a second delete of a shared id answers 404, and is forgotten then). */
  remaining(): Array<[string, AccountName]> {
    return [...this.owners].flatMap(([id, account]) => Array.from({ length: this.creates.get(id) ?? 1 }, (): [string, AccountName] => [id, account]));
  }

  private own(id: string, account: AccountName): void {
    this.owners.set(id, account);
    this.creates.set(id, (this.creates.get(id) ?? 0) + 1);
  }

  private forget(id: string): void {
    // An id the server gave to several of this run's creates stays this run's until each was deleted once.
    const creates = this.creates.get(id) ?? 0;
    if (creates > 1) return void this.creates.set(id, creates - 1);
    this.creates.delete(id);
    if (this.owners.has(id)) this.deleted.add(id);
    this.owners.delete(id);
  }
}
