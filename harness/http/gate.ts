import { setTimeout as sleep } from 'node:timers/promises';

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

  constructor(private readonly options: GateOptions) {
    this.interval = options.requestsPerSecond ? 1000 / options.requestsPerSecond : 0;
  }

  get maxInFlight(): number {
    return this.options.maxInFlight;
  }

  /** Runs one request when a slot is free, the pace allows and no rate limit holds the worker back. */
  async run<T>(send: () => Promise<T>): Promise<T> {
    if (this.inFlight >= this.options.maxInFlight) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.inFlight++;
    try {
      await this.paced();
      return await send();
    } finally {
      // The slot passes straight to the next waiter, so a request arriving now cannot overtake it.
      const next = this.waiting.shift();
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
