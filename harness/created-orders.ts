import type { AccountName } from './api';
import { runLedger } from './http/ledger';

/**
 * The orders this worker created, and the ids it made up for "unknown id" checks. The suite may
 * change or delete nothing else; whatever is still here at the end is deleted by the cleanup.
 */
export class CreatedOrders {
  private readonly owners = new Map<string, AccountName>();
  private readonly madeUp = new Set<string>();
  private readonly deleted = new Set<string>();

  add(id: string, account: AccountName): void {
    runLedger().created(id, account);
    this.owners.set(id, account);
  }

  forget(id: string): void {
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

  remaining(): Array<[string, AccountName]> {
    return [...this.owners];
  }
}
