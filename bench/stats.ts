/** Small statistics for repeated measurements: every figure the bench reports is a median. */

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** a / b, or NaN when b is not a positive number. */
export function ratio(a: number, b: number): number {
  return b > 0 ? a / b : NaN;
}

/** Rounds to a given number of decimals (JSON output stays readable). */
export function round(value: number, decimals = 1): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Milliseconds since an arbitrary origin, with sub-millisecond resolution. */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** CPU time (user + system) this process used since `since` (process.cpuUsage()), in milliseconds. */
export function cpuMsSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** Wall times of repeated runs of one command, with their median and CPU time. */
export interface WallTimes {
  runs: number;
  wallMs: number[];
  medianMs: number | null;
  /** CPU time (user + system) of the command and its processes, median; null off Linux or without runs. */
  medianCpuMs: number | null;
  /** The most resident memory the command and its processes held at once (MiB), median of the runs; null off Linux or without runs. */
  medianPeakMiB: number | null;
  exitCodes: number[];
  /** Requests the run's tests sent (its report's count), and orders it created (its ledger's), median of the runs; null without them. */
  medianRequests: number | null;
  medianOrdersCreated: number | null;
}
