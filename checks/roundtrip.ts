import { excerpt } from '../contract/openapi';
import { ruleAt } from '../contract/fields';
import { instantOf, isIso8601DateTime, sameInstantAtStoredPrecision } from '../contract/datetime';

export interface Difference {
  pointer: string;
  sent: unknown;
  received: unknown;
}

/**
 * Where a response fails to carry what was sent, at every depth. Sent fields must come back with the
 * value sent; fields the service adds are fine, and so are fields openapi.yaml marks x-service-may-compute
 * (billing totals, item total: how the service computes them is not shown). Equal means: text exactly
 * (compared in Unicode NFC, so a canonically equivalent spelling is not a difference), numbers by value
 * (an x-amount to the cent where the server answers cents), timestamps by instant at the precision the
 * server stores (a second-precision answer is the sent instant truncated or rounded to the second, never
 * further off; text also with its whitespace trimmed and collapsed), arrays element by element in the order sent, a sent null as null, absent, ""
 * or a container of empty values, an object or array sent empty ({}, []) as absent, null or a container of empty values.
 */
export function differences(sent: unknown, received: unknown, pointer = ''): Difference[] {
  return compare(sent, received, pointer, 'stored');
}

/**
 * Where a later answer of the service differs from an earlier one (the order before and after another
 * order's delete, or another account's refused update): exact, since both are what the server stores
 * (a field that appears in some responses excepted).
 */
export function changesBetween(before: unknown, after: unknown, pointer = ''): Difference[] {
  return compare(before, after, pointer, 'unchanged');
}

/**
 * Where two answers that show the same stored order disagree (an update answer and the next get): a value
 * either carries is in the other, compared as a round trip both ways. No value (absent, null, "", 0, false,
 * empty) is the same in both.
 */
export function disagreements(first: unknown, second: unknown): Difference[] {
  const found = [...differences(first, second), ...differences(second, first).map(({ pointer, sent, received }) => ({ pointer, sent: received, received: sent }))];
  const byPointer = new Map(found.map((d) => [d.pointer, d]));
  return [...byPointer.values()].filter((d) => holdsValue(d.sent) || holdsValue(d.received));
}

/** True when a value carries anything but empty values ("", 0, false, null, empty objects and arrays) at any depth. */
export function holdsValue(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsValue);
  if (value && typeof value === 'object') return Object.values(value).some(holdsValue);
  return value !== undefined && value !== null && value !== '' && value !== 0 && value !== false;
}

type Mode = 'stored' | 'unchanged';

function isEmptyContainer(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

function compare(sent: unknown, received: unknown, pointer: string, mode: Mode): Difference[] {
  const rule = ruleAt(pointer);
  // A field that "appears in some responses" may be in one answer and not the next: never a difference.
  if (rule?.inSomeResponses || (mode === 'stored' && rule?.computed)) return [];
  // A sent null (no value) may be stored as no value at all: null, absent, an empty string, or (where an object
  // goes) an object of no values, as a full form that always shows every field writes it (ORD-OBS-011).
  if (sent === null) return received === null || received === undefined || (mode === 'stored' && (received === '' || (typeof received === 'object' && !holdsValue(received)))) ? [] : [{ pointer, sent, received }];
  // An object or array with nothing in it ({}, []) may come back as no value, as a field never sent may (ORD-OBS-011).
  if (isEmptyContainer(sent) && (received === undefined || received === null || (typeof received === 'object' && !holdsValue(received)))) return [];
  if (Array.isArray(sent)) {
    if (!Array.isArray(received)) return [{ pointer, sent, received }];
    if (received.length !== sent.length) return [{ pointer: `${pointer} (length)`, sent: sent.length, received: received.length }];
    return sent.flatMap((element, index) => compare(element, received[index], `${pointer}/${index}`, mode));
  }
  if (typeof sent === 'object') {
    if (!received || typeof received !== 'object' || Array.isArray(received)) return [{ pointer, sent, received }];
    return Object.entries(sent as Record<string, unknown>).flatMap(([key, value]) =>
      compare(value, (received as Record<string, unknown>)[key], `${pointer}/${key}`, mode),
    );
  }
  return sameScalar(sent, received, pointer, mode) ? [] : [{ pointer, sent, received }];
}

function sameScalar(sent: unknown, received: unknown, pointer: string, mode: Mode): boolean {
  if (typeof sent === 'number' && typeof received === 'number') {
    // Also a literal beyond a double (1e400) that both sides read as the same infinity.
    if (sent === received) return true;
    if (Math.abs(sent - received) <= 1e-9 * Math.max(1, Math.abs(sent))) return true;
    return mode === 'stored' && ruleAt(pointer)?.amount === true && sameAmountToTheCent(sent, received);
  }
  if (typeof sent === 'string' && typeof received === 'string') {
    if (sent.normalize('NFC') === received.normalize('NFC')) return true;
    // Stored text may be normalised (ORD-OBS-023): trimmed at the ends, whitespace runs made one space.
    if (mode === 'stored' && normalisedSpace(sent) === normalisedSpace(received)) return true;
    if (!isIso8601DateTime(sent) || !isIso8601DateTime(received)) return false;
    return mode === 'stored' ? sameInstantAtStoredPrecision(sent, received) : instantOf(sent) === instantOf(received);
  }
  return sent === received;
}

/** Text in NFC, trimmed, every run of whitespace one space. */
function normalisedSpace(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/**
 * An amount stored to the cent (NUMERIC(12,2)): the answer carries at most two decimals and is the sent
 * amount rounded to the cent, either way at a half cent. Anything further off, or an answer with more
 * decimals that differs, is a different amount.
 */
function sameAmountToTheCent(sent: number, received: number): boolean {
  const inCents = Math.abs(received * 100 - Math.round(received * 100)) < 1e-6;
  return inCents && Math.abs(sent - received) <= 0.005 + 1e-9;
}

/** Where the differences are, as JSON pointers into the response (a length difference at its array): the reports mark them. */
export function pointersOf(found: Difference[], max = 12): string[] {
  return found.slice(0, max).map((d) => d.pointer.replace(/ \(length\)$/, ''));
}

/** `sides` name where the two values come from: what was sent and what came back, unless told otherwise. */
export function formatDifferences(found: Difference[], max = 10, sides: [string, string] = ['sent', 'got']): string {
  // A number beyond a double (sent as 1e400) reads as Infinity, which JSON would write as null.
  const shown = (value: unknown) => (value === undefined ? 'nothing (absent)' : typeof value === 'number' && !Number.isFinite(value) ? `${value} (a number beyond a double)` : excerpt(value));
  const lines = found.slice(0, max).map((d) => `  at ${d.pointer || '(root)'}: ${sides[0]} ${shown(d.sent)}, ${sides[1]} ${shown(d.received)}`);
  if (found.length > max) lines.push(`  … and ${found.length - max} more`);
  return lines.join('\n');
}
