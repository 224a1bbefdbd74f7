import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** Set while the requests of one list view are sent (sentAsOne). */
const oneView = new AsyncLocalStorage<true>();

/**
 * Sends the requests `send` starts as one: each takes a slot beyond the in-flight bound if it must, so every
 * page of a list view is in flight at once (a view split over two round trips gives another client's write
 * time to fall between its pages). The request rate cap and 429 pauses still hold.
 */
export function sentAsOne<T>(send: () => Promise<T>): Promise<T> {
  return oneView.run(true, send);
}

export interface GateOptions {
  /** Requests of this worker in flight at once, at most. */
  maxInFlight: number;
  /** This worker's share of OMS_MAX_RPS; undefined for no cap. */
  requestsPerSecond?: number;
}

/**
 * Every request of a worker passes here: at most `maxInFlight` at once, spaced to the request-rate cap,
 * and none while a 429's Retry-After runs. Concurrent generated runs, list reads and probes share it,
 * so the worker as a whole keeps to the limits whatever its tests send in parallel.
 */
export class RequestGate {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private nextSlot = 0;
  private pausedUntil = 0;
  private readonly interval: number;
  /** The longest chain of dependent requests since the last startChain(): each request one longer than the longest that had ended when it began. */
  private chain = { generation: 0, longest: 0 };

  constructor(private readonly options: GateOptions) {
    this.interval = options.requestsPerSecond ? 1000 / options.requestsPerSecond : 0;
  }

  get maxInFlight(): number {
    return this.options.maxInFlight;
  }

  /**
   * Starts counting the longest chain of dependent requests afresh (a test's): what the test could take at
   * best across a network is that many round trips. A request still in flight from before is left out.
   */
  startChain(): void {
    this.chain = { generation: this.chain.generation + 1, longest: 0 };
  }

  /** Requests in the longest chain since startChain(): each of them began only after the one before it ended. */
  get longestChain(): number {
    return this.chain.longest;
  }

  /** Runs one request when a slot is free, the pace allows and no rate limit holds the worker back. */
  async run<T>(send: () => Promise<T>): Promise<T> {
    // Counted as it is asked for, not when a slot frees: a wait for a slot is the worker's bound, not a dependency.
    const chain = this.chain;
    const depth = chain.longest + 1;
    if (this.inFlight >= this.options.maxInFlight && !oneView.getStore()) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.inFlight++;
    try {
      await this.paced();
      return await send();
    } finally {
      if (chain === this.chain) chain.longest = Math.max(chain.longest, depth);
      // The slot passes straight to the next waiter, so a request arriving now cannot overtake it; one taken beyond the bound goes.
      const next = this.inFlight > this.options.maxInFlight ? undefined : this.waiting.shift();
      if (next) next();
      else this.inFlight--;
    }
  }

  /** A 429 (or 503) asked to wait: no request of this worker starts before then. */
  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
  }

  /** Waits for the next slot of the pace and for any pause; the first waiter to wake takes the slot, the others wait on. */
  private async paced(): Promise<void> {
    for (;;) {
      const now = Date.now();
      const start = Math.max(this.nextSlot, this.pausedUntil);
      if (start <= now) {
        this.nextSlot = now + this.interval;
        return;
      }
      await sleep(start - now);
    }
  }
}
