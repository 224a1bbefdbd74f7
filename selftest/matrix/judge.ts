import type { FaultDefinition } from '../reference/faults';
import { unrelatedFailures } from '../reference/faults/kit';
import type { VariantDefinition } from '../reference/variants';
import { failedRequirements, type SuiteRun } from '../support/run-suite';
import { matrixLatency, rowName, runsWholeSuite, type Row } from './rows';

/** One row of the matrix, as written to disk by the test that ran it. */
export interface RowResult {
  kind: 'fault' | 'variant';
  name: string;
  /** What the fault or variant changes. */
  description: string;
  /** Whether the row ran the whole suite; false for a fault row that ran the tests of its requirements (rows.ts, rowGrep). */
  wholeSuite: boolean;
  /** Fault level; undefined for variants. */
  level?: 'MUST' | 'SHOULD';
  subtle?: boolean;
  /** Requirement ids the fault declares. */
  declared: string[];
  /** Requirements the fault may also make fail (its declared collateral); empty for variants. */
  collateral: string[];
  /** Requirements the run failed, with their levels. */
  failed: Array<{ id: string; level: string }>;
  /** Failed requirements neither declared nor collateral (for a variant: every failed one): false alarms. */
  unrelated: string[];
  /** MUST and SHOULD requirements the run skipped (a variant that only passes by skipping is worth a look). */
  skipped: string[];
  passed: boolean;
  /** Why the row failed, in one paragraph; empty when it passed. */
  reason: string;
  exitCode: number;
  durationMs: number;
}

/** A row judged from its run: a fault by judgeFault, a variant by judgeVariant. */
export function judgeRow(row: Row, run: SuiteRun): RowResult {
  return row.kind === 'fault' ? judgeFault(row.fault, run, runsWholeSuite(row)) : judgeVariant(row.variant, run);
}

/** What a fault row claims of the tests it ran: the whole suite, or those of its requirements only. */
export function faultRowClaim(row: Row & { kind: 'fault' }): string {
  const { fault } = row;
  const by = `catches fault ${rowName(row)} (${fault.level}) by ${fault.catches.join(', ')}`;
  return runsWholeSuite(row) ? `${by} and no unrelated requirement in the whole suite` : `${by} and no unrelated requirement in the tests of its requirements`;
}

const GATING: Record<'MUST' | 'SHOULD', string[]> = { MUST: ['MUST'], SHOULD: ['MUST', 'SHOULD'] };

/**
 * A fault is caught when the tests run against it (the whole suite, or with `wholeSuite` false the tests of its
 * requirements) are not conformant for its level's profile (a MUST fault fails some MUST requirement; a SHOULD
 * fault some MUST or SHOULD one), every requirement it declares failed, and nothing else did: a failed requirement
 * that is neither declared nor declared collateral, or a failure attributed to no requirement, is a false alarm of
 * the suite. What the tests not run would have failed, the whole-suite row of the fault's family answers for.
 */
export function judgeFault(fault: FaultDefinition, run: SuiteRun, wholeSuite = true): RowResult {
  const failed = failedRequirements(run.report).map((r) => ({ id: r.id, level: r.level }));
  const unrelated = unrelatedFailures(fault, failed.map((f) => f.id), matrixLatency() !== undefined);
  const base = rowBase('fault', fault.id, fault.description, run, failed, unrelated, wholeSuite);
  const result = { ...base, level: fault.level, subtle: fault.subtle, declared: fault.catches, collateral: fault.collateral.map((c) => c.requirement) };
  if (!run.report) return { ...result, reason: noReport(`fault ${fault.id}`, run) };
  const missing = fault.catches.filter((id) => !failed.some((f) => f.id === id));
  const gating = failed.filter((f) => GATING[fault.level].includes(f.level));
  const unattributed = run.report.unattributedFailures;
  const problems: string[] = [];
  if (missing.length) problems.push(`expected ${missing.join(', ')} to fail`);
  if (gating.length === 0) problems.push(`expected the ${fault.level === 'MUST' ? 'core' : 'strict'} profile to fail (no ${GATING[fault.level].join(' or ')} requirement failed)`);
  if (unrelated.length) problems.push(`unrelated requirements failed: ${unrelated.join(', ')} (a false alarm of the suite to fix, or collateral the fault truly causes, to declare with because() in selftest/reference/faults)`);
  if (unattributed.length) problems.push(`failures attributed to no requirement: ${unattributed.join('; ')}`);
  if (problems.length === 0) return { ...result, passed: true };
  return {
    ...result,
    reason: `fault ${fault.id} (${fault.level}) was not caught cleanly by ${wholeSuite ? 'the whole suite' : `the tests of its requirements (${[...fault.catches].join(', ')}; selftest/matrix/rows.ts, rowGrep)`}: ${problems.join('; ')}; failed were:\n  ${describeFailed(run, true)}\nsuite output tail:\n${tail(run.output)}`,
  };
}

/**
 * A variant passes when no requirement failed, no failure went unattributed, and strict exits 0: any failure is a
 * false alarm. Deployments (behind-nginx) are held to the same: infrastructure's own pages are observed, not failed.
 */
export function judgeVariant(variant: VariantDefinition, run: SuiteRun): RowResult {
  const failed = failedRequirements(run.report).map((r) => ({ id: r.id, level: r.level }));
  const unrelated = failed.map((f) => f.id);
  const result = { ...rowBase('variant', variant.name, variant.description, run, failed, unrelated, true), declared: [], collateral: [] };
  if (!run.report) return { ...result, reason: noReport(`variant ${variant.name}`, run) };
  const unattributed = run.report.unattributedFailures;
  if (unrelated.length === 0 && unattributed.length === 0 && run.exitCode === 0) return { ...result, passed: true };
  const problems = [
    unrelated.length ? `failed: ${describeFailed(run, true)}` : '',
    unattributed.length ? `failures attributed to no requirement: ${unattributed.join('; ')}` : '',
    run.exitCode !== 0 ? `exit code ${run.exitCode} under the strict profile (0 expected)` : '',
  ].filter(Boolean);
  return {
    ...result,
    reason: `variant ${variant.name} was rejected, a false alarm of the suite: ${problems.join('; ')}; suite output tail:\n${tail(run.output)}`,
  };
}

function rowBase(kind: 'fault' | 'variant', name: string, description: string, run: SuiteRun, failed: RowResult['failed'], unrelated: string[], wholeSuite: boolean) {
  const skipped = (run.report?.requirements ?? [])
    .filter((r) => (r.level === 'MUST' || r.level === 'SHOULD') && r.status === 'skipped')
    .map((r) => r.id);
  return { kind, name, description, wholeSuite, failed, unrelated, skipped, passed: false, reason: '', exitCode: run.exitCode, durationMs: 0 };
}

function describeFailed(run: SuiteRun, withEvidence = false): string {
  const failed = failedRequirements(run.report);
  if (failed.length === 0) return 'none';
  return failed
    .map((r) => `${r.id} (${r.level})${withEvidence && r.evidence[0] ? ` [${r.findings[0]?.test ?? r.tests[0] ?? ''}]: ${r.evidence[0].split('\n').slice(0, 6).join(' | ')}` : ''}`)
    .join(withEvidence ? '\n  ' : ', ');
}

function noReport(what: string, run: SuiteRun): string {
  return `${what}: the suite wrote no report (exit code ${run.exitCode}); suite output tail:\n${tail(run.output)}`;
}

function tail(output: string, lines = 30): string {
  return output.replace(/\x1b\[[0-9;]*m/g, '').trimEnd().split('\n').slice(-lines).join('\n');
}
