/**
 * How much the suite sends at once, from the round trip to the server. A worker runs the bodies of many tests at
 * once (harness/schedule/scheduler.ts), so one worker waits a round trip for many tests: one worker on the same
 * machine and across a network alike (a second worker costs a process, ~170 MB and start-up CPU, and a second
 * phase). On the same machine the CPU is the limit, so few requests in flight; across a network the wait is, so
 * more, up to the requests a second four workers of sixteen each sent a server 20 ms away.
 */
export const SAME_MACHINE_MS = 10;

/** A server a round trip of SAME_MACHINE_MS or more away: the wait, not the CPU, bounds a run. */
export function acrossNetwork(roundTripMs: number | undefined): boolean {
  return roundTripMs !== undefined && roundTripMs >= SAME_MACHINE_MS;
}

export function defaultWorkers(): number {
  return 1;
}

/**
 * Requests in flight of the whole run: 4 on the same machine, then as many as 800 a second need (0.8 per ms of round
 * trip), from 16 to 96: a server never sees more requests a second than four workers of sixteen sent it 20 ms away.
 */
export function defaultConcurrency(roundTripMs: number | undefined): number {
  if (roundTripMs === undefined || !acrossNetwork(roundTripMs)) return 4;
  return Math.min(MOST_IN_FLIGHT, Math.max(16, Math.ceil(roundTripMs * 0.8)));
}

const MOST_IN_FLIGHT = 96;
