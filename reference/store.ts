/** An order as the reference server stores it: the full form of section 2.1, plus the owning account. */
export type StoredOrder = Record<string, unknown> & {
  id: string;
  user_id: string;
  created_at: string;
  updated_at: string;
};

export interface Page {
  orders: StoredOrder[];
  total: number;
}

/** Storage of orders, per account. Kept small so another backend can replace the in-memory one. */
export interface OrderStore {
  insert(order: StoredOrder): void;
  get(accountId: string, orderId: string): StoredOrder | undefined;
  replace(order: StoredOrder): void;
  remove(accountId: string, orderId: string): boolean;
  /** Orders of an account, newest first, offset-paged. */
  page(accountId: string, offset: number, limit: number): Page;
}

export class InMemoryOrderStore implements OrderStore {
  // Per account, in insertion order; newest first is the reverse of it.
  private readonly accounts = new Map<string, Map<string, StoredOrder>>();

  insert(order: StoredOrder): void {
    this.account(order.user_id).set(order.id, order);
  }

  get(accountId: string, orderId: string): StoredOrder | undefined {
    return this.accounts.get(accountId)?.get(orderId);
  }

  replace(order: StoredOrder): void {
    const orders = this.account(order.user_id);
    if (orders.has(order.id)) orders.set(order.id, order);
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

  private account(accountId: string): Map<string, StoredOrder> {
    let orders = this.accounts.get(accountId);
    if (!orders) {
      orders = new Map();
      this.accounts.set(accountId, orders);
    }
    return orders;
  }
}
