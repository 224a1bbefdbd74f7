import type { OrderStore, Page, StoredOrder } from '../reference/store';

/**
 * The in-memory store as it was before its paging was fixed: every list call copied all the orders of
 * the account into an array. Kept only so the bench measures the fix before/after, side by side.
 */
export class CopyingOrderStore implements OrderStore {
  private readonly accounts = new Map<string, Map<string, StoredOrder>>();

  insert(order: StoredOrder): void {
    let orders = this.accounts.get(order.user_id);
    if (!orders) {
      orders = new Map();
      this.accounts.set(order.user_id, orders);
    }
    orders.set(order.id, order);
  }

  get(accountId: string, orderId: string): StoredOrder | undefined {
    return this.accounts.get(accountId)?.get(orderId);
  }

  replace(order: StoredOrder): void {
    const orders = this.accounts.get(order.user_id);
    if (orders?.has(order.id)) orders.set(order.id, order);
  }

  remove(accountId: string, orderId: string): boolean {
    return this.accounts.get(accountId)?.delete(orderId) ?? false;
  }

  page(accountId: string, offset: number, limit: number): Page {
    const all = [...(this.accounts.get(accountId)?.values() ?? [])];
    const end = all.length - offset;
    const orders = end <= 0 ? [] : all.slice(Math.max(0, end - limit), end).reverse();
    return { orders, total: all.length };
  }
}
