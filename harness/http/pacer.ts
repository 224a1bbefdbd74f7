import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Spaces requests evenly so one process sends at most `requestsPerSecond`. The suite's cap
 * (OMS_MAX_RPS) is shared by dividing it among the workers, so together they never exceed it.
 */
export function pacer(requestsPerSecond: number): () => Promise<void> {
  const interval = 1000 / requestsPerSecond;
  let next = 0;
  return async () => {
    const now = Date.now();
    const slot = Math.max(now, next);
    next = slot + interval;
    if (slot > now) await sleep(slot - now);
  };
}
