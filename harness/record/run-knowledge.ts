import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentRunId } from '../../config/settings';

/**
 * What this run already knows, shared by its workers: the requirements some test has already seen
 * violated. A generated test that fails one of them again reports its first counterexample without
 * shrinking it (the requirement is proved failed; shrinking would only repeat requests).
 * One small file per run, keyed by OMS_RUN_ID (set by the conformance reporter before the workers start).
 */
export function runKnowledgeFile(runId = currentRunId()): string {
  return join(tmpdir(), `oms-conformance-failed-${runId.replace(/[^\w.-]/g, '_')}`);
}

/** Records requirements as violated in this run (one id per line; appends are atomic at this size). */
export function recordViolated(ids: Iterable<string>): void {
  const lines = [...new Set(ids)].map((id) => `${id}\n`).join('');
  if (lines) appendFileSync(runKnowledgeFile(), lines);
}

/** Whether a test of this run, in any worker, has already seen the requirement violated. */
export function knownViolated(id: string): boolean {
  try {
    return readFileSync(runKnowledgeFile(), 'utf8').split('\n').includes(id);
  } catch {
    return false;
  }
}

/** Removes the run's file (global teardown; the runner holds the run id as its workers do). */
export function forgetRun(runId: string): void {
  rmSync(runKnowledgeFile(runId), { force: true });
}
