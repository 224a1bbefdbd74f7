import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { catalogue } from '../harness/requirements';

/**
 * An expectations file: the requirements a server is known to fail, each with the reason.
 * YAML (or JSON), one entry per line:
 *
 *   ORD-LIST-004: limit above 100 is clamped to 100 instead of refused (ticket OMS-123)
 *
 * Known failures are reported but do not fail the run; a known failure that passes is reported as fixed.
 */
export type Expectations = Map<string, string>;

/** A problem with the expectations file; the message names the file and the entry. */
export class ExpectationsError extends Error {}

export function loadExpectations(path: string): Expectations {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ExpectationsError(`cannot read the expectations file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    throw new ExpectationsError(`the expectations file ${path} is not YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (parsed === null || parsed === undefined) return new Map();
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ExpectationsError(`the expectations file ${path} must map requirement ids to reasons, e.g. "ORD-LIST-004: clamps limit (ticket 123)"`);
  }
  const known = catalogue();
  const expectations: Expectations = new Map();
  for (const [id, reason] of Object.entries(parsed as Record<string, unknown>)) {
    if (!known.has(id)) throw new ExpectationsError(`the expectations file ${path} names ${id}, which is not in the requirement catalogue`);
    if (typeof reason !== 'string' || reason.trim() === '') {
      throw new ExpectationsError(`the expectations file ${path}: ${id} needs a reason (why the server is known to fail it)`);
    }
    expectations.set(id, reason.trim());
  }
  return expectations;
}
