import { join } from 'node:path';
import type { Settings } from '../../config/settings';
import { FAULT_FAMILIES, FAULTS, type FaultDefinition } from '../reference/faults';
import { VARIANTS, type VariantDefinition } from '../reference/variants';

/** Where the matrix run writes each row's report (test-results/matrix/reports/<row>/report.json). */
export const MATRIX_REPORTS = join(__dirname, '..', '..', 'test-results', 'matrix', 'reports');

/** Where the matrix's rows keep their ledgers (a passing row leaves them empty); removed after the run. */
export const MATRIX_LEDGERS = join(__dirname, '..', '..', 'test-results', 'matrix', 'ledger');

export type Row = { kind: 'fault'; fault: FaultDefinition } | { kind: 'variant'; variant: VariantDefinition };

export const rowName = (row: Row): string => (row.kind === 'fault' ? row.fault.id : row.variant.name);

/**
 * The families whose every fault runs the whole suite: what catches them is no test but the run around the tests (a
 * token renewal, the worker's cleanup, the first request of the run), which no requirement tag selects.
 */
const WHOLE_SUITE_FAMILIES = ['outside-tests'];

/**
 * The faults that run the whole suite, so the matrix still shows, family by family (FAULT_FAMILIES), that a fault
 * fails nothing unrelated anywhere in the suite: in each family the one with the most declared collateral (the first
 * of them), whose declarations the whole suite tests most, and every fault of WHOLE_SUITE_FAMILIES.
 */
export const WHOLE_SUITE_FAULTS: readonly string[] = Object.entries(FAULT_FAMILIES).flatMap(([family, faults]) =>
  WHOLE_SUITE_FAMILIES.includes(family) ? faults.map((fault) => fault.id) : [faults.reduce((most, fault) => (fault.collateral.length > most.collateral.length ? fault : most)).id],
);

/** Whether a row runs the whole suite: every variant, and the faults of WHOLE_SUITE_FAULTS. */
export function runsWholeSuite(row: Row): boolean {
  return row.kind === 'variant' || WHOLE_SUITE_FAULTS.includes(row.fault.id);
}

/**
 * The tests a row runs, as a Playwright grep on their requirement tags (verifies() tags each test @ORD-…), or
 * undefined for the whole suite: a fault row outside WHOLE_SUITE_FAULTS runs the tests of the requirements it
 * declares, those that must catch it, and of those CAUGHT_ALSO_BY names for it.
 */
export function rowGrep(row: Row): RegExp | undefined {
  if (row.kind === 'variant' || runsWholeSuite(row)) return undefined;
  const ids = [...row.fault.catches, ...(CAUGHT_ALSO_BY[row.fault.id] ?? [])];
  return new RegExp(`@(?:${ids.join('|')})(?![\\w-])`);
}

/**
 * Requirements whose tests a fault row runs besides those it declares, where the declared one is judged by a check
 * every exchange gets (ORD-FORM-001: the format of every field of every answer; ORD-GEN-001: a JSON body) and the tests tagged with it never
 * meet the fault: these are the tests that do.
 */
export const CAUGHT_ALSO_BY: Readonly<Record<string, readonly string[]>> = {
  // An update that sends customer null, a create of a total beyond a double: only the coverage phase's edge values
  // and updates to null (the tests of ORD-OBS-034) send one.
  'update-null-customer-stored': ['ORD-OBS-034'],
  'create-total-beyond-double-empty-body': ['ORD-OBS-034'],
  // The answer of an update: the tests of ids an update does not take (ORD-UPDATE-007) read it field by field.
  'format-updated-at-epoch-after-update': ['ORD-UPDATE-007'],
  'update-nulls-omitted-fields': ['ORD-UPDATE-007'],
  // An order made without placed_at, read back: the tests of each operation under a valid token (ORD-AUTH-002) make one.
  'unsent-placed-at-not-a-date': ['ORD-AUTH-002'],
};

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

/** Rows that spend their time waiting (latency, Retry-After, a prefilled account, another client), first: they end last otherwise. */
export const SLOW_ROWS = ['rate-limit-429', 'rate-limit-429-early', 'latency-150ms', 'latency-50ms', 'background-writer', 'prefilled-account'];

/** Rows whose lists lag behind writes (an index 800 ms behind the store): the only ones a list may show a write late. */
const LAGGING_LISTS = ['list-index-drops-orders'];

/**
 * A row's settings, as a user would set them for its server: the reference server lists a write at once, so
 * a list judgement that fails (a fault in the list, the point of a third of the faults) re-reads for 1 s, not
 * the default 5 s, before it is judged (the rows of list faults took 30 to 50 s each, nearly all of it waiting).
 */
export function rowSettings(row: Row, latencyMs = matrixLatency()): Partial<Settings> {
  const name = rowName(row);
  // A latency variant is run as a server that far away is: the round trip the suite would measure (many tests' requests in flight at once).
  const latency = /^latency-(\d+)ms$/.exec(name);
  const roundTripMs = latency ? Number(latency[1]) : latencyMs;
  return { ...(!LAGGING_LISTS.includes(name) && { listSettleMs: 1_000 }), ...(roundTripMs !== undefined && { roundTripMs }) };
}

/** The variables that name a row's behaviour to the reference server (selftest/reference/behaviours.ts); with OMS_MATRIX_LATENCY, every answer that many ms late. */
export function rowVariables(row: Row, latencyMs = matrixLatency()): Record<string, string> {
  const behaviour: Record<string, string> = row.kind === 'fault' ? { OMS_FAULT: row.fault.id } : { OMS_VARIANT: row.variant.name };
  return latencyMs === undefined || /^latency-/.test(rowName(row)) ? behaviour : { ...behaviour, OMS_KNOBS: `latency=latency-${latencyMs}ms` };
}

/**
 * OMS_MATRIX_LATENCY=50 or 150: every row's server answers that many ms late, and the suite runs as it does that far
 * away (many tests' requests in flight at once): the same verdicts as at 0 ms, for the rows selected.
 */
export function matrixLatency(value = process.env.OMS_MATRIX_LATENCY): number | undefined {
  if (value === undefined || value === '' || value === '0') return undefined;
  if (value !== '50' && value !== '150') throw new Error(`OMS_MATRIX_LATENCY takes 50 or 150 (the latency knob's values), got ${JSON.stringify(value)}`);
  return Number(value);
}

/** A row's run id: the matrix run's, then the row's name (letters, digits and dashes, as a run id may hold). */
export function rowRunId(row: Row, matrixRunId = process.env.OMS_RUN_ID ?? 'matrix'): string {
  return `${matrixRunId}-${rowName(row)}`;
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
  const index = SLOW_ROWS.indexOf(name);
  return index === -1 ? SLOW_ROWS.length : index;
}
