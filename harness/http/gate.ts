import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Exchange } from '../../contract/exchange';
import type { Sender } from './stage';
import { RateLimitedError, type RunPace } from './pace';

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

export { RateLimitedError };

export interface GateOptions {
  /** Requests of this worker in flight at once, at most. */
  maxInFlight: number;
  /** This worker's share of OMS_MAX_RPS; undefined for no cap. */
  requestsPerSecond?: number;
  /** What the run learned of the server's rate limit, shared by its workers: pauses, spacing, a limit never lifted. */
  pace: RunPace;
  /** How long one request is retried while the server answers it 429 or 503 (a few request timeouts). */
  retryForMs: number;
  /**
   * Which waiting request goes next: the lowest rank, then the oldest (the scheduler ranks the requests of the test
   * Playwright waits for first). Asked as a request starts waiting, in its own async context.
   */
  rank?: () => number;
  /** The run's pause grew by this many ms at a 429 or 503 of this worker: time its tests wait for the server, no part of their time limits. */
  onPause?: (ms: number) => void;
}

interface Waiter {
  rank: number;
  wake: () => void;
}

/** Retries of a 503 before it is judged as the answer it is. */
const MAX_503_RETRIES = 4;

/** The longest a Retry-After or a back-off holds one retry back; the time its retries may take in all is GateOptions.retryForMs. */
const MAX_RETRY_WAIT_MS = 10_000;

/**
 * The rate gate: every request of a worker passes here once. At most `maxInFlight` at once, the waiting ones
 * in rank order; spaced to the request-rate cap and to the pace the server set (a 429's Retry-After, the
 * spacing of its 429s: RunPace, shared by the run's workers); and answered 429 or 503, sent again, the
 * worker's and the run's other requests held back meanwhile, for as long as `retryForMs` allows.
 */
export class RequestGate {
  private inFlight = 0;
  private readonly waiting: Waiter[] = [];
  private nextSlot = 0;
  private readonly interval: number;

  constructor(private readonly options: GateOptions) {
    this.interval = options.requestsPerSecond ? 1000 / options.requestsPerSecond : 0;
  }

  get maxInFlight(): number {
    return this.options.maxInFlight;
  }

  /** The rate-gate stage of the request pipeline, around `next` (the transport). */
  gating(next: Sender): Sender {
    return { send: (request) => this.send(() => next.send(request), `${request.spec.method} ${request.spec.path}`) };
  }

  /** `attempt` sent when a slot is free and the pace allows, again on each 429 or 503 while the time allows; its last answer, with the retries counted. */
  async send(attempt: () => Promise<Exchange>, what: string): Promise<Exchange> {
    await this.slot();
    try {
      const started = Date.now();
      for (let retries = 0; ; retries++) {
        await this.paced();
        const exchange = await attempt();
        const limited = exchange.status === 429 || exchange.status === 503;
        if (!limited) {
          this.options.pace.noteAnswered();
          return { ...exchange, retries };
        }
        const delay = retryDelay(exchange.headers['retry-after'], retries);
        // A 503 is as often a failure as a pause: waited out a few times, then judged as the answer it is.
        if (exchange.status === 503 && retries >= MAX_503_RETRIES) return { ...exchange, retries };
        if (exchange.status === 429 && Date.now() + delay - started > this.options.retryForMs) {
          const reason = `${what} was still rate limited (429) after ${retries + 1} answers over ${seconds(Date.now() - started)}, retried for as long as ${seconds(this.options.retryForMs)} allows`;
          this.options.pace.giveUp(reason);
          throw new RateLimitedError(reason);
        }
        // The whole run holds back, not only this request: the others would meet the same limit.
        const added = this.options.pace.noteLimited(delay);
        if (added > 0) this.options.onPause?.(added);
      }
    } finally {
      this.release();
    }
  }

  /** Waits for a slot of the in-flight bound (a list view's pages take one each, beyond it if they must). */
  private async slot(): Promise<void> {
    if (this.inFlight < this.options.maxInFlight || oneView.getStore()) {
      this.inFlight++;
      return;
    }
    const rank = this.options.rank?.() ?? 0;
    await new Promise<void>((wake) => this.waiting.push({ rank, wake }));
  }

  /** The slot passes straight to the waiter of the lowest rank (the oldest among equals), so one arriving now cannot overtake it; one taken beyond the bound goes. */
  private release(): void {
    if (this.inFlight > this.options.maxInFlight || this.waiting.length === 0) {
      this.inFlight--;
      return;
    }
    let next = 0;
    for (let index = 1; index < this.waiting.length; index++) if (this.waiting[index].rank < this.waiting[next].rank) next = index;
    this.waiting.splice(next, 1)[0].wake();
  }

  /** Waits for the next slot of the pace: this worker's rate cap, and the run's pause and spacing; the first waiter to wake takes the slot, the others wait on. */
  private async paced(): Promise<void> {
    for (;;) {
      const now = Date.now();
      this.options.pace.throwIfGivenUp();
      const { pausedUntil, spacingMs } = this.options.pace.current(now);
      const start = Math.max(this.nextSlot, pausedUntil);
      if (start <= now) {
        this.nextSlot = now + Math.max(this.interval, spacingMs);
        return;
      }
      await sleep(start - now);
    }
  }
}

/** Retry-After in seconds or as an HTTP date; without it, exponential back-off. */
export function retryDelay(retryAfter: string | undefined, attempt: number): number {
  const seconds = Number(retryAfter);
  if (retryAfter && retryAfter.trim() !== '' && Number.isFinite(seconds)) return Math.min(Math.max(seconds, 0) * 1000, MAX_RETRY_WAIT_MS);
  const date = retryAfter ? Date.parse(retryAfter) : NaN;
  if (Number.isFinite(date)) return Math.min(Math.max(date - Date.now(), 0), MAX_RETRY_WAIT_MS);
  return Math.min(250 * 2 ** attempt, MAX_RETRY_WAIT_MS);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
