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
  private readonly accounts = new Map<string, AccountOrders>();

  insert(order: StoredOrder): void {
    let account = this.accounts.get(order.user_id);
    if (!account) {
      account = { orders: [], byId: new Map() };
      this.accounts.set(order.user_id, account);
    }
    const previous = account.byId.get(order.id);
    // An id already stored keeps its place (as a Map would); a new order goes last.
    if (previous) account.orders[account.orders.indexOf(previous)] = order;
    else account.orders.push(order);
    account.byId.set(order.id, order);
  }

  get(accountId: string, orderId: string): StoredOrder | undefined {
    return this.accounts.get(accountId)?.byId.get(orderId);
  }

  replace(order: StoredOrder): void {
    if (this.get(order.user_id, order.id)) this.insert(order);
  }

  remove(accountId: string, orderId: string): boolean {
    const account = this.accounts.get(accountId);
    const order = account?.byId.get(orderId);
    if (!account || !order) return false;
    account.byId.delete(orderId);
    account.orders.splice(account.orders.indexOf(order), 1);
    return true;
  }

  /** Newest first: a slice from the end of the account, so a page costs O(limit) however large the account. */
  page(accountId: string, offset: number, limit: number): Page {
    const orders = this.accounts.get(accountId)?.orders ?? [];
    const end = Math.min(orders.length, Math.max(0, orders.length - offset));
    return { orders: orders.slice(Math.max(0, end - limit), end).reverse(), total: orders.length };
  }
}

/** The orders of one account, oldest first, and the same orders by id. */
interface AccountOrders {
  orders: StoredOrder[];
  byId: Map<string, StoredOrder>;
}
