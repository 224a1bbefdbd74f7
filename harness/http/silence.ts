import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Timeouts in a row, across the run's workers, after which the server counts as silent and the run stops. */
export const SILENT_AFTER_TIMEOUTS = 3;

/**
 * Shared by the run's workers through two files in the temp area keyed by the run id (the reporter sets
 * OMS_RUN_ID before the workers start): a tally of timeouts since the last answer, and, once the tally
 * reaches the threshold, the reason the run stopped. A server that stops answering then costs a few
 * timeouts, not one per remaining test.
 */
function files(runId: string): { tally: string; stopped: string } {
  let paths = filesOfRun.get(runId);
  if (!paths) {
    const base = join(tmpdir(), `oms-conformance-silence-${runId.replace(/[^A-Za-z0-9._-]/g, '_')}`);
    paths = { tally: `${base}.tally`, stopped: `${base}.stopped` };
    filesOfRun.set(runId, paths);
  }
  return paths;
}

/** Asked on every exchange: the paths are made once per run id. */
const filesOfRun = new Map<string, { tally: string; stopped: string }>();

/** A request got no complete answer within the timeout. */
export function noteTimeout(runId: string, timeoutMs: number): void {
  const { tally, stopped } = files(runId);
  appendFileSync(tally, 't');
  changed(tally);
  if (size(tally) >= SILENT_AFTER_TIMEOUTS && size(stopped) === 0) {
    writeFileSync(
      stopped,
      `the server stopped answering: ${SILENT_AFTER_TIMEOUTS} requests in a row got no complete answer within ${timeoutMs} ms ` +
        '(OMS_REQUEST_TIMEOUT_MS), so the run stopped and the remaining tests were skipped. ' +
        'Check that the server is up, or raise OMS_REQUEST_TIMEOUT_MS if it is only slow.',
    );
    changed(stopped);
  }
}

/** A request got an answer: the server is not silent, the tally starts again. */
export function noteAnswer(runId: string): void {
  const { tally } = files(runId);
  if (recentSize(tally) > 0) {
    writeFileSync(tally, '');
    changed(tally);
  }
}

/** Why the run stopped because the server went silent, or undefined while it answers. */
export function serverWentSilent(runId: string): string | undefined {
  const { stopped } = files(runId);
  if (recentSize(stopped) === 0) return undefined;
  return readFileSync(stopped, 'utf8');
}

/** 0 for a file that does not exist, without throwing: this runs twice per exchange, and a thrown ENOENT costs a stack trace. */
function size(file: string): number {
  try {
    return statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  } catch {
    return 0;
  }
}

/**
 * How long a file's size read for an exchange stands for the next ones: another worker's timeout or answer is seen
 * that much later at most, and a run of many requests in flight asks the file system a few times a second, not twice
 * an exchange. This worker's own writes are seen at once.
 */
const SIZE_FRESH_MS = 50;
const sizes = new Map<string, { size: number; readAt: number }>();

function recentSize(file: string): number {
  const now = Date.now();
  const known = sizes.get(file);
  if (known && now - known.readAt < SIZE_FRESH_MS) return known.size;
  const read = size(file);
  sizes.set(file, { size: read, readAt: now });
  return read;
}

/** This worker changed the file: its size is read again when next asked. */
function changed(file: string): void {
  sizes.delete(file);
}
