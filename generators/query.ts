import fc from 'fast-check';
import { contract } from '../contract/openapi';

/**
 * Query parameters of GET /orders (page, limit), from their bounds in openapi.yaml
 * (components.parameters Page and Limit: minimum, maximum, default).
 */

export type ListParameter = 'page' | 'limit';

export interface ParameterBounds {
  minimum: number;
  /** Absent for page: it has no upper bound. */
  maximum?: number;
  default: number;
}

export function bounds(name: ListParameter): ParameterBounds {
  return contract().queryParameter('listOrders', name) as unknown as ParameterBounds;
}

/** A value as it goes into the query string. */
export type RawValue = string | number;

/**
 * The largest page a server is expected to parse: page has no upper bound in openapi.yaml, but a server
 * that reads it as a 32-bit integer may refuse a larger one, so larger pages count as out of range
 * (a 4xx or a clamped page, ORD-LIST-010), never as pages that must be answered.
 */
export const LARGEST_PARSED_PAGE = 2 ** 31 - 1;

/** True when openapi.yaml allows the value: an integer within the bounds (an empty value is no integer). */
export function isValidValue(name: ListParameter, raw: RawValue): boolean {
  const text = String(raw);
  if (!/^-?\d+$/.test(text)) return false;
  const value = Number(text);
  const { minimum, maximum = name === 'page' ? LARGEST_PARSED_PAGE : undefined } = bounds(name);
  return Number.isSafeInteger(value) && value >= minimum && (maximum === undefined || value <= maximum);
}

/** The values at and across every bound, and the ones no integer parser should take. */
export function boundaryValues(name: ListParameter): RawValue[] {
  const { minimum, maximum, default: fallback } = bounds(name);
  const around = (value: number) => [value - 1, value, value + 1];
  const numbers = [...around(minimum), fallback, ...(maximum === undefined ? [] : around(maximum)), -1];
  return [...new Set<RawValue>([...numbers, 1.5, 'abc', '', '9'.repeat(25), 2 ** 31, 2 ** 53 + 2])];
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

export type ListQuery = Partial<Record<ListParameter, RawValue>>;

/** A query of GET /orders: page and limit each present or absent, each valid or not as asked. */
export function listQuery(constraints: ParameterConstraints = {}): fc.Arbitrary<ListQuery> {
  return fc.record({ page: parameterValue('page', constraints), limit: parameterValue('limit', constraints) }, { requiredKeys: [] });
}

/** True when every parameter of the query is allowed by openapi.yaml. */
export function isValidQuery(query: ListQuery): boolean {
  return Object.entries(query).every(([name, raw]) => isValidValue(name as ListParameter, raw as RawValue));
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
