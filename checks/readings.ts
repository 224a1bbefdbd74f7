import { contract, excerpt } from '../contract/openapi';
import { isIso8601DateTime } from '../contract/datetime';
import { textAroundLoneSurrogates } from '../config/safe-text';
import { withOwnReferences } from '../contract/examples';
import { differences, holdsValue, type Difference } from './roundtrip';
import { isClientError, isSuccess } from './status';
import type { Verdict } from './check';
import type { Exchange } from '../contract/exchange';

/**
 * What a correct server may make of a value the document does not define (null where an object goes, a wrong
 * type, a value that denotes no text), derived from the document's types and silences: each value the suite
 * sends carries its readings, and an answer passes when one of them explains it. A reading that loses what the
 * client meant (2.5 stored as 2, a null stored over a field every order holds, text changed beyond ORD-OBS-034's
 * replacement) is none of these, and stays a violation of the requirement that judges the value.
 */
export type Reading = 'refused' | 'taken' | 'not-sent' | 'coerced' | 'kept' | 'replaced' | 'no-fields';

/** Each reading in words, as a failure names the readings it tried. */
export const READING_WORDS: Readonly<Record<Reading, string>> = {
  refused: 'refused with a 4xx',
  taken: 'taken as sent',
  'not-sent': 'read as not sent (on a create: absent, empty, or the value the service gives the field when it is not sent; on an update: kept or cleared)',
  coerced: 'coerced, nothing lost, to the value it denotes',
  kept: 'ignored by the update (the field kept as it was)',
  replaced: 'replaced by any one character, or dropped, the text around it as sent',
  'no-fields': 'read as an update of no fields (the order left as it was)',
};

/**
 * What a sent value is, by what it denotes of its field's type (openapi.yaml):
 * - `plain`: a value of the type;
 * - `unusual`: of the type but written as no serializer writes it, or beyond what storage holds (-0, 1e400, 1e2, a date before 1970): a server may refuse it;
 * - `null`: no value of any field's type;
 * - `coercible`: of another type, denoting a value of the field's type ("3" or true for an integer, "false" for a boolean);
 * - `wrong-type`: denoting no value of the type (2.5 for an integer, an object for a string);
 * - `denotes-nothing`: text with a lone surrogate escape, which denotes no Unicode text (RFC 8259 8.2);
 * - `non-object-body`: a whole body that is JSON but no object.
 */
export type ValueKind = 'plain' | 'unusual' | 'null' | 'coercible' | 'wrong-type' | 'denotes-nothing' | 'non-object-body';

/** Where a value goes: the operation, and whether its field is one every order holds (the create requires it: customer, items, currency, price). */
export interface Place {
  operation: 'create' | 'update';
  /** A top-level field OrderCreate requires. Nested fields have no required-ness shown (2.7). */
  required: boolean;
}

/** Where a value at a JSON pointer goes: a top-level field OrderCreate requires is one every order holds. */
export function placeAt(pointer: string, operation: Place['operation']): Place {
  const required = (contract().schema('OrderCreate').required ?? []) as string[];
  return { operation, required: /^\/[^/]+$/.test(pointer) && required.includes(pointer.slice(1)) };
}

/**
 * The readings a correct server may make of a value of `kind` at `place`. Not sent is a reading only where the
 * body stays valid without the field (never a required field of a create); an update may leave a field every
 * order holds as it was, never clear it.
 */
export function readingsOf(kind: ValueKind, { operation, required }: Place): Reading[] {
  const unsent: Reading[] = operation === 'update' ? [required ? 'kept' : 'not-sent'] : required ? [] : ['not-sent'];
  switch (kind) {
    case 'plain':
      return ['taken'];
    case 'unusual':
      return ['refused', 'taken'];
    case 'null':
      return ['refused', ...(required ? [] : (['taken'] as Reading[])), ...unsent];
    case 'coercible':
      return ['refused', 'coerced', ...unsent];
    case 'wrong-type':
      return ['refused', ...unsent];
    case 'denotes-nothing':
      return ['refused', 'taken', 'replaced'];
    case 'non-object-body':
      return operation === 'update' ? ['refused', 'no-fields'] : ['refused'];
  }
}

/** A value sent at a place in a body: what it denotes (what comes back where it is taken or coerced), and its readings. */
export interface SentValue {
  /** As a failure names it: "items[0].quantity = 2^31". */
  name: string;
  /** A JSON pointer into the body. */
  pointer: string;
  kind: ValueKind;
  /** What the value denotes: for a coercible one, the value of the field's type ("3" denotes 3). */
  denotes: unknown;
  readings: readonly Reading[];
}

/**
 * What else an answer is read against: the order as it stood before an update (`before`), and what the service
 * answered at each pointer for the same create sent without that field (`unsent`, by pointer: the answers of
 * control creates, sent only where no other reading explained the answer).
 */
export interface Circumstances {
  before?: unknown;
  unsent?: ReadonlyMap<string, unknown>;
}

/** The value at a JSON pointer ("/items/0/name"); undefined where there is none. */
export function valueAt(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  return pointer
    .slice(1)
    .split('/')
    .reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), value);
}

/** The reading that explains what came back at the value's pointer of a taken body (`answer`), if any. */
export function explainingReading(sent: SentValue, answer: unknown, circumstances: Circumstances = {}): Reading | undefined {
  return sent.readings.find((reading) => explains(reading, sent, answer, circumstances));
}

function explains(reading: Reading, sent: SentValue, answer: unknown, { before, unsent }: Circumstances): boolean {
  const received = valueAt(answer, sent.pointer);
  const same = (expected: unknown, actual = received, pointer = sent.pointer) => differences(expected, actual, pointer).length === 0;
  switch (reading) {
    case 'refused':
    case 'no-fields':
      // Readings of the whole answer (its status, the order after it), not of a value in a taken body.
      return false;
    case 'taken':
    case 'coerced':
      return same(sent.denotes);
    case 'kept':
      return before !== undefined && same(valueAt(before, sent.pointer));
    case 'not-sent': {
      // No value is what an unsent field may always be (ORD-OBS-011). An update may also keep the field of the order
      // it omits (ORD-OBS-005): the value's own, or the one holding it, dropped whole by a binder that could not bind it.
      if (!holdsValue(received)) return true;
      const field = `/${sent.pointer.split('/')[1]}`;
      if (before !== undefined && same(valueAt(before, field), valueAt(answer, field), field)) return true;
      if (!unsent?.has(sent.pointer)) return false;
      return sameUnsentValue(unsent.get(sent.pointer), received);
    }
    case 'replaced':
      return typeof sent.denotes === 'string' && typeof received === 'string' && replacedAround(sent.denotes, received);
  }
}

/**
 * The value an unsent field got in a control create, and the one it got here, are the same value the service
 * gives such a field: equal but for the times and identifiers the service stamps on each order anew.
 */
function sameUnsentValue(control: unknown, received: unknown): boolean {
  const stamped = ({ pointer, sent, received: got }: Difference) =>
    (typeof sent === 'string' && typeof got === 'string' && ((isIso8601DateTime(sent) && isIso8601DateTime(got)) || (/(^|\/)id$/.test(pointer) && sent !== '' && got !== ''))) ||
    false;
  return [...differences(control, received), ...differences(received, control)].every(stamped);
}

/**
 * Text with lone surrogates (which denote nothing) came back with each replaced by at most one character of any
 * kind, and the text around each as sent (compared in NFC, whitespace at the place of the replacement free:
 * a parser that stops at the escape may take the space after it).
 */
function replacedAround(sent: string, received: string): boolean {
  const parts = textAroundLoneSurrogates(sent).map((part) => part.normalize('NFC').replace(/\s+/g, ' ').trim());
  if (parts.length < 2) return false;
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^\\s*${parts.map(escape).join('\\s*[^]?\\s*')}\\s*$`, 'u');
  return pattern.test(received.normalize('NFC').replace(/\s+/g, ' '));
}

/** The pointers whose value a control create (the same body without the field) could still explain: not sent, and nothing else explains it. */
export function needsControl(sent: SentValue, answer: unknown, circumstances: Circumstances = {}): boolean {
  return sent.readings.includes('not-sent') && explainingReading(sent, answer, circumstances) === undefined && !circumstances.unsent?.has(sent.pointer);
}

/**
 * What a control create sends: the body without the value at a pointer, with references of its own (a service may
 * refuse a second live order with the body's channel reference, ORD-OBS-032).
 */
export function controlBody<T>(body: T, pointer: string): T {
  return withOwnReferences(withoutPointer(body, pointer));
}

/** A body without the value at a pointer. */
export function withoutPointer<T>(body: T, pointer: string): T {
  const copy = structuredClone(body);
  const keys = pointer.slice(1).split('/');
  const parent = valueAt(copy, keys.length > 1 ? `/${keys.slice(0, -1).join('/')}` : '');
  if (parent !== null && typeof parent === 'object') delete (parent as Record<string, unknown>)[keys[keys.length - 1]];
  return copy;
}

/**
 * The body a taken answer is held to: what was sent, each value replaced by what its explaining reading says
 * comes back (a value read as not sent, kept or replaced comes back as the answer shows it), and the values no
 * reading explains, each with the readings tried. The round-trip checks then judge the rest as before.
 */
export function heldTo(denoted: unknown, values: readonly SentValue[], answer: unknown, circumstances: Circumstances = {}): { expected: unknown; unexplained: string[] } {
  const expected = structuredClone(denoted);
  const unexplained: string[] = [];
  for (const sent of values) {
    const reading = explainingReading(sent, answer, circumstances);
    if (reading === undefined) {
      const tried = sent.readings.filter((r) => r !== 'refused' && r !== 'no-fields');
      unexplained.push(`${sent.name}: got ${excerpt(valueAt(answer, sent.pointer))}, which no reading explains (${tried.map((r) => READING_WORDS[r]).join('; ')})`);
    } else if (reading !== 'taken' && reading !== 'coerced') {
      setAt(expected, sent.pointer, valueAt(answer, sent.pointer));
    }
  }
  return { expected, unexplained };
}

function setAt(target: unknown, pointer: string, value: unknown): void {
  const keys = pointer.slice(1).split('/');
  const parent = valueAt(target, keys.length > 1 ? `/${keys.slice(0, -1).join('/')}` : '');
  if (parent === null || typeof parent !== 'object') return;
  if (value === undefined) delete (parent as Record<string, unknown>)[keys[keys.length - 1]];
  else (parent as Record<string, unknown>)[keys[keys.length - 1]] = value;
}

/**
 * A path id the suite made from an id the service assigned (generators/order-id.ts): `other` names no order (the id
 * followed by letters, a dash, a dot and a digit: what an integer cast reads as the order, "12abc".to_i is 12);
 * `same` is the id written otherwise with nothing lost (a trailing space a parser trims, a leading zero of a number).
 */
export type PathIdKind = 'other' | 'same';

/** A path id made from an order's id: as a failure names it, the id sent, the id it was made from, and its readings. */
export interface SentPathId {
  /** As a failure names it: "the id with letters appended". */
  name: string;
  id: string;
  /** The id the service assigned that it was made from. */
  of: string;
  kind: PathIdKind;
  readings: readonly Reading[];
}

/** What a correct server may make of a path id: an unknown id (refused), or, written otherwise with nothing lost, the order it names (coerced). */
export function pathIdReadings(kind: PathIdKind): Reading[] {
  return kind === 'same' ? ['refused', 'coerced'] : ['refused'];
}

/** Each reading of a path id in words, as a failure names the readings it tried. */
const PATH_ID_READING_WORDS: Partial<Record<Reading, (of: string) => string>> = {
  refused: () => 'refused with a 4xx, as an id no order has',
  coerced: (of) => `read as order ${of} itself, the id it writes otherwise (nothing lost)`,
};

/** The reading that explains the answer to a request of a path id: refused (a 4xx), or coerced (a 2xx showing the order it was made from, and no other). */
export function explainingPathIdReading(sent: SentPathId, exchange: Exchange): Reading | undefined {
  const shown = (exchange.json as { id?: unknown } | undefined)?.id;
  return sent.readings.find((reading) => (reading === 'refused' ? isClientError(exchange.status) : reading === 'coerced' && isSuccess(exchange.status) && String(shown) === sent.of));
}

/** A request of a path id answered as one of its readings: an integer cast that reads 12abc as order 12 is none of them. */
export const pathIdAnswered = (sent: SentPathId, exchange: Exchange): Verdict => {
  const shown = (exchange.json as { id?: unknown } | undefined)?.id;
  return [
    explainingPathIdReading(sent, exchange) !== undefined,
    () => ({
      expected: `${JSON.stringify(sent.id)} (${sent.name}, made from order ${sent.of}) ${sent.readings.map((reading) => PATH_ID_READING_WORDS[reading]?.(sent.of)).join(', or ')}`,
      received: `${exchange.status}${isSuccess(exchange.status) ? (shown === undefined ? ': accepted' : `: the order ${excerpt(shown)}`) : ''}`,
      exchange,
      // Kept with the finding, as for every unknown id: judging the recorded exchange again needs its form.
      context: { ownForm: false },
    }),
    exchange,
  ];
};
