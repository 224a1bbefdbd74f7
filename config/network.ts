/**
 * How much the suite sends at once, from the round trip to the server: on the same machine the CPU is the
 * limit, so one worker beside the server, every test in one phase (config/phases.ts: a phase's new workers
 * cost more CPU than a second worker saves); across a network the wait is, so more requests in flight.
 * Workers stay at 4 there (about 170 MB each, the runner's as much again: about 1 GiB in all); the rest of
 * the concurrency is requests in flight inside each worker, which cost almost nothing while they wait.
 */
export const SAME_MACHINE_MS = 10;

export function defaultWorkers(roundTripMs: number | undefined): number {
  return roundTripMs === undefined || roundTripMs < SAME_MACHINE_MS ? 1 : 4;
}

export function defaultConcurrency(roundTripMs: number | undefined): number {
  if (roundTripMs === undefined || roundTripMs < SAME_MACHINE_MS) return 4;
  return Math.min(16, Math.max(4, Math.ceil(roundTripMs / 10)));
}

/** Example orders each account makes ahead of the tests that need one (harness/order-pool.ts): none on the same machine, where a create costs no wait. */
export function ordersMadeAhead(roundTripMs: number | undefined): number {
  return roundTripMs === undefined || roundTripMs < SAME_MACHINE_MS ? 0 : 2;
}
