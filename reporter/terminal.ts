import { visible } from '../config/safe-text';
import { cutLine, displayOf, failures, generatedLine, seedLabel, verdictHeadline, verdictReasons } from './display';
import { evidenceLines, type EvidenceLimits } from './evidence';
import type { ConformanceReport, RequirementResult } from './report';

/** Lines of one block's multi-line part (received, counterexample) and characters of a body shown in the terminal; the rest is in the report files. */
const LIMITS: EvidenceLimits = { partLines: 12, body: 300 };

const TAG = { failed: 'FAIL', warned: 'warn', known: 'known' } as const;

/** Cuts and gaps listed in the terminal; the rest are in the report files. */
const MAX_LISTED = 8;

function more(count: number): string[] {
  return count > MAX_LISTED ? [`  … ${count - MAX_LISTED} more in the report`] : [];
}

/**
 * What a run prints at its end: one block per failed requirement (the statement, the first
 * counterexample in full, how often and where else it failed), then the verdict as index.html and report.md
 * give it: one short line (verdict, gating count, complete or not), the reasons below it, each once. Every server string is
 * made visible (no control character, escape sequence or line break of its own) and sits after the
 * suite's indentation, so none can start a line or pass for the suite's own output.
 */
export function summaryLines(report: ConformanceReport, notes: string[] = []): string[] {
  const lines: string[] = [];
  for (const r of failures(report)) lines.push('', ...failureBlock(r));
  for (const title of report.unattributedFailures) lines.push('', `FAIL (no requirement) ${visible(title)}`);
  for (const id of report.gate.fixed) lines.push('', `fixed ${id}: listed as a known failure in ${visible(report.gate.expectationsFile ?? '')}, and it passes now; remove it from there`);
  if (report.generated.length) lines.push('', generatedLine(report), `Seed ${seedLabel(report)}`);
  if (report.cuts.length) lines.push('', 'Cut short:', ...report.cuts.slice(0, MAX_LISTED).map((cut) => `  ${visible(cutLine(cut))}`), ...more(report.cuts.length));
  for (const note of notes) lines.push('', note);
  // The reasons: known failures, what the run did not judge (what makes it inconclusive, interrupted or incomplete, and what would complete it), expired expectations.
  const reasons = verdictReasons(report);
  lines.push('', visible(verdictHeadline(report)), ...reasons.slice(0, MAX_LISTED).map(({ cause, what }) => `  ${cause}: ${visible(what)}`), ...more(reasons.length));
  return lines;
}

function failureBlock(r: RequirementResult): string[] {
  const display = displayOf(r) as keyof typeof TAG;
  const head = `${TAG[display] ?? 'FAIL'} ${r.id} (${r.level}, §${r.section}) ${r.statement}`;
  const first = r.findings[0];
  if (!first) return [head];
  const lines = [head, `    in: ${visible(first.test)}`, ...evidenceLines(first, LIMITS).map((line) => `    ${line}`)];
  const others = new Set(r.findings.slice(1).map((f) => f.test).filter((t) => t !== first.test));
  const more = r.occurrences - 1;
  if (more > 0) {
    const where = others.size ? ` in ${others.size} other test(s): ${[...others].slice(0, 3).map(visible).join('; ')}${others.size > 3 ? '; …' : ''}` : ' in the same test';
    lines.push(`    + ${more} more occurrence(s)${where}`);
  }
  if (r.knownFailure) lines.push(`    known failure: ${visible(r.knownFailure.reason)}`);
  return lines;
}

