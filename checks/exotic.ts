import { hasLoneSurrogate } from '../config/safe-text';

/**
 * Values a correct server may refuse, since the document states types but no required-ness, lengths or
 * ranges of nested fields (2.7: "Required-ness and length limits of nested fields: not shown"; ORD-OBS-017).
 * A refusal of a body holding one is inconclusive, never a failure; a body without any must be accepted.
 */

/** Above this length a server may refuse a string: length limits of nested fields are not shown (2.7). */
export const COMMON_LENGTH_LIMIT = 255;

/** The largest amount and quantity a realistic order holds; above them a server may refuse (NUMERIC(12,2), int32 …). */
export const REALISTIC_AMOUNT = 1_000_000;
export const REALISTIC_QUANTITY = 1_000;

/** Why a value is exotic (the field and what about it), or undefined for a realistic value, at any depth. */
export function exoticValue(value: unknown, key = ''): string | undefined {
  if (typeof value === 'string') return exoticText(value, key);
  if (typeof value === 'number') return exoticNumber(value, key);
  if (Array.isArray(value)) return value.length === 0 && key === 'items' ? 'items is empty (an order without items)' : value.map((inner) => exoticValue(inner, key)).find(Boolean);
  if (value && typeof value === 'object') return Object.entries(value).map(([inner, v]) => exoticValue(v, inner)).find(Boolean);
  return undefined;
}

export function holdsExoticValue(value: unknown): boolean {
  return exoticValue(value) !== undefined;
}

/**
 * Empty, blank (only spaces, however written), longer than COMMON_LENGTH_LIMIT, holding a control character
 * (NUL and the other C0 controls but tab and line breaks: a text column may refuse them) or a lone surrogate
 * (no Unicode text: it has no UTF-8 form), or an e-mail address outside ASCII.
 */
function exoticText(value: string, key: string): string | undefined {
  const field = key || 'a field';
  if (value.replace(/[\s\u200b-\u200f\u2060\ufeff]/gu, '') === '') return `${field} is ${value === '' ? 'empty' : 'blank'}`;
  if (value.length > COMMON_LENGTH_LIMIT) return `${field} is longer than ${COMMON_LENGTH_LIMIT} characters`;
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f]/.test(value)) return `${field} holds a control character`;
  if (hasLoneSurrogate(value)) return `${field} holds a lone surrogate`;
  if (/email|^main$|^work$/i.test(key) && value.includes('@') && /[^\x20-\x7e]/.test(value)) return `${field} is an e-mail address outside ASCII`;
  return undefined;
}

/** A quantity outside 1..REALISTIC_QUANTITY; another number negative, above REALISTIC_AMOUNT, or with more than 2 decimals. */
function exoticNumber(value: number, key: string): string | undefined {
  const field = key || 'a number';
  if (key === 'quantity') return Number.isInteger(value) && value >= 1 && value <= REALISTIC_QUANTITY ? undefined : `${field} ${value} is outside 1..${REALISTIC_QUANTITY}`;
  if (value < 0 || value > REALISTIC_AMOUNT) return `${field} ${value} is outside 0..${REALISTIC_AMOUNT}`;
  // As the request writes it: 0.30000000000000004 has 17 decimals for a server that parses decimals.
  const decimals = /\.(\d+)$/.exec(String(value))?.[1].length ?? (/e/i.test(String(value)) ? Infinity : 0);
  return decimals > 2 ? `${field} ${value} has more than 2 decimals` : undefined;
}
