import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What every process of a run would otherwise work out again from openapi.yaml and the catalogue (the
 * runner and each worker load both): their parse, and the validators compiled from the contract. Kept in
 * this user's private directory, each entry named by a hash of everything it was made from, so a changed
 * input is a new entry and never a stale one. Where no private directory can be had (not POSIX; not ours,
 * a link, or open to others) nothing is cached and everything is simply worked out again.
 */
function cacheDirectory(): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const directory = join(tmpdir(), `oms-conformance-cache-${uid}`);
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const stat = lstatSync(directory);
    return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0 ? directory : undefined;
  } catch {
    return undefined;
  }
}

let directory: string | null | undefined;

/** The file of an entry: `kind`, then the hash of `madeFrom`, then `extension`. */
function entryFile(kind: string, madeFrom: string, extension: string): string | undefined {
  if (directory === undefined) directory = cacheDirectory() ?? null;
  if (directory === null) return undefined;
  return join(directory, `${kind}-${createHash('sha256').update(madeFrom).digest('hex')}.${extension}`);
}

/** The entry made from `madeFrom`, or undefined when there is none (yet). */
export function readCached(kind: string, madeFrom: string, extension: string): string | undefined {
  const file = entryFile(kind, madeFrom, extension);
  if (!file) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Keeps an entry; one that cannot be written costs only the work next time. */
export function writeCached(kind: string, madeFrom: string, extension: string, text: string): void {
  const file = entryFile(kind, madeFrom, extension);
  if (!file) return;
  try {
    // Written whole under another name, then renamed: a reader never sees half a file.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, text, { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    // Nothing to do: the next process works it out again.
  }
}
