import { contract } from './openapi';

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

export type ListQuery = Partial<Record<ListParameter, RawValue>>;

/** True when every parameter of the query is allowed by openapi.yaml. */
export function isValidQuery(query: ListQuery): boolean {
  return Object.entries(query).every(([name, raw]) => isValidValue(name as ListParameter, raw as RawValue));
}
