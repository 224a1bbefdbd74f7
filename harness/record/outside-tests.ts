import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { responseChecks } from '../../checks/body';
import type { Exchange } from '../../contract/exchange';
import { currentRunId } from '../../config/settings';
import { toRecord, type FindingRecord } from './findings';

/**
 * The exchanges a run makes outside any test (the global setup's preflight and sign-in, a worker's own token
 * renewals, its cleanup's deletes, the example orders made ahead that no test took) are held to what every
 * response must be (checks/body.ts responseChecks), like every answer of a test. A violation has no test to be
 * attached to: it goes in one file per run (JSON Lines, keyed by the run id, like run-knowledge.ts), and the
 * conformance reporter fails its requirement with it, under the name of where it was met (`where`).
 */
export interface OutsideFinding {
  /** Where in the run the exchange was made, as the report names it in place of a test: "the worker's cleanup: …". */
  where: string;
  record: FindingRecord;
}

export function outsideTestsFile(runId = currentRunId()): string {
  return join(tmpdir(), `oms-conformance-outside-${runId.replace(/[^\w.-]/g, '_')}.jsonl`);
}

/** Judges an exchange made outside any test by the checks every response gets; each violation is kept for the report. */
export function judgeOutsideTests(where: string, exchange: Exchange, runId = currentRunId()): void {
  const lines = responseChecks(exchange)
    .flatMap((judgement) => (judgement?.finding ? [JSON.stringify({ where, record: toRecord(judgement.finding) } satisfies OutsideFinding)] : []))
    .join('\n');
  if (lines) appendFileSync(outsideTestsFile(runId), `${lines}\n`);
}

/** What the run's exchanges outside the tests violated; the file is removed (it is read once, at the end of the run). */
export function takeOutsideFindings(runId: string): OutsideFinding[] {
  rmSync(cleanedUpFile(runId), { force: true });
  const findings = readOutsideFindings(outsideTestsFile(runId));
  rmSync(outsideTestsFile(runId), { force: true });
  return findings;
}

/** The file of a shard's outside findings, in its blob report's folder. */
export const OUTSIDE_FINDINGS_FILE = 'outside-tests.jsonl';

/**
 * Outside findings kept in a file of their own: a shard's, next to its blob report, for `merge` to hand on to
 * the merged run (keepOutsideFindings), since the merged report is built from the shards' tests alone.
 */
export function keepOutsideFindings(findings: OutsideFinding[], file: string): void {
  if (findings.length) appendFileSync(file, findings.map((finding) => `${JSON.stringify(finding)}\n`).join(''));
}

/** The outside findings a file holds (none if it is missing); a line that is not one is left out. */
export function readOutsideFindings(file: string): OutsideFinding[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as OutsideFinding;
      return typeof parsed?.where === 'string' && typeof parsed.record?.requirementId === 'string' ? [parsed] : [];
    } catch {
      return [];
    }
  });
}

/** The marker a worker leaves once its cleanup is over: after it, no more exchanges outside tests come from it. */
function cleanedUpFile(runId: string): string {
  return `${outsideTestsFile(runId)}.cleaned-up`;
}

/** A worker's cleanup is over (its deletes judged). */
export function noteCleanedUp(runId = currentRunId()): void {
  appendFileSync(cleanedUpFile(runId), 'w');
}

/**
 * Waits, at most `withinMs`, for a worker of the run to end its cleanup: a reporter that ends a run at its last
 * test (one project of several, selftest/support/reports-by-project.ts) would otherwise miss what the cleanup found.
 */
export async function cleanedUp(runId: string, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (!existsSync(cleanedUpFile(runId))) {
    if (Date.now() >= until) return false;
    await sleep(50);
  }
  rmSync(cleanedUpFile(runId), { force: true });
  return true;
}
