/**
 * Tokens one edit away from a valid one (section 5.1: the token is the access_token obtained from
 * POST /token; nothing else was issued). Each near miss differs from the valid token as a string AND
 * after the lenient decodings a server may apply before its lookup (Node's base64, base64url and hex
 * decoders ignore trailing bits, a lone trailing character and anything after padding), so the verdict on
 * a server that stores token bytes does not depend on which random token it issued. Case is the exception
 * on purpose: a token in another case is another text, whatever a hex decoder makes of it.
 */
export interface NearMiss {
  /** How the token was altered, as a test title says it. */
  what: string;
  /** The altered token, or why this alteration cannot tell a near miss apart for this token. */
  alter(token: string): { token: string } | { skip: string };
}

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const CLASSES = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '-_+/.~'];
const HEX = /^[0-9a-f]+$/i;
/** Hex digits, alone or after a prefix that ends in a separator (tok-9f3a…, oms_9f3a…). */
const HEX_TOKEN = /^(?:.*[^0-9a-z])?[0-9a-f]{8,}$/i;

/** The 6-bit value of a base64 or base64url character. */
function sextet(character: string): number {
  const index = BASE64_ALPHABET.indexOf(character);
  if (index >= 0) return index;
  return character === '-' || character === '+' ? 62 : 63;
}

/**
 * A character of the same kind (digit, lower or upper case letter, other) that changes the decoded bytes.
 * In a hex token any other hex digit does; in base64 the last character carries 2, 4 or 6 data bits (its
 * high ones), so the replacement differs in the top 2 bits where the kind allows it, else in the top 4, else at all
 * (base64 and base64url agree on no value of '+', '-', '/' and '_' but their own).
 */
export function differentCharacter(character: string, inHexToken: boolean): string {
  const kind = CLASSES.find((members) => members.includes(character)) ?? CLASSES[3];
  const candidates = [...kind].filter((c) => c !== character && (!inHexToken || HEX.test(c)));
  if (inHexToken) return candidates[0];
  const differsAbove = (bits: number) => candidates.find((c) => sextet(c) >> bits !== sextet(character) >> bits);
  return differsAbove(4) ?? differsAbove(2) ?? differsAbove(0) ?? candidates[0];
}

/** The token without its base64 padding, and the padding. */
function splitPadding(token: string): [data: string, padding: string] {
  const data = token.replace(/=+$/, '');
  return [data, token.slice(data.length)];
}

export const NEAR_MISSES: readonly NearMiss[] = [
  {
    what: 'its last character changed',
    alter: (token) => {
      const [data, padding] = splitPadding(token);
      return { token: `${data.slice(0, -1)}${differentCharacter(data.slice(-1), HEX_TOKEN.test(token))}${padding}` };
    },
  },
  {
    // Two, not one: a lone sixth-bit character (base64) or half byte (hex) is dropped by lenient decoders.
    what: 'two characters appended',
    alter: (token) => {
      if (token.endsWith('=')) return { skip: 'the token ends in base64 padding: a decoder ignores whatever follows it, so appending cannot tell a prefix comparison from a lenient decoding' };
      const first = differentCharacter(token.slice(-1), HEX_TOKEN.test(token));
      return { token: `${token}${first}${differentCharacter(first, HEX_TOKEN.test(token))}` };
    },
  },
  {
    what: 'its last character removed',
    alter: (token) => {
      const [data, padding] = splitPadding(token);
      return { token: `${data.slice(0, -1)}${padding}` };
    },
  },
  {
    what: 'its case changed',
    alter: (token) => {
      const swapped = [...token].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
      return swapped === token ? { skip: 'the token has no letters, so changing its case leaves it as it is' } : { token: swapped };
    },
  },
];

/**
 * Schemes a valid token may be sent under that are not Bearer (5.1: "Bearer followed by a space and the access
 * token"). Several of Bearer's length, six letters and a space: a check that compares what follows the seventh
 * character (`substr($h, 7) === $token`, `header[7:]`) takes each of them. And one of each other length from 1 to 8,
 * for a check at another fixed offset. Each has one reading, refused (ORD-AUTH-003): none is Bearer in another
 * letter case, which RFC 9110 (11.1) makes the same scheme, and a correct server may take or refuse.
 */
export const NEAR_MISS_SCHEMES: readonly string[] = [
  // Six letters: a registered scheme (RFC 7616), a plural and a misspelling of Bearer.
  'Digest',
  'Tokens',
  'Baerer',
  // Every other length from 1 to 8.
  'B',
  'Be',
  'JWT',
  'DPoP',
  'OAuth',
  'Bearers',
  'BearerV2',
];
