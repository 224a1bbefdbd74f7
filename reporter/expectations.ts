import { readFileSync } from 'node:fs';
import { ConfigurationError } from '../config/exit-codes';
import { catalogue } from '../requirements/catalogue';

/**
 * An expectations file: the requirements a server is known to fail, each with the reason, and
 * optionally the last day the entry holds. YAML (or JSON), one entry per requirement:
 *
 *   ORD-LIST-004: limit above 100 is clamped to 100 instead of refused (ticket OMS-123)
 *   ORD-GET-002: { reason: wrong 404 envelope (ticket OMS-124), until: 2026-12-31 }
 *
 * Known failures are reported but do not fail the run; a known failure that passes is reported as fixed.
 * After its `until` day an entry no longer excuses anything, and fails the run by itself, so a known
 * failure cannot become a permanent blind spot.
 */
export class Expectations extends Map<string, string> {
  /** Entries whose `until` day has passed: not honoured, and named when the run fails. */
  readonly expired: ExpiredExpectation[] = [];
}

export interface ExpiredExpectation {
  id: string;
  reason: string;
  /** YYYY-MM-DD, the last day the entry held. */
  until: string;
}

/** A problem with the expectations file; the message names the file and the entry. */
export class ExpectationsError extends ConfigurationError {}

/** The file's entries as they stand on `today` (UTC): the ones still in force, and the expired ones apart. */
export function loadExpectations(path: string, today: Date = new Date()): Expectations {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ExpectationsError(`cannot read the expectations file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    // Loaded only when there is a file: every run loads this reporter, few pass expectations.
    parsed = (require('yaml') as typeof import('yaml')).parse(text);
  } catch (error) {
    throw new ExpectationsError(`the expectations file ${path} is not YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const expectations = new Expectations();
  if (parsed === null || parsed === undefined) return expectations;
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ExpectationsError(`the expectations file ${path} must map requirement ids to reasons, e.g. "ORD-LIST-004: clamps limit (ticket 123)"`);
  }
  const known = catalogue();
  const day = today.toISOString().slice(0, 10);
  for (const [id, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!known.has(id)) throw new ExpectationsError(`the expectations file ${path} names ${id}, which is not in the requirement catalogue`);
    const { reason, until } = entryOf(path, id, value);
    if (until !== undefined && until < day) expectations.expired.push({ id, reason, until });
    else expectations.set(id, reason);
  }
  return expectations;
}

/** One entry: a reason, or { reason, until }; anything else names the file and the entry. */
function entryOf(path: string, id: string, value: unknown): { reason: string; until?: string } {
  const where = `the expectations file ${path}: ${id}`;
  const fields = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { reason: value };
  const unknown = Object.keys(fields).filter((key) => key !== 'reason' && key !== 'until');
  if (unknown.length) throw new ExpectationsError(`${where} has ${unknown.map((key) => JSON.stringify(key)).join(', ')}; an entry takes only reason and until`);
  const { reason, until } = fields;
  if (typeof reason !== 'string' || reason.trim() === '') throw new ExpectationsError(`${where} needs a reason (why the server is known to fail it)`);
  if (until === undefined) return { reason: reason.trim() };
  if (typeof until !== 'string' || !isCalendarDay(until)) {
    throw new ExpectationsError(`${where} has until ${JSON.stringify(until)}, which is not a date: write it as YYYY-MM-DD, e.g. until: 2026-12-31`);
  }
  return { reason: reason.trim(), until };
}

function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}
