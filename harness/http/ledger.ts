import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AccountName } from '../api';
import { currentRunId, readSetting } from '../../config/settings';
import { RUN_ID_PATTERN } from '../../config/values';
import { redact } from './redaction';

/**
 * The ledger of a run: every order it created (run id, order id, account, time, base URL), appended the
 * moment the create response arrives, and every order it deleted. `oms-conformance cleanup --run-id ID`
 * deletes what a crashed run left behind, and nothing else. One JSON Lines file per run:
 * <OMS_LEDGER_DIR>/<run id>.jsonl.
 */
export interface LedgerEntry {
  event: 'created' | 'deleted';
  runId: string;
  orderId: string;
  account: AccountName;
  /** ISO 8601 time the entry was written. */
  at: string;
  baseUrl: string;
}

export function ledgerFile(directory: string, runId: string): string {
  if (!RUN_ID_PATTERN.test(runId)) throw new Error(`Run id ${JSON.stringify(runId)} may hold only letters, digits, ".", "_" and "-"`);
  return join(directory, `${runId}.jsonl`);
}

/** A run id that sorts by time: 20260101T120000Z-1a2b3c. */
export function newRunId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')}-${randomBytes(3).toString('hex')}`;
}

export class Ledger {
  constructor(
    readonly file: string,
    readonly runId: string,
    private readonly baseUrl: string,
  ) {}

  created(orderId: string, account: AccountName): void {
    this.append('created', orderId, account);
  }

  deleted(orderId: string, account: AccountName): void {
    this.append('deleted', orderId, account);
  }

  // Synchronous on purpose: the entry is on disk before the test goes on, so a crash cannot lose it.
  private append(event: LedgerEntry['event'], orderId: string, account: AccountName): void {
    // A server may put a secret it was sent into an id: the ledger is output too.
    const entry: LedgerEntry = { event, runId: this.runId, orderId: redact(orderId), account, at: new Date().toISOString(), baseUrl: this.baseUrl };
    mkdirSync(dirname(this.file), { recursive: true });
    appendFileSync(this.file, `${JSON.stringify(entry)}\n`);
  }
}

let current: Ledger | undefined;

/** This process's ledger, under the run id all workers of a run share (config/settings.ts, currentRunId). */
export function runLedger(env: NodeJS.ProcessEnv = process.env): Ledger {
  if (current) return current;
  const runId = currentRunId(env);
  current = new Ledger(ledgerFile(readSetting('ledgerDir', env), runId), runId, readSetting('baseUrl', env) ?? '');
  return current;
}

/** The entries of a ledger file; a torn last line (a crash mid-write) is ignored. */
export function readLedger(file: string): LedgerEntry[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line) as LedgerEntry;
        return entry && typeof entry.orderId === 'string' && (entry.event === 'created' || entry.event === 'deleted') ? [entry] : [];
      } catch {
        return [];
      }
    });
}

/** Orders a ledger records as created and not (yet) as deleted, in the order they were created. */
export function leftovers(entries: LedgerEntry[]): LedgerEntry[] {
  const key = (e: LedgerEntry) => JSON.stringify([e.baseUrl, e.account, e.orderId]);
  const open = new Map<string, LedgerEntry>();
  for (const entry of entries) {
    if (entry.event === 'created') open.set(key(entry), entry);
    else open.delete(key(entry));
  }
  return [...open.values()];
}

/** The run ids that have a ledger in a directory, oldest first. */
export function ledgerRuns(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => name.slice(0, -'.jsonl'.length))
    .filter((runId) => RUN_ID_PATTERN.test(runId))
    .sort();
}
