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
    let orders = this.accounts.get(order.user_id);
    if (!orders) {
      orders = new AccountOrders();
      this.accounts.set(order.user_id, orders);
    }
    orders.insert(order);
  }

  get(accountId: string, orderId: string): StoredOrder | undefined {
    return this.accounts.get(accountId)?.get(orderId);
  }

  replace(order: StoredOrder): void {
    this.accounts.get(order.user_id)?.replace(order);
  }

  remove(accountId: string, orderId: string): boolean {
    return this.accounts.get(accountId)?.remove(orderId) ?? false;
  }

  page(accountId: string, offset: number, limit: number): Page {
    return this.accounts.get(accountId)?.page(offset, limit) ?? { orders: [], total: 0 };
  }
}

/**
 * The orders of one account in insertion order, paged newest first without copying the account:
 * a Fenwick tree over the slots counts the orders still there, so the k-th newest is found in O(log n)
 * and a page costs at most O(limit log n) at any offset, however large the account and however many holes.
 */
class AccountOrders {
  /** Insertion order; a removed order leaves a hole until the next compaction. */
  private slots: Array<StoredOrder | undefined> = [];
  private readonly slotOf = new Map<string, number>();
  /** Fenwick tree, 1-based: tree[i] counts the orders in slots (i - lowbit(i), i]. */
  private tree: number[] = [0];

  get(orderId: string): StoredOrder | undefined {
    const slot = this.slotOf.get(orderId);
    return slot === undefined ? undefined : this.slots[slot];
  }

  /** A new order goes last; an id already stored keeps its place (as a Map would). */
  insert(order: StoredOrder): void {
    const slot = this.slotOf.get(order.id);
    if (slot !== undefined) {
      this.slots[slot] = order;
      return;
    }
    this.slots.push(order);
    const position = this.slots.length;
    this.slotOf.set(order.id, position - 1);
    this.tree.push(1 + this.prefix(position - 1) - this.prefix(position - lowbit(position)));
  }

  replace(order: StoredOrder): void {
    const slot = this.slotOf.get(order.id);
    if (slot !== undefined) this.slots[slot] = order;
  }

  remove(orderId: string): boolean {
    const slot = this.slotOf.get(orderId);
    if (slot === undefined) return false;
    this.slotOf.delete(orderId);
    this.slots[slot] = undefined;
    for (let i = slot + 1; i < this.tree.length; i += lowbit(i)) this.tree[i]--;
    // Holes are dropped once they outnumber the orders, so the cost stays amortised O(1) per remove.
    if (this.slots.length - this.slotOf.size > Math.max(1024, this.slotOf.size)) this.compact();
    return true;
  }

  /** Newest first: the offset-th newest order, then older ones up to limit. */
  page(offset: number, limit: number): Page {
    const total = this.slotOf.size;
    const orders: StoredOrder[] = [];
    let slot = -1;
    for (let rank = total - offset; rank >= 1 && orders.length < limit; rank--, slot--) {
      // The next older slot, unless it is a hole: then a jump by rank over the whole run of holes.
      if (this.slots[slot] === undefined) slot = this.slotOfRank(rank);
      orders.push(this.slots[slot] as StoredOrder);
    }
    return { orders, total };
  }

  /** The slot (0-based) of the rank-th oldest order (1-based), by descending the tree. */
  private slotOfRank(rank: number): number {
    let position = 0;
    let remaining = rank;
    for (let step = highestPowerOfTwo(this.tree.length - 1); step > 0; step >>= 1) {
      const next = position + step;
      if (next < this.tree.length && this.tree[next] < remaining) {
        position = next;
        remaining -= this.tree[next];
      }
    }
    return position;
  }

  /** Orders in slots 1..position (1-based). */
  private prefix(position: number): number {
    let sum = 0;
    for (let i = position; i > 0; i -= lowbit(i)) sum += this.tree[i];
    return sum;
  }

  private compact(): void {
    const live = this.slots.filter((order): order is StoredOrder => order !== undefined);
    this.slots = live;
    this.slotOf.clear();
    live.forEach((order, slot) => this.slotOf.set(order.id, slot));
    this.tree = [0, ...live.map(() => 1)];
    for (let i = 1; i < this.tree.length; i++) {
      const parent = i + lowbit(i);
      if (parent < this.tree.length) this.tree[parent] += this.tree[i];
    }
  }
}

function lowbit(i: number): number {
  return i & -i;
}

function highestPowerOfTwo(n: number): number {
  return n < 1 ? 0 : 2 ** Math.floor(Math.log2(n));
}
