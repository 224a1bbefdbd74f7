import { contract, excerpt, type JsonSchema } from '../contract/openapi';
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
export type Reading = 'refused' | 'taken' | 'not-sent' | 'empty' | 'coerced' | 'kept' | 'replaced' | 'no-fields';

/** Each reading in words, as a failure names the readings it tried. */
export const READING_WORDS: Readonly<Record<Reading, string>> = {
  refused: 'refused with a 4xx',
  taken: 'taken as sent',
  'not-sent': 'read as not sent (absent or empty, kept by an update, or as the same service answers the request without it: on an update, sent to a twin order)',
  empty: 'read as the empty value of its type ({}, [] or "": empty, or as the same service answers that value)',
  coerced: 'coerced, nothing lost, to the value it denotes (or as the same service answers that value)',
  kept: 'ignored by the update (the field kept as it was, or as the same update without it leaves a twin order)',
  replaced: 'replaced by any one character, or dropped, the text around it as sent',
  'no-fields': 'read as an update of no fields (the order left as it was, or as an update of no fields leaves a twin order)',
};

/**
 * A defined neighbour of a value the document does not define: the same request with the field not sent, with the
 * empty value of its type, or with the value it coerces to. What the same service answers to it tells whether the
 * reading that names it was made, where a fixed expectation cannot (a service that stamps its own values into what
 * it reads, or clears what an update omits).
 */
export type Neighbour = 'unsent' | 'empty' | 'coerced';

/** The neighbour each reading names. */
const NEIGHBOUR_OF: Partial<Record<Reading, Neighbour>> = { 'not-sent': 'unsent', kept: 'unsent', 'no-fields': 'unsent', empty: 'empty', coerced: 'coerced' };

/** Each neighbour in words, as an observation says how a value was read. */
export const NEIGHBOUR_WORDS: Readonly<Record<Neighbour, string>> = {
  unsent: 'as it answers the request without the field',
  empty: 'as it answers the empty value of the type',
  coerced: 'as it answers the value it coerces to',
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
  /** The empty value of the field's type ({}, [], "", 0, false), where it has one. */
  empty?: unknown;
}

/** Where a value at a JSON pointer goes: a top-level field OrderCreate requires is one every order holds. */
export function placeAt(pointer: string, operation: Place['operation']): Place {
  const empty = emptyValueAt(pointer);
  return { operation, required: isRequiredField(pointer), ...(empty !== undefined && { empty }) };
}

/** A top-level field OrderCreate requires: one every order holds. */
function isRequiredField(pointer: string): boolean {
  return /^\/[^/]+$/.test(pointer) && ((contract().schema('OrderCreate').required ?? []) as string[]).includes(pointer.slice(1));
}

/**
 * The empty value of the type of the field at a pointer of a create or update body (OrderCreate): {}, [], "", and a
 * number's 0 and a boolean's false, as binders give a null (Jackson's primitives, Ajv's coerceTypes, Fastify's
 * default, frameworks.md); none for the whole body.
 */
export function emptyValueAt(pointer: string): unknown {
  if (pointer === '') return undefined;
  let schema: JsonSchema | undefined = contract().schema('OrderCreate');
  for (const key of pointer.slice(1).split('/')) {
    const resolved = branchOf(schema);
    schema = /^\d+$/.test(key) ? (resolved?.items as JsonSchema | undefined) : (resolved?.properties as Record<string, JsonSchema> | undefined)?.[key];
  }
  const types = [branchOf(schema)?.type].flat();
  if (types.includes('object')) return {};
  if (types.includes('array')) return [];
  if (types.includes('string')) return '';
  if (types.includes('number') || types.includes('integer')) return 0;
  return types.includes('boolean') ? false : undefined;
}

/** A schema resolved, its branch that is not null where it is a oneOf or anyOf (an object or null). */
function branchOf(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (schema === undefined) return undefined;
  const resolved = contract().resolve(schema);
  const branches = (resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined;
  return branches?.map((branch) => contract().resolve(branch)).find((branch) => branch.type !== 'null') ?? resolved;
}

/**
 * The readings a correct server may make of a value of `kind` at `place`. Not sent is a reading only where the
 * body stays valid without the field (never a required field of a create); an update may leave a field every
 * order holds as it was, or do to it what the same update without it does. A null may be read as the empty
 * value of the field's type ({}, [], "", 0, false).
 */
export function readingsOf(kind: ValueKind, { operation, required, empty }: Place): Reading[] {
  const unsent: Reading[] = operation === 'update' ? [required ? 'kept' : 'not-sent'] : required ? [] : ['not-sent'];
  switch (kind) {
    case 'plain':
      return ['taken'];
    case 'unusual':
      return ['refused', 'taken'];
    case 'null':
      return ['refused', ...(required ? [] : (['taken'] as Reading[])), ...unsent, ...(empty === undefined ? [] : (['empty'] as Reading[]))];
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
 * What else an answer is read against: the order as it stood before an update (`before`), and what the same service
 * answered to a value's defined neighbours (`neighbours`, by the value's pointer: the whole answer of each control
 * request, the same request with the neighbour in the value's place, an update sent to a twin order in the state
 * the judged one was in; undefined where the control was refused). Controls are sent only where no fixed reading
 * explained the answer (nextNeighbour).
 */
export interface Circumstances {
  before?: unknown;
  neighbours?: ReadonlyMap<string, ReadonlyMap<Neighbour, unknown>>;
}

/** The value at a JSON pointer ("/items/0/name"); undefined where there is none. */
export function valueAt(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  return pointer
    .slice(1)
    .split('/')
    .reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), value);
}

/** How an answer was read: the reading that explains it, and the neighbour whose answer showed it, where a fixed expectation did not. */
export interface Explanation {
  reading: Reading;
  by?: Neighbour;
}

/** The reading that explains what came back at the value's pointer of a taken body (`answer`), if any. */
export function explainingReading(sent: SentValue, answer: unknown, circumstances: Circumstances = {}): Reading | undefined {
  return explanationOf(sent, answer, circumstances)?.reading;
}

/** The first reading that explains the answer as fixed, else the first its neighbour's answer shows. */
export function explanationOf(sent: SentValue, answer: unknown, circumstances: Circumstances = {}): Explanation | undefined {
  const fixed = sent.readings.find((reading) => explainsAsFixed(reading, sent, answer, circumstances));
  if (fixed) return { reading: fixed };
  if (lostBeyondReading(sent, valueAt(answer, sent.pointer))) return undefined;
  const shown = sent.readings.find((reading) => shownByNeighbour(reading, sent, answer, circumstances));
  return shown && { reading: shown, by: NEIGHBOUR_OF[shown] };
}

function explainsAsFixed(reading: Reading, sent: SentValue, answer: unknown, { before }: Circumstances): boolean {
  const received = valueAt(answer, sent.pointer);
  const same = (expected: unknown, actual = received, pointer = sent.pointer) => differences(expected, actual, pointer).length === 0;
  switch (reading) {
    case 'refused':
      // A reading of the status, not of a value in a taken body.
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
      return before !== undefined && same(valueAt(before, field), valueAt(answer, field), field);
    }
    case 'empty':
      // The empty value, or none; never a field every order holds left without a value (null, absent).
      return !holdsValue(received) && !(isRequiredField(sent.pointer) && (received === null || received === undefined));
    case 'no-fields':
      return before !== undefined && dataChanged(before, answer).length === 0;
    case 'replaced':
      return typeof sent.denotes === 'string' && typeof received === 'string' && replacedAround(sent.denotes, received);
  }
}

/** What the same service answered to the neighbour a reading names is what it answered here, but for the values it stamps anew. */
function shownByNeighbour(reading: Reading, sent: SentValue, answer: unknown, { neighbours }: Circumstances): boolean {
  const neighbour = NEIGHBOUR_OF[reading];
  const control = neighbour && neighbours?.get(sent.pointer)?.get(neighbour);
  if (control === undefined) return false;
  // An update of no fields is read on the order's data; any other value at its pointer.
  if (sent.pointer === '') return sameBesidesStamps(dataOf(control), dataOf(answer));
  return sameBesidesStamps(valueAt(control, sent.pointer), valueAt(answer, sent.pointer), sent.pointer);
}

/**
 * What no neighbour explains, whatever the same service answers to it: a field every order holds left without a value
 * (null stored over it, or absent), a fraction stored as an integer near it (2.5 as 2), text sent to a text field
 * changed (beyond the replacement ORD-OBS-034 allows, which is a fixed reading). A sent 0 or "" is a plain value,
 * which has no neighbour.
 */
function lostBeyondReading(sent: SentValue, received: unknown): boolean {
  if (isRequiredField(sent.pointer) && (received === null || received === undefined)) return true;
  const { denotes } = sent;
  if (typeof denotes === 'number' && Number.isFinite(denotes) && !Number.isInteger(denotes)) return typeof received === 'number' && Number.isInteger(received) && Math.abs(received - denotes) < 1;
  return typeof denotes === 'string' && emptyValueAt(sent.pointer) === '' && typeof received === 'string' && received !== denotes;
}

/**
 * Two answers of the service to two requests alike but for one value are the same value: equal but for the times and
 * identifiers the service stamps on each write anew (an order's customer id, updated_at).
 */
function sameBesidesStamps(control: unknown, received: unknown, pointer = ''): boolean {
  const stamped = ({ pointer, sent, received: got }: Difference) =>
    (typeof sent === 'string' && typeof got === 'string' && ((isIso8601DateTime(sent) && isIso8601DateTime(got)) || (/(^|\/)id$/.test(pointer) && sent !== '' && got !== ''))) ||
    false;
  // Compared at the value's pointer, so a field the service computes or shows in some answers only is no difference.
  return [...differences(control, received, pointer), ...differences(received, control, pointer)].every(stamped);
}

/** The order's data in an answer: the fields a create sends (4.2), without what the service assigns. */
function dataOf(order: unknown): unknown {
  if (order === null || typeof order !== 'object') return order;
  const fields = Object.keys(contract().schema('OrderCreate').properties as object);
  return Object.fromEntries(Object.entries(order).filter(([field]) => fields.includes(field)));
}

/** Where an order's data (the fields a create sends) in `after` differs from `before`; every field differs when there is no before to compare. */
export function dataChanged(before: unknown, after: unknown): Difference[] {
  if (before === null || typeof before !== 'object') return [{ pointer: '', sent: before, received: after }];
  return differences(dataOf(before), after);
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

/**
 * The neighbour whose answer could still explain what came back for a value, where no reading explains it yet and
 * nothing was lost beyond every reading: the first its readings name that was not asked yet (one control at a time,
 * so a service the first explains pays one). undefined: no control to send.
 */
export function nextNeighbour(sent: SentValue, answer: unknown, circumstances: Circumstances = {}): Neighbour | undefined {
  if (explanationOf(sent, answer, circumstances) !== undefined || lostBeyondReading(sent, valueAt(answer, sent.pointer))) return undefined;
  const asked = circumstances.neighbours?.get(sent.pointer);
  // An element of an array is no field to leave out: the elements after it would take its place.
  const element = /\/\d+$/.test(sent.pointer);
  return sent.readings
    .map((reading) => NEIGHBOUR_OF[reading])
    .find((neighbour): neighbour is Neighbour => neighbour !== undefined && !asked?.has(neighbour) && !(element && neighbour === 'unsent'));
}

/**
 * What a control request sends: the body with the value's neighbour in its place (the field left out, the empty value
 * of its type, the value it coerces to; a whole body that is no object left out: an update of no fields), with
 * references of its own (a service may refuse a second live order with the body's channel reference, ORD-OBS-032).
 */
export function withNeighbour<T>(body: T, sent: SentValue, neighbour: Neighbour): T {
  if (sent.pointer === '') return {} as T;
  if (neighbour === 'unsent') return withOwnReferences(withoutPointer(body, sent.pointer));
  const copy = structuredClone(body);
  setAt(copy, sent.pointer, neighbour === 'empty' ? emptyValueAt(sent.pointer) : sent.denotes);
  return withOwnReferences(copy);
}

/** A body without the value at a pointer. */
export function withoutPointer<T>(body: T, pointer: string): T {
  const copy = structuredClone(body);
  const keys = pointer.slice(1).split('/');
  const parent = valueAt(copy, keys.length > 1 ? `/${keys.slice(0, -1).join('/')}` : '');
  if (parent !== null && typeof parent === 'object') delete (parent as Record<string, unknown>)[keys[keys.length - 1]];
  return copy;
}

/** The answers of control requests recorded for a value's pointer: a copy of `circumstances` with them added. */
export function withNeighbourAnswer(circumstances: Circumstances, pointer: string, neighbour: Neighbour, answer: unknown): Circumstances {
  const neighbours = new Map(circumstances.neighbours);
  neighbours.set(pointer, new Map(neighbours.get(pointer)).set(neighbour, answer));
  return { ...circumstances, neighbours };
}

/** `circumstances` with the neighbour answers of `more` in place of its own for the values `more` asked about. */
export function withNeighbourAnswersOf(circumstances: Circumstances, more: Circumstances): Circumstances {
  if (!more.neighbours?.size) return circumstances;
  return { ...circumstances, neighbours: new Map([...(circumstances.neighbours ?? []), ...more.neighbours]) };
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
