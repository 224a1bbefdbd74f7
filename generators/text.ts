import fc from 'fast-check';
import { matching } from './pattern';

/**
 * Strings for the free-text fields of openapi.yaml (names, streets, notes: `type: string`, no pattern).
 * Biased towards what breaks naive servers, and kept within sizes a real server takes.
 */

/** The longest string generated (UTF-16 code units): "very long", yet a sane request. */
export const MAX_TEXT_LENGTH = 2000;

/** Pieces that break naive servers, by what they break. */
export const HOSTILE_PIECES = {
  accented: ['Zoë', 'Ångström', 'Łukasiewicz', 'straße', 'İstanbul', 'ığüşöç', 'Ærøskøbing'],
  combiningMarks: ['e\u0301', 'a\u0308\u0323', 'n\u0303', 'Z\u0351\u0352\u0353\u0354'],
  emoji: ['😀', '👩‍👩‍👧‍👦', '🇹🇷', '👍🏽', '☕', '🍵'],
  rightToLeft: ['שלום', 'مرحبا', 'עברית \u200f', '\u202eevil'],
  otherScripts: ['東京', '한국어', 'Ελληνικά', 'Кириллица', 'ｆｕｌｌｗｉｄｔｈ'],
  quotesAndBackslashes: ['"', "'", '`', '\\', '\\"', "O'Brien", '"quoted"', 'C:\\path\\', '\\u0041'],
  markup: ['<script>alert(1)</script>', "'; DROP TABLE orders; --", '%s%n', '${7*7}', '{{7*7}}', '&amp;'],
  spaces: [' ', '\u00a0', '\u2003', '\u200b', '  '],
} as const;

// Cross-shrinking towards the first kind (accented letters) keeps a counterexample readable.
const hostilePiece: fc.Arbitrary<string> = fc.oneof(
  { withCrossShrink: true },
  ...Object.values(HOSTILE_PIECES).map((pieces) => fc.constantFrom(...pieces)),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }),
);

/** Printable ASCII words, quotes and backslashes included. */
const asciiPiece = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 });

export interface TextConstraints {
  /** Fewest units (pieces or characters); 1 by default, so no field is sent empty. */
  minLength?: number;
  /** Most units of a short value. */
  maxLength?: number;
  /** Also generate very long values (up to MAX_TEXT_LENGTH), now and then. */
  long?: boolean;
  /** 'ascii' only printable ASCII; 'hostile' mixes in everything above. */
  alphabet?: 'ascii' | 'hostile';
}

/**
 * A free-text value (`type: string`), e.g. a name or a street. Shrinks towards short ASCII, so a
 * counterexample keeps only the characters that matter.
 */
export function text(constraints: TextConstraints = {}): fc.Arbitrary<string> {
  const { minLength = 1, maxLength = 6, long = false, alphabet = 'hostile' } = constraints;
  const key = JSON.stringify([minLength, maxLength, long, alphabet]);
  let built = texts.get(key);
  if (!built) {
    built = buildText(minLength, maxLength, long, alphabet);
    texts.set(key, built);
  }
  return built;
}

/** Built once per set of constraints, as matching() does: each fc.string precomputes its bias, and order() asks for a dozen. */
const texts = new Map<string, fc.Arbitrary<string>>();

function buildText(minLength: number, maxLength: number, long: boolean, alphabet: 'ascii' | 'hostile'): fc.Arbitrary<string> {
  const ascii = fc.string({ unit: asciiPiece, minLength, maxLength });
  if (alphabet === 'ascii') return ascii;
  const hostile = fc.string({ unit: fc.oneof(asciiPiece, hostilePiece), minLength, maxLength });
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: ascii, weight: 2 },
    { arbitrary: hostile, weight: 3 },
    ...(long ? [{ arbitrary: longText(hostile), weight: 1 }] : []),
  );
}

/** A value repeated up to MAX_TEXT_LENGTH: very long when generated, back to one copy when shrunk. */
export function longText(value: fc.Arbitrary<string> = text()): fc.Arbitrary<string> {
  return fc
    .tuple(value, fc.integer({ min: 1, max: MAX_TEXT_LENGTH }))
    .map(([piece, copies]) => clip(piece.repeat(Math.min(copies, Math.ceil(MAX_TEXT_LENGTH / piece.length))), MAX_TEXT_LENGTH));
}

/** An identifier or code (zip, tax id, sku): printable ASCII letters, digits and a little punctuation. */
export function code(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  const { minLength = 1, maxLength = 24 } = constraints;
  return matching(new RegExp(`^[A-Za-z0-9][A-Za-z0-9._/#-]{${minLength - 1},${maxLength - 1}}$`));
}

/** Whole code points only, so a cut never leaves half a surrogate pair. */
export function clip(value: string, maxLength: number): string {
  if (value.length <= maxLength) return value;
  let out = '';
  for (const point of value) {
    if (out.length + point.length > maxLength) break;
    out += point;
  }
  return out;
}

/** True when a value holds text outside ASCII, at any depth. */
export function holdsNonAscii(value: unknown): boolean {
  if (typeof value === 'string') return /[^\x20-\x7e]/.test(value);
  if (Array.isArray(value)) return value.some(holdsNonAscii);
  if (value && typeof value === 'object') return Object.values(value).some(holdsNonAscii);
  return false;
}
