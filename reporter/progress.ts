/**
 * The run's progress, while it runs: on a terminal one line redrawn in place (tests done of total, requests,
 * requirements failed so far, elapsed, estimate of what is left); without one (CI logs) the same as a plain
 * line at most every LOG_EVERY_MS. A run that ends within QUIET_MS prints nothing of it.
 */
export const QUIET_MS = 3_000;
export const LOG_EVERY_MS = 10_000;
/** How often the terminal line is redrawn with a new elapsed time, also while no test ends. */
const REDRAW_MS = 1_000;

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export class Progress {
  private done = 0;
  private requests = 0;
  private readonly failed = new Set<string>();
  private readonly started: number;
  private lastLog: number;
  private shown = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly total: number,
    private readonly stream: ProgressStream,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
    this.lastLog = this.started;
    if (stream.isTTY) {
      this.timer = setInterval(() => this.draw(), REDRAW_MS);
      this.timer.unref();
    }
  }

  /** A test ended, having sent `requests` requests and failed these requirements. */
  testEnded(requests: number, failedRequirements: Iterable<string>): void {
    this.done++;
    this.requests += requests;
    for (const id of failedRequirements) this.failed.add(id);
    if (this.stream.isTTY) return this.draw();
    const now = this.now();
    if (now - this.started >= QUIET_MS && now - this.lastLog >= LOG_EVERY_MS) {
      this.lastLog = now;
      this.stream.write(`oms-conformance: ${this.line()}\n`);
    }
  }

  /** Takes the line off the terminal, so other output starts on a clean line; the next draw puts it back. */
  clear(): void {
    if (!this.shown) return;
    this.stream.write('\r\x1b[2K');
    this.shown = false;
  }

  /** The run is over: the line goes for good. */
  end(): void {
    clearInterval(this.timer);
    this.clear();
  }

  private draw(): void {
    if (this.now() - this.started < QUIET_MS) return;
    const line = this.line();
    const width = Math.max(20, (this.stream.columns || 100) - 1);
    this.stream.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    this.shown = true;
  }

  /** "57/185 tests, 412 requests, 0 requirements failed, 12 s, about 26 s left" */
  line(): string {
    const elapsed = this.now() - this.started;
    const left = this.done > 0 && this.done < this.total ? `, about ${seconds(((this.total - this.done) * elapsed) / this.done)} left` : '';
    return `${this.done}/${this.total} tests, ${this.requests} requests, ${this.failed.size} requirement(s) failed, ${seconds(elapsed)}${left}`;
  }
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
