import type { FaultDefinition } from '../../reference/faults';
import type { VariantDefinition } from '../../reference/variants';
import { failedRequirements, type SuiteRun } from '../support/run-suite';

/** One row of the matrix, as written to disk by the test that ran it. */
export interface RowResult {
  kind: 'fault' | 'variant';
  name: string;
  /** What the fault or variant changes. */
  description: string;
  /** Fault level; undefined for variants. */
  level?: 'MUST' | 'SHOULD';
  subtle?: boolean;
  /** Requirement ids the fault declares. */
  declared: string[];
  /** Requirements the run failed, with their levels. */
  failed: Array<{ id: string; level: string }>;
  /** MUST and SHOULD requirements the run skipped (a variant that only passes by skipping is worth a look). */
  skipped: string[];
  passed: boolean;
  /** Which tests the deciding run ran: those of the declared requirements, or the whole suite. */
  scope: Scope;
  /** Why the row failed, in one paragraph; empty when it passed. */
  reason: string;
  exitCode: number;
  durationMs: number;
}

export type Scope = 'declared' | 'whole';

const GATING: Record<'MUST' | 'SHOULD', string[]> = { MUST: ['MUST'], SHOULD: ['MUST', 'SHOULD'] };

/**
 * A fault is caught when the run is not conformant for its level's profile (a MUST fault fails some
 * MUST requirement; a SHOULD fault some MUST or SHOULD one) and every requirement it declares failed.
 */
export function judgeFault(fault: FaultDefinition, run: SuiteRun, scope: Scope): RowResult {
  const failed = failedRequirements(run.report).map((r) => ({ id: r.id, level: r.level }));
  const base = rowBase('fault', fault.id, fault.description, run, failed, scope);
  const result = { ...base, level: fault.level, subtle: fault.subtle, declared: fault.catches };
  if (!run.report) return { ...result, reason: noReport(`fault ${fault.id}`, run) };
  const missing = fault.catches.filter((id) => !failed.some((f) => f.id === id));
  const gating = failed.filter((f) => GATING[fault.level].includes(f.level));
  const problems: string[] = [];
  if (missing.length) problems.push(`expected ${missing.join(', ')} to fail`);
  if (gating.length === 0) problems.push(`expected the ${fault.level === 'MUST' ? 'core' : 'strict'} profile to fail (no ${GATING[fault.level].join(' or ')} requirement failed)`);
  if (problems.length === 0) return { ...result, passed: true };
  return {
    ...result,
    reason: `fault ${fault.id} (${fault.level}) was not caught by the ${scope === 'whole' ? 'whole suite' : 'tests of its requirements'}: ${problems.join('; ')}; failed were: ${describeFailed(run)}; suite output tail:\n${tail(run.output)}`,
  };
}

/** A variant passes when no MUST or SHOULD requirement failed, no failure went unattributed, and strict exits 0. */
export function judgeVariant(variant: VariantDefinition, run: SuiteRun, scope: Scope): RowResult {
  const failed = failedRequirements(run.report).map((r) => ({ id: r.id, level: r.level }));
  const result = { ...rowBase('variant', variant.name, variant.description, run, failed, scope), declared: [] };
  if (!run.report) return { ...result, reason: noReport(`variant ${variant.name}`, run) };
  const gating = failed.filter((f) => f.level === 'MUST' || f.level === 'SHOULD');
  const unattributed = run.report.unattributedFailures;
  if (gating.length === 0 && unattributed.length === 0 && run.exitCode === 0) return { ...result, passed: true };
  const problems = [
    gating.length ? `failed: ${describeFailed(run, true)}` : '',
    unattributed.length ? `failures attributed to no requirement: ${unattributed.join('; ')}` : '',
    run.exitCode !== 0 ? `exit code ${run.exitCode} under the strict profile` : '',
  ].filter(Boolean);
  return {
    ...result,
    reason: `variant ${variant.name} was rejected, a false alarm of the suite: ${problems.join('; ')}; suite output tail:\n${tail(run.output)}`,
  };
}

function rowBase(kind: 'fault' | 'variant', name: string, description: string, run: SuiteRun, failed: RowResult['failed'], scope: Scope) {
  const skipped = (run.report?.requirements ?? [])
    .filter((r) => (r.level === 'MUST' || r.level === 'SHOULD') && r.status === 'skipped')
    .map((r) => r.id);
  return { kind, name, description, failed, skipped, passed: false, scope, reason: '', exitCode: run.exitCode, durationMs: 0 };
}

function describeFailed(run: SuiteRun, withEvidence = false): string {
  const failed = failedRequirements(run.report);
  if (failed.length === 0) return 'none';
  return failed
    .map((r) => `${r.id} (${r.level})${withEvidence && r.evidence[0] ? ` [${r.tests[0] ?? ''}]: ${r.evidence[0].split('\n').slice(0, 6).join(' | ')}` : ''}`)
    .join(withEvidence ? '\n  ' : ', ');
}

function noReport(what: string, run: SuiteRun): string {
  return `${what}: the suite wrote no report (exit code ${run.exitCode}); suite output tail:\n${tail(run.output)}`;
}

function tail(output: string, lines = 30): string {
  return output.replace(/\x1b\[[0-9;]*m/g, '').trimEnd().split('\n').slice(-lines).join('\n');
}
