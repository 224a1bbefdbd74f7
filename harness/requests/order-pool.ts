import { fullOrder, minimalOrder, sameButReferences } from '../../contract/examples';
import type { Made, OmsApi } from './api';

/** The example orders tests create to have an order at all: by their body but for its references (sameButReferences), the function that makes a fresh one. */
const TEMPLATES = new Map([minimalOrder, fullOrder].map((make) => [sameButReferences(make()), make]));

type Json = Record<string, unknown>;

/** A create sent ahead: the body it carried, and what it came to. */
export interface Ahead {
  sent: Json;
  made: Promise<Made>;
}

/**
 * Orders made ahead of the tests that need one. Across a network most tests begin by creating an example
 * order (minimalOrder(), fullOrder()) and wait a round trip for it; the pool sends the next ones while the
 * current test runs, so the next test finds its order made. A test takes one only for a body that is an
 * example order but for its marker, and judges it as its own create (OmsApi.taken): its checks, its evidence.
 * What no test took is the run's like every order it made, deleted at the end. Depth 0 (a server on the
 * same machine, where a create costs no wait, or read-only mode) sends nothing ahead.
 */
class OrderPool {
  private readonly ahead = new Map<string, Ahead[]>();

  constructor(private readonly depth: number) {}

  /** A create of `sent`'s example sent ahead, with `depth` more started behind it; undefined for any other body. */
  take(api: OmsApi, sent: Json): Ahead | undefined {
    if (this.depth === 0) return undefined;
    const key = sameButReferences(sent);
    const make = TEMPLATES.get(key);
    if (!make) return undefined;
    const queue = this.ahead.get(key) ?? [];
    this.ahead.set(key, queue);
    while (queue.length <= this.depth) {
      const body = make() as Json;
      queue.push({ sent: body, made: api.createAhead(body) });
    }
    return queue.shift();
  }

  /** What the creates no test took came to; the pool is empty after. */
  untaken(): Promise<Made[]> {
    const left = [...this.ahead.values()].flat();
    this.ahead.clear();
    return Promise.all(left.map(({ made }) => made));
  }
}

/** The pool of each account's client (one per worker and account), set up by the worker's fixtures. */
const pools = new WeakMap<object, OrderPool>();

/** Makes example orders ahead for this account, `depth` at a time (0: none). */
export function poolOrders(api: OmsApi, depth: number): void {
  pools.set(api.client, new OrderPool(depth));
}

/** The creates made ahead for this account that no test took, once answered (the worker's teardown judges them). */
export function untakenAhead(api: OmsApi): Promise<Made[]> {
  return pools.get(api.client)?.untaken() ?? Promise.resolve([]);
}

/** A create of `sent` made ahead for this account, if `sent` is an example order and the account has a pool. */
export function madeAhead(api: OmsApi, sent: Json): Ahead | undefined {
  return pools.get(api.client)?.take(api, sent);
}
