import type { AccountName } from '../../config/settings';
import { markerOf, runLedger } from '../http/ledger';

/**
 * The orders this worker created, and the ids it made up for "unknown id" checks. The suite may
 * change or delete nothing else; whatever is still here at the end is deleted by the cleanup.
 */
export class CreatedOrders {
  private readonly owners = new Map<string, AccountName>();
  /** Creates the server answered with each id: more than one where it gave one id to several orders (a fault). */
  private readonly creates = new Map<string, number>();
  private readonly madeUp = new Set<string>();
  /** Creates on their way, each until its answer is recorded. */
  private readonly pending = new Set<Promise<unknown>>();
  private readonly deleted = new Set<string>();

  private closed = false;

  /** A create on its way: `settled` waits for it (an interrupted test's requests are not cancelled, and the order one makes is ours to delete). */
  whileCreating<T>(create: () => Promise<T>): Promise<T> {
    // An interrupted test's body runs on after its teardown began: a create it starts then would make an order no one deletes.
    if (this.closed) return Promise.reject(new Error('the worker is shutting down: no create is sent after its cleanup began'));
    const tracked = create().finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
    return tracked;
  }

  /** Once every create on its way has its answer recorded (each ends at the request timeout at the latest); no create starts after it is called. */
  async settled(): Promise<void> {
    this.closed = true;
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /** A create is about to be sent with this body: the ledger knows of it before any answer (a kill may come first). */
  sending(body: unknown, account: AccountName): string | undefined {
    const marker = markerOf(body);
    runLedger().creating(account, marker);
    return marker;
  }

  /** The answer to a create sent with `marker`: the order it made, or none. */
  answered(account: AccountName, marker: string | undefined, id?: string): void {
    if (id === undefined) return runLedger().answered(account, marker);
    runLedger().created(id, account, marker);
    this.owners.set(id, account);
    this.creates.set(id, (this.creates.get(id) ?? 0) + 1);
  }

  /** An order of this run that a write after its delete brought back: held again, so the cleanup deletes it. */
  reclaim(id: string, account: AccountName): void {
    runLedger().created(id, account, undefined);
    this.owners.set(id, account);
    this.creates.set(id, 1);
  }

  forget(id: string): void {
    // An id the server gave to several of this run's creates stays this run's until each was deleted once.
    const creates = this.creates.get(id) ?? 0;
    if (creates > 1) return void this.creates.set(id, creates - 1);
    this.creates.delete(id);
    const account = this.owners.get(id);
    if (account) {
      runLedger().deleted(id, account);
      this.deleted.add(id);
    }
    this.owners.delete(id);
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
}
