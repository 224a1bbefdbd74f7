import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { currentRunId, readSetting, type AccountName } from '../../config/settings';
import { RUN_ID_PATTERN } from '../../config/values';
import { redact } from '../../config/redaction';
import { REFERENCE_PATTERN } from '../../contract/examples';
import { isSuccess } from '../../checks/status';
import { createdIdOf, type Sender } from './stage';
import { RateLimitedError } from './pace';
import type { Exchange } from '../../contract/exchange';

/**
 * The ledger of a run: every create it sends, written before the request goes out (with the body's
 * marker: the customer name that carries the suite's reference), and what came of it, written the moment
 * the answer arrives: the order it created (order id), or an answer that made none; and every order it
 * deleted. `oms-conformance cleanup --run-id ID` deletes what a crashed run left behind, and nothing
 * else: the orders created, and those a create still in flight when the run died made, found in the
 * account by their marker. One JSON Lines file per run: <OMS_LEDGER_DIR>/<run id>.jsonl.
 */
export interface LedgerEntry {
  /** creating: a create is being sent; created: it made orderId; answered: it got an answer that made no order; deleted. */
  event: 'creating' | 'created' | 'answered' | 'deleted';
  runId: string;
  /** The order (created, deleted); empty for creating and answered. */
  orderId: string;
  account: AccountName;
  /** ISO 8601 time the entry was written. */
  at: string;
  baseUrl: string;
  /** creating, created, answered: the create body's marker (markerOf), absent for a body that carries none. */
  marker?: string;
}

const EVENTS: ReadonlyArray<LedgerEntry['event']> = ['creating', 'created', 'answered', 'deleted'];

/**
 * The marker of a create body: its customer name when it holds the suite's reference (contract/examples
 * reference(): oms-conformance- and 8 hex digits), which no other client's order carries. The list
 * summary shows the customer name (2.7), so an order a create made is found again by it. Generated
 * bodies carry none.
 */
export function markerOf(body: unknown): string | undefined {
  const name = (body as { customer?: { name?: unknown } } | undefined)?.customer?.name;
  return typeof name === 'string' && REFERENCE_PATTERN.test(name) ? name : undefined;
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

  /** Before a create is sent: a kill while it is in flight leaves this entry, and cleanup looks for what it made. */
  creating(account: AccountName, marker: string | undefined): void {
    this.append('creating', '', account, marker);
  }

  created(orderId: string, account: AccountName, marker?: string): void {
    this.append('created', orderId, account, marker);
  }

  /** A create answered without making an order (refused, or no id): nothing to look for. */
  answered(account: AccountName, marker: string | undefined): void {
    this.append('answered', '', account, marker);
  }

  deleted(orderId: string, account: AccountName): void {
    this.append('deleted', orderId, account);
  }

  // Synchronous on purpose: the entry is on disk before the test goes on, so a crash cannot lose it.
  private append(event: LedgerEntry['event'], orderId: string, account: AccountName, marker?: string): void {
    // A server may put a secret it was sent into an id: the ledger is output too.
    const entry: LedgerEntry = { event, runId: this.runId, orderId: redact(orderId), account, at: new Date().toISOString(), baseUrl: this.baseUrl, ...(marker !== undefined && { marker }) };
    const line = `${JSON.stringify(entry)}\n`;
    try {
      appendFileSync(this.file, line);
    } catch (error) {
      // The folder is made on the first entry only: asking on every entry cost a system call per request.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(dirname(this.file), { recursive: true });
      appendFileSync(this.file, line);
    }
  }
}

/**
 * The ledger stage of the request pipeline: a create goes in before it is sent (so an order a create in flight
 * makes is found after a kill), and what it made goes in once answered, whatever the checks later say; an
 * accepted delete that releases an order of the run (the ownership stage says so) goes in once answered.
 */
export function ledgered(next: Sender): Sender {
  return {
    async send(request) {
      const { account } = request;
      if (request.operation === 'createOrder') {
        const marker = markerOf(request.spec.json);
        runLedger().creating(account, marker);
        let exchange: Exchange;
        try {
          exchange = await next.send(request);
        } catch (error) {
          // Every answer was a 429, or it was never sent: no order was made. Any other failure may have made one.
          if (error instanceof RateLimitedError) runLedger().answered(account, marker);
          throw error;
        }
        const id = createdIdOf(exchange);
        if (id === undefined) runLedger().answered(account, marker);
        else runLedger().created(id, account, marker);
        return exchange;
      }
      const exchange = await next.send(request);
      if (request.spec.method === 'DELETE' && request.releases && isSuccess(exchange.status)) runLedger().deleted(request.orderId, account);
      return exchange;
    },
  };
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
        return entry && typeof entry.orderId === 'string' && EVENTS.includes(entry.event) ? [entry] : [];
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

/**
 * Creates a ledger records as sent and not answered: a run killed while they were in flight. Each may
 * have made an order the ledger knows nothing of; cleanup finds it by the marker, if the body had one.
 */
export function inFlight(entries: LedgerEntry[]): LedgerEntry[] {
  const key = (e: LedgerEntry) => JSON.stringify([e.baseUrl, e.account, e.marker ?? null]);
  const open = new Map<string, LedgerEntry[]>();
  for (const entry of entries) {
    if (entry.event === 'creating') open.set(key(entry), [...(open.get(key(entry)) ?? []), entry]);
    else if (entry.event === 'created' || entry.event === 'answered') open.get(key(entry))?.shift();
  }
  return [...open.values()].flat();
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
