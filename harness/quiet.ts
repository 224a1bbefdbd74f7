import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { check, lock } from 'proper-lockfile';
import { currentRunId } from '../config/settings';

// One lock per run, shared by its workers (all children of the same runner process).
const READING = join(tmpdir(), `oms-conformance-reading-${currentRunId()}`);
/** The directory proper-lockfile makes while READING is locked; beforeWrite looks for it before asking proper-lockfile. */
const LOCK_DIRECTORY = `${READING}.lock`;
/**
 * proper-lockfile refreshes a held lock every STALE_MS / 2, however long the read takes: only a lock
 * left by a worker that died goes stale.
 */
const LOCK_OPTIONS = { realpath: false, stale: 10_000, lockfilePath: LOCK_DIRECTORY };

/**
 * Reads a list view while this run's other workers hold their writes. On a slow server a view of
 * several pages takes long enough that the suite's own parallel tests would change it every time;
 * other clients' writes are still met by reading the view twice and retrying (see listing.ts).
 */
export async function whileReading<T>(read: () => Promise<T>): Promise<T> {
  return holdingOthersWrites(read);
}

/** This worker holds the lock for a sequence of its own writes (whileQuiet): its own writes go ahead. */
let writingAlone = false;

/**
 * Runs a sequence of this worker's requests, writes included, while this run's other workers hold their
 * writes: a write to an order just deleted must not meet another test's create that took the deleted id
 * (a server may give it to the next order, ORD-OBS-022).
 */
export async function whileQuiet<T>(act: () => Promise<T>): Promise<T> {
  return holdingOthersWrites(async () => {
    writingAlone = true;
    try {
      return await act();
    } finally {
      writingAlone = false;
    }
  });
}

async function holdingOthersWrites<T>(act: () => Promise<T>): Promise<T> {
  const release = await lock(READING, {
    ...LOCK_OPTIONS,
    retries: { forever: true, minTimeout: 20, maxTimeout: 20 },
    // A lock lost to a stalled event loop costs only quiet: the view is still read twice and compared.
    onCompromised: () => undefined,
  });
  try {
    return await act();
  } finally {
    // A compromised lock is gone already; there is nothing left to release.
    await release().catch(() => undefined);
  }
}

/** Waits while another worker of this run reads a list view. */
export async function beforeWrite(): Promise<void> {
  // Asked before every write: a lock that does not exist (one worker, or nobody reading) costs one sync stat, not proper-lockfile's check.
  while (!writingAlone && existsSync(LOCK_DIRECTORY) && (await check(READING, LOCK_OPTIONS))) await sleep(20);
}
