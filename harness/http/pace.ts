import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A 429 that outlasted the time its retries may take, in this request or another of the run: never evidence for or against a requirement. */
export class RateLimitedError extends Error {}

/** What the run has learned of the server's rate limit, as every worker reads it. */
interface PaceState {
  /** No request of the run starts before this time (epoch ms): the latest Retry-After, or back-off. */
  pausedUntil: number;
  /** The run-wide spacing between requests the limit asked for, as it stood when last limited. */
  spacingMs: number;
  /** When the last limit began (epoch ms): the spacing halves for every SPACING_HALF_LIFE_MS without one since. */
  limitedAt: number;
  /** The requests the run got through between the last pause and the limit that began it (this worker's times the workers). */
  acceptedLast?: number;
  /** Set once a request stayed limited for as long as its retries may take: the run stops sending. */
  gaveUp?: string;
}

/** The spacing a limit that let nothing through since the last one starts from, doubled at each such limit; at most the last. */
const FIRST_SPACING_MS = 10;
const MAX_SPACING_MS = 2_000;
/** A spacing that let this many times more requests through than the one before it did is one the limit rewards. */
const WIDER_GOT_MORE = 1.2;
/** Without a 429 for this long, the learned spacing halves: the run speeds up again while the server lets it. */
const SPACING_HALF_LIFE_MS = 15_000;

const NONE: PaceState = { pausedUntil: 0, spacingMs: 0, limitedAt: 0 };

/** How long what was read of the file stands: a pause another worker met is this much later here at most. */
const FRESH_MS = 50;

/**
 * The pace the server sets, learned from its 429s and shared by every worker of the run through one small file
 * in the temp area keyed by the run id (as harness/http/silence.ts shares a silence): a Retry-After pauses the whole
 * run, not the worker that met it. Each new limit (a 429 after the last pause ended) also tells the rate the server
 * allows: the requests it let through since the last pause ended, over the time from then to the end of this pause
 * (a fixed window: what it took, over the window); the run's requests are spaced to that rate, and the spacing halves
 * again while no 429 comes. A fixed window that refuses the rest of its requests then holds back the run, not one
 * worker while the others fill the next window. Each worker spaces its own requests by the run's spacing times the
 * workers that share it.
 */
export class RunPace {
  private readonly file: string;
  private cached: { stamp: string; state: PaceState } = { stamp: '', state: NONE };
  /** This worker's answers that were no limit since its last pause ended, and when that was. */
  private accepted = 0;
  private resumedAt = Date.now();
  /** When the file was last looked at. */
  private readAt = 0;

  constructor(
    runId: string,
    /** Workers of the run that send beside this one: each takes its share of the spacing. */
    private readonly workers = 1,
  ) {
    this.file = join(tmpdir(), `oms-conformance-pace-${runId.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
  }

  /** When the next request may start and this worker's spacing, now. */
  current(now: number): { pausedUntil: number; spacingMs: number } {
    const state = this.read();
    return { pausedUntil: state.pausedUntil, spacingMs: spacingAt(state, now) * this.workers };
  }

  /**
   * A 429 (or 503) asked to wait `delayMs`: the whole run pauses that long, and a new limit spaces its requests further
   * apart. How much later the run now goes on than it would have: what its tests wait that is the server's, not theirs.
   */
  noteLimited(delayMs: number): number {
    const now = Date.now();
    const state = this.read();
    const pausedUntil = Math.max(state.pausedUntil, now + delayMs);
    const added = pausedUntil - Math.max(state.pausedUntil, now);
    if (now < state.pausedUntil) {
      this.write({ ...state, pausedUntil });
      return added;
    }
    // A new limit: what this worker got through since it resumed, over the time to the end of the pause, is its share of the rate allowed.
    const accepted = this.accepted * this.workers;
    const spacing = spacingAt(state, now);
    const learned =
      accepted === 0
        ? 2 * spacing
        : spacing > 0 && accepted <= (state.acceptedLast ?? 0) * WIDER_GOT_MORE
          ? // Spaced wider, no more got through: a limit that counts requests, whatever their rate (every tenth refused); spacing only slows the run.
            spacing / 2
          : (pausedUntil - this.resumedAt) / accepted;
    this.accepted = 0;
    this.resumedAt = pausedUntil;
    this.write({ ...state, pausedUntil, spacingMs: Math.min(MAX_SPACING_MS, Math.max(FIRST_SPACING_MS, learned)), limitedAt: now, acceptedLast: accepted });
    return added;
  }

  /** An answer that was no limit: counted towards the rate the next limit tells (the spacing decays by the clock, spacingAt). */
  noteAnswered(): void {
    this.accepted++;
  }

  /** A request stayed limited for as long as its retries may take: every worker of the run stops sending. */
  giveUp(reason: string): void {
    this.write({ ...this.read(), gaveUp: reason });
  }

  throwIfGivenUp(): void {
    const { gaveUp } = this.read();
    if (gaveUp) throw new RateLimitedError(gaveUp);
  }

  /** Removes the run's file (the run's end). */
  forget(): void {
    rmSync(this.file, { force: true });
  }

  private read(): PaceState {
    // Read again at most every FRESH_MS: another worker's pause is met that much later at most; this worker's own at once.
    const now = Date.now();
    if (now - this.readAt < FRESH_MS) return this.cached.state;
    this.readAt = now;
    const stat = statSync(this.file, { throwIfNoEntry: false });
    if (!stat) {
      this.cached = { stamp: '', state: NONE };
      return NONE;
    }
    const stamp = `${stat.mtimeMs}:${stat.size}`;
    if (stamp !== this.cached.stamp) {
      try {
        this.cached = { stamp, state: { ...NONE, ...(JSON.parse(readFileSync(this.file, 'utf8')) as PaceState) } };
      } catch {
        // Half written by another worker: the last state read stands until the next look.
      }
    }
    return this.cached.state;
  }

  private write(state: PaceState): void {
    // Written whole under another name, then renamed: a worker reading it meets the old state or the new, never half.
    const temporary = `${this.file}.${process.pid}`;
    writeFileSync(temporary, JSON.stringify(state));
    renameSync(temporary, this.file);
    this.cached = { stamp: '', state };
  }
}

/** The run-wide spacing at `now`: halved for every half-life since the last limit began. */
function spacingAt(state: PaceState, now: number): number {
  if (state.spacingMs === 0) return 0;
  const spacing = state.spacingMs * 0.5 ** (Math.max(0, now - state.limitedAt) / SPACING_HALF_LIFE_MS);
  return spacing < 1 ? 0 : spacing;
}
