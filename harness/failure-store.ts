import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { suitePackage } from '../config/seed';
import type { Settings } from '../config/settings';

/**
 * The failure store (OMS_FAILURE_STORE, as Hypothesis' example database): every counterexample a generated
 * test finds, one file each, replayed before that test draws new inputs in every later run, against any
 * server. An entry names its test and requirement and holds the shrunk input itself where the input has an
 * exact JSON form (it survives a new server and a new suite version), otherwise fast-check's seed and path
 * (a model-based command sequence: the same inputs while the generators stay as they were). Entries are
 * never removed by a run: one that passes here may fail on the next server; its file is deleted by hand.
 * Workers write side by side: each entry is its own file, written whole under a temporary name and renamed.
 */

/** The format of an entry's file. */
const FORMAT = 1;

export interface StoredFailure {
  format: typeof FORMAT;
  /** The test, as its file and titles name it (stable across line changes). */
  test: string;
  /** The requirement it failed when found. */
  requirement: string;
  /** The shrunk input, replayed as it is; absent where it has no exact JSON form. */
  input?: unknown;
  /** fast-check's seed and path of the counterexample (with `@replayPath` for a model-based test). */
  seed: number;
  path: string;
  /** The suite version that found it: a seed and path replay the same input only with the same generators. */
  suiteVersion: string;
}

/** An entry as read back: its file's name, for the report. */
export interface StoredEntry extends StoredFailure {
  file: string;
}

/** What a file of the store may be called: only what the store writes (a slug and a hash), nothing to resolve elsewhere. */
const ENTRY_NAME = /^[a-z0-9-]{1,60}-[0-9a-f]{16}\.json$/;

export class FailureStore {
  constructor(readonly directory: string) {}

  /** The store a run uses, or undefined when it is off (OMS_FAILURE_STORE=off). */
  static of(settings: Pick<Settings, 'failureStore'>): FailureStore | undefined {
    return settings.failureStore === false ? undefined : new FailureStore(resolve(settings.failureStore));
  }

  /** The entries of one test, in the order of their file names (the same order every run). */
  entriesOf(test: string): StoredEntry[] {
    if (!existsSync(this.directory)) return [];
    return readdirSync(this.directory)
      .filter((name) => ENTRY_NAME.test(name))
      .sort()
      .flatMap((file) => {
        const entry = readEntry(join(this.directory, file));
        return entry?.test === test ? [{ ...entry, file }] : [];
      });
  }

  /**
   * Keeps a counterexample; one already kept (same test, same input) is left as it is. Returns the entry's file
   * name, or undefined when it could not be written (said on stderr: the failure itself is still reported).
   */
  keep(failure: Omit<StoredFailure, 'format' | 'suiteVersion' | 'input'> & { input: unknown }): string | undefined {
    const exact = hasExactJson(failure.input);
    const entry: StoredFailure = {
      format: FORMAT,
      test: failure.test,
      requirement: failure.requirement,
      ...(exact && { input: failure.input }),
      seed: failure.seed,
      path: failure.path,
      suiteVersion: suitePackage().version,
    };
    const identity = exact ? JSON.stringify(failure.input) : `${entry.suiteVersion} ${failure.seed} ${failure.path}`;
    const file = `${slug(failure.test)}-${createHash('sha256').update(`${failure.test}\0${identity}`).digest('hex').slice(0, 16)}.json`;
    const target = join(this.directory, file);
    if (existsSync(target)) return file;
    // Written whole, then renamed into place: a worker reading the store never sees half an entry.
    const temporary = join(this.directory, `.${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    try {
      mkdirSync(this.directory, { recursive: true });
      writeFileSync(temporary, `${JSON.stringify(entry, null, 2)}\n`);
      renameSync(temporary, target);
      return file;
    } catch (error) {
      if (existsSync(temporary)) rmSync(temporary, { force: true });
      console.warn(`oms-conformance: could not keep a counterexample in the failure store ${this.directory} (OMS_FAILURE_STORE): ${(error as Error).message}`);
      return undefined;
    }
  }
}

/** An entry file, or undefined when it is not one (a foreign or damaged file is left alone, never fatal). */
function readEntry(path: string): StoredFailure | undefined {
  try {
    const entry = JSON.parse(readFileSync(path, 'utf8')) as Partial<StoredFailure>;
    const valid =
      entry.format === FORMAT &&
      typeof entry.test === 'string' &&
      typeof entry.requirement === 'string' &&
      Number.isInteger(entry.seed) &&
      typeof entry.path === 'string' &&
      /^\d+(:\d+)*(@[\d:]+)?$/.test(entry.path) &&
      typeof entry.suiteVersion === 'string';
    return valid ? (entry as StoredFailure) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether JSON carries the value exactly: plain objects and arrays of finite numbers (not -0), strings, booleans and null. */
export function hasExactJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (!(index in value) || !hasExactJson(value[index])) return false;
    return true;
  }
  if (typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(value).every(hasExactJson);
}

/** The start of an entry's file name: the test's words, lower case, so a reader of the folder sees whose it is. */
function slug(test: string): string {
  return (
    test
      .toLowerCase()
      .replace(/\.spec\.ts\b/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'test'
  );
}
