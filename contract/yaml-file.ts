import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

/**
 * A YAML file of the project (openapi.yaml, requirements/catalogue.yaml), parsed. The runner and every
 * worker of a run need both, and loading the yaml package and parsing them costs ~0.3 CPU-s a process
 * where JSON.parse of the same takes ~1 ms: so the parse is kept as JSON in this user's private cache
 * directory, keyed by the file's text and the parser's version. Any doubt about the cache (not ours,
 * unreadable, a value JSON cannot hold) and the file is simply parsed.
 */
export function readYamlFile(path: string): unknown {
  const text = readFileSync(path, 'utf8');
  const cached = cacheFile(text);
  if (cached) {
    try {
      return JSON.parse(readFileSync(cached, 'utf8')) as unknown;
    } catch {
      // Not there yet, or unreadable: parsed below.
    }
  }
  const value = (require('yaml') as typeof import('yaml')).parse(text) as unknown;
  if (cached) {
    const json = JSON.stringify(value);
    if (isDeepStrictEqual(JSON.parse(json), value)) {
      try {
        // Written whole under another name, then renamed: a reader never sees half a file.
        const partial = `${cached}.${process.pid}`;
        writeFileSync(partial, json, { mode: 0o600 });
        renameSync(partial, cached);
      } catch {
        // A cache that cannot be written costs only the parse.
      }
    }
  }
  return value;
}

/** Where the parse of this text is cached, or undefined where no private directory can be had (not POSIX; not ours, a link, or open to others). */
function cacheFile(text: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const directory = join(tmpdir(), `oms-conformance-cache-${uid}`);
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const stat = lstatSync(directory);
    if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) return undefined;
  } catch {
    return undefined;
  }
  const version = (require('yaml/package.json') as { version: string }).version;
  return join(directory, `yaml-${createHash('sha256').update(`${version}\n${text}`).digest('hex')}.json`);
}
