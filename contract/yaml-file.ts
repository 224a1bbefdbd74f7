import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { readCached, writeCached } from './cache';

/**
 * A YAML file of the project (openapi.yaml, requirements/catalogue.yaml), parsed. Loading the yaml package
 * and parsing both costs ~0.3 CPU-s in each process of a run, JSON.parse of the same ~1 ms: so the parse
 * is cached as JSON (contract/cache.ts), by the file's text and the parser's version. A value JSON cannot
 * hold is never cached.
 */
export function readYamlFile(path: string): unknown {
  const text = readFileSync(path, 'utf8');
  const madeFrom = `yaml ${(require('yaml/package.json') as { version: string }).version}\n${text}`;
  const cached = readCached('yaml', madeFrom, 'json');
  if (cached !== undefined) {
    try {
      return JSON.parse(cached) as unknown;
    } catch {
      // A damaged entry: parsed again below, and replaced.
    }
  }
  const value = (require('yaml') as typeof import('yaml')).parse(text) as unknown;
  const json = JSON.stringify(value) as string | undefined;
  if (json !== undefined && isDeepStrictEqual(JSON.parse(json), value)) writeCached('yaml', madeFrom, 'json', json);
  return value;
}
