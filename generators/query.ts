import fc from 'fast-check';
import { bounds, isValidValue, type ListParameter, type ListQuery, type RawValue } from '../contract/query';

/**
 * The values at and across every bound, and the ones no integer parser should take: a fraction, a word,
 * nothing, and the magnitudes and spellings where integer types break (2^31, 2^32, 2^53 + 2, 2^63, an
 * exponent, -0).
 */
export function boundaryValues(name: ListParameter): RawValue[] {
  const { minimum, maximum, default: fallback } = bounds(name);
  const around = (value: number) => [value - 1, value, value + 1];
  const numbers = [...around(minimum), fallback, ...(maximum === undefined ? [] : around(maximum)), -1];
  return [...new Set<RawValue>([...numbers, 1.5, 'abc', '', '9'.repeat(25), 2 ** 31, 2 ** 32, 2 ** 53 + 2, '9223372036854775808', '1e2', '-0'])];
}

export interface ParameterConstraints {
  /** 'valid': within the bounds; 'invalid': outside them or no integer; 'any' (default): both. */
  validity?: 'valid' | 'invalid' | 'any';
  /** Largest valid page generated (page has no upper bound); 5 by default. */
  maxPage?: number;
}

/** A value of page or limit. */
export function parameterValue(name: ListParameter, constraints: ParameterConstraints = {}): fc.Arbitrary<RawValue> {
  const { validity = 'any', maxPage = 5 } = constraints;
  const { minimum, maximum = maxPage } = bounds(name);
  const valid = fc.oneof(fc.integer({ min: minimum, max: maximum }), fc.constantFrom(...boundaryValues(name).filter((v) => isValidValue(name, v))));
  const invalid = fc.constantFrom(...boundaryValues(name).filter((v) => !isValidValue(name, v)));
  if (validity === 'valid') return valid;
  if (validity === 'invalid') return invalid;
  return fc.oneof(valid, invalid);
}

/** A query of GET /orders: page and limit each present or absent, each valid or not as asked. */
export function listQuery(constraints: ParameterConstraints = {}): fc.Arbitrary<ListQuery> {
  return fc.record({ page: parameterValue('page', constraints), limit: parameterValue('limit', constraints) }, { requiredKeys: [] });
}

export interface PageWalk {
  limit: number;
  /** Pages 1..pages are read in turn. */
  pages: number;
}

export interface PageWalkConstraints {
  /** Largest limit; small limits reach page 3 and beyond in a small account. */
  maxLimit?: number;
  maxPages?: number;
}

/** Consecutive pages 1..pages at one valid limit. */
export function pageWalk(constraints: PageWalkConstraints = {}): fc.Arbitrary<PageWalk> {
  const { minimum, maximum = Number.MAX_SAFE_INTEGER } = bounds('limit');
  const { maxLimit = Math.min(10, maximum), maxPages = 5 } = constraints;
  return fc.record({ limit: fc.integer({ min: minimum, max: Math.min(maxLimit, maximum) }), pages: fc.integer({ min: 1, max: maxPages }) });
}
