import { FAULTS, type FaultDefinition } from '../reference/faults';
import { VARIANTS, type VariantDefinition } from '../reference/variants';

export type Row = { kind: 'fault'; fault: FaultDefinition } | { kind: 'variant'; variant: VariantDefinition };

export const rowName = (row: Row): string => (row.kind === 'fault' ? row.fault.id : row.variant.name);

/** A few rows that exercise every mechanism (paging, round trips, auth, formats, errors, concurrency, variants). */
const QUICK = [
  'list-page-three-overlap',
  'list-default-limit-20',
  'create-mangles-non-ascii',
  'get-returns-newest',
  'update-changes-id',
  'delete-removes-neighbour',
  'auth-no-token-accepted',
  'format-text-plain',
  'errors-malformed-json-500',
  'concurrency-duplicate-ids',
  'create-200',
  'soft-delete',
  'prefixed-ids',
];

/** Variants that slow every request come first, so the two workers finish together. */
const SLOW_FIRST = ['latency-150ms', 'rate-limit-429', 'background-writer', 'prefilled-account'];

/**
 * Rows that spend their time waiting (Retry-After, latency) run the suite with two workers, the suite's
 * default, halving their time without taking more processor; with latency this also proves that list
 * checks hold their stable views while the other worker writes (harness/requests/quiet.ts).
 */
const WAITING = ['rate-limit-429', 'latency-150ms'];

export function suiteWorkers(row: Row): number {
  return WAITING.includes(rowName(row)) ? 2 : 1;
}

export const ALL_ROWS: Row[] = [
  ...[...VARIANTS].sort((a, b) => rank(a.name) - rank(b.name)).map((variant): Row => ({ kind: 'variant', variant })),
  ...FAULTS.map((fault): Row => ({ kind: 'fault', fault })),
];

/**
 * The rows OMS_MATRIX selects: unset or "full" for every row, "quick" for a representative dozen, or
 * a comma-separated list of fault ids and variant names.
 */
export function selectRows(selection: string | undefined): Row[] {
  const value = (selection ?? '').trim();
  if (value === '' || value === 'full') return ALL_ROWS;
  const names = value === 'quick' ? QUICK : value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !ALL_ROWS.some((row) => rowName(row) === name));
  if (unknown.length) throw new Error(`OMS_MATRIX names no fault or variant: ${unknown.join(', ')} (use "full", "quick" or a list of names)`);
  return ALL_ROWS.filter((row) => names.includes(rowName(row)));
}

function rank(name: string): number {
  const index = SLOW_FIRST.indexOf(name);
  return index === -1 ? SLOW_FIRST.length : index;
}
