import { pathIdReadings, type PathIdKind, type SentPathId } from '../checks/readings';

/**
 * Path ids made from an id the service assigned (`sample`), each with its readings (checks/readings.ts): the id
 * extended as an integer cast of the path still reads it (Ruby's "12abc".to_i and PHP's (int)"12abc" are 12, MySQL
 * compares '12abc' = 12 as true, JavaScript's parseInt("12.5") is 12), which names no order; and the id written
 * otherwise with nothing lost, which a parser that trims (Python's int, Spring's number conversion) or reads a
 * number (a leading zero) may read as the order itself. A server with ids of another form gets the same ids: none
 * names an order there, nor may one reach the order it was made from.
 */
interface IdExtension {
  what: string;
  extend(id: string): string;
  kind(id: string): PathIdKind;
}

/** A number id: where a leading zero writes the same number. */
const NUMBER_ID = /^\d+$/;

const ID_EXTENSIONS: readonly IdExtension[] = [
  { what: 'the id with letters appended', extend: (id) => `${id}abc`, kind: () => 'other' },
  // A slug of the id: Rails' find("12-x") reads 12.
  { what: 'the id with a dash and a letter appended', extend: (id) => `${id}-x`, kind: () => 'other' },
  { what: 'the id with a dot and a digit appended', extend: (id) => `${id}.5`, kind: () => 'other' },
  { what: 'the id with a space and a letter appended', extend: (id) => `${id} x`, kind: () => 'other' },
  { what: 'the id with a trailing space', extend: (id) => `${id} `, kind: () => 'same' },
  { what: 'the id with a leading zero', extend: (id) => `0${id}`, kind: (id) => (NUMBER_ID.test(id) ? 'same' : 'other') },
];

/** The path ids made from `sample`, an id the service assigned, each with its readings. */
export function idExtensions(sample: string): SentPathId[] {
  return ID_EXTENSIONS.map(({ what, extend, kind }) => {
    const made = kind(sample);
    return { name: what, id: extend(sample), of: sample, kind: made, readings: pathIdReadings(made) };
  });
}

/** A path id no reading lets reach the order it was made from: an update or a delete may be sent to it, and must leave that order as it was. */
export function reachesNoOrder(sent: SentPathId): boolean {
  return !sent.readings.includes('coerced');
}
