import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentRunId } from '../config/settings';

// One lock per run, shared by its workers (all children of the same runner process).
const LOCK = join(tmpdir(), `oms-conformance-reading-${currentRunId()}`);
/** A lock older than this was left by a worker that died: it no longer holds anything. */
const STALE_MS = 15_000;

/**
 * Reads a list view while this run's other workers hold their writes. On a slow server a view of
 * several pages takes long enough that the suite's own parallel tests would change it every time;
 * other clients' writes are still met by reading the view twice and retrying (see listing.ts).
 */
export async function whileReading<T>(read: () => Promise<T>): Promise<T> {
  while (!tryLock()) await sleep(20);
  try {
    return await read();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Waits, bounded, while another worker of this run reads a list view. */
export async function beforeWrite(): Promise<void> {
  while (isLocked()) await sleep(20);
}

function isLocked(): boolean {
  try {
    return Date.now() - statSync(LOCK).mtimeMs < STALE_MS;
  } catch {
    return false;
  }
}

function tryLock(): boolean {
  try {
    mkdirSync(LOCK);
    return true;
  } catch {
    if (!isLocked()) rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
