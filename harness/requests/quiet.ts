import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { currentRunId } from '../../config/settings';

/**
 * Quiet for list views: while a worker of this run reads a view of several pages, the run's writes wait,
 * so that on a slow server its own parallel tests do not change the view every time (other clients' writes
 * are still met by reading each view twice and retrying: see listing.ts). Readers share: any number of
 * workers read at once. Writes that wait hold new readers back until they have gone, so neither side
 * starves, and every wait is bounded: a write that goes ahead only costs a reader a second look, never a
 * wrong verdict. State is one file per worker in two directories of the run, keyed by its id.
 */
function directories(runId: string): { readers: string; writers: string; quiet: string } {
  const base = join(tmpdir(), `oms-conformance-quiet-${runId.replace(/[^A-Za-z0-9._-]/g, '_')}`);
  return { readers: `${base}.readers`, writers: `${base}.writers`, quiet: `${base}.quiet` };
}

const { readers: READERS, writers: WRITERS, quiet: QUIET } = directories(currentRunId());
const MARK = String(process.pid);
/** A file not touched for this long was left by a worker that died. */
const FRESH_MS = 10_000;
/** How often a reader touches its file while it reads. */
const REFRESH_MS = 2_000;
/** Reads of this worker that start within this time of its turn share it; later ones wait for the next turn. */
const JOIN_WINDOW_MS = 1_000;
/** The longest a write waits for readers, and a reader for waiting writes to go. */
const MAX_WRITE_WAIT_MS = 5_000;
const MAX_READ_WAIT_MS = 2_000;
/** The longest a sequence waits for another worker's to end (whileQuiet). */
const MAX_QUIET_WAIT_MS = 10_000;
const POLL_MS = 20;

/** This worker's turn at reading: the reads sharing it, and when it is over. */
interface Turn {
  ready: Promise<void>;
  since: number;
  readers: number;
  over: Promise<void>;
  end(): void;
}

let turn: Turn | undefined;
let waitingWrites = 0;
/** This worker holds others' writes for a sequence of its own (whileQuiet): its own writes go ahead. */
let writingAlone = false;

/** Reads a list view while this run's writes wait. Reads of one worker that start together (the runs of a generated test) share one turn. */
export async function whileReading<T>(read: () => Promise<T>): Promise<T> {
  const mine = await joinTurn();
  try {
    return await read();
  } finally {
    leaveTurn(mine);
  }
}

/**
 * Runs a sequence of this worker's requests, writes included, while this run's other workers hold their
 * writes and read nothing: a write to an order just deleted must not meet another test's create that took
 * the deleted id (a server may give it to the next order, ORD-OBS-022). Other workers' turns end first
 * (waited for a bounded time).
 */
export async function whileQuiet<T>(act: () => Promise<T>): Promise<T> {
  // One worker at a time: two that each joined the readers and waited for the other's turn to end each waited it out (5 s, one quick run in seven).
  const held = await holdQuiet();
  const refreshHold = held ? setInterval(() => touch(QUIET), REFRESH_MS) : undefined;
  refreshHold?.unref();
  try {
    return await whileReading(async () => {
      const until = Date.now() + MAX_WRITE_WAIT_MS;
      while (Date.now() < until && othersPresent(READERS)) await sleep(POLL_MS);
      writingAlone = true;
      try {
        return await act();
      } finally {
        writingAlone = false;
      }
    });
  } finally {
    clearInterval(refreshHold);
    if (held) releaseQuiet();
  }
}

/** The run's one quiet sequence, taken (a file made only if absent), or not within MAX_QUIET_WAIT_MS: the sequence then goes ahead unheld. */
async function holdQuiet(): Promise<boolean> {
  const until = Date.now() + MAX_QUIET_WAIT_MS;
  for (;;) {
    try {
      writeFileSync(QUIET, MARK, { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
    }
    const since = statSync(QUIET, { throwIfNoEntry: false })?.mtimeMs;
    // Left by a worker that died.
    if (since !== undefined && Date.now() - since >= FRESH_MS) remove(QUIET);
    else if (Date.now() >= until) return false;
    else await sleep(POLL_MS);
  }
}

function releaseQuiet(): void {
  try {
    if (readFileSync(QUIET, 'utf8') === MARK) remove(QUIET);
  } catch {
    // Already gone.
  }
}

async function joinTurn(): Promise<Turn> {
  for (;;) {
    if (turn && Date.now() - turn.since < JOIN_WINDOW_MS) {
      const joined = turn;
      joined.readers++;
      await joined.ready;
      return joined;
    }
    if (turn) {
      await turn.over;
      continue;
    }
    let end = () => {};
    const over = new Promise<void>((resolve) => (end = resolve));
    const started: Turn = { ready: startReading(), since: Date.now(), readers: 1, over, end };
    turn = started;
    await started.ready;
    started.since = Date.now();
    return started;
  }
}

let refresh: NodeJS.Timeout | undefined;

async function startReading(): Promise<void> {
  // Writes already waiting go first.
  const until = Date.now() + MAX_READ_WAIT_MS;
  while (Date.now() < until && othersPresent(WRITERS)) await sleep(POLL_MS);
  mark(READERS);
  refresh = setInterval(() => touch(join(READERS, MARK)), REFRESH_MS);
  refresh.unref();
}

function leaveTurn(mine: Turn): void {
  if (--mine.readers > 0) return;
  if (turn === mine) turn = undefined;
  clearInterval(refresh);
  remove(join(READERS, MARK));
  mine.end();
}

/** Waits while this run's readers (in this worker or another) read a list view, for a bounded time. */
export async function beforeWrite(): Promise<void> {
  // Asked before every write: nobody reading costs one directory listing.
  if (writingAlone || !present(READERS)) return;
  if (waitingWrites++ === 0) mark(WRITERS);
  try {
    const until = Date.now() + MAX_WRITE_WAIT_MS;
    while (Date.now() < until && present(READERS)) await sleep(POLL_MS);
  } finally {
    if (--waitingWrites === 0) remove(join(WRITERS, MARK));
  }
}

/** Removes the run's directories (global teardown). */
export function forgetQuiet(runId: string): void {
  for (const directory of Object.values(directories(runId))) rmSync(directory, { recursive: true, force: true });
}

/** Whether a live worker holds a file there (this one included). */
function present(directory: string): boolean {
  return fresh(directory).length > 0;
}

/** Whether another live worker holds a file there. */
function othersPresent(directory: string): boolean {
  return fresh(directory).some((name) => name !== MARK);
}

function fresh(directory: string): string[] {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return [];
  }
  const now = Date.now();
  return names.filter((name) => now - (statSync(join(directory, name), { throwIfNoEntry: false })?.mtimeMs ?? 0) < FRESH_MS);
}

/** This worker's file in a directory, made with the directory the first time. */
function mark(directory: string): void {
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, MARK), '');
}

function touch(file: string): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // Gone: the turn ended meanwhile.
  }
}

function remove(file: string): void {
  rmSync(file, { force: true });
}
