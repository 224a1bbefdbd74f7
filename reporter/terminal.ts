import { visible, visibleLines } from '../config/safe-text';
import { cutLine, displayOf, failures, generatedLine } from './display';
import { requestLine, responseLine, type Evidence } from './evidence';
import { verdictLine, type ConformanceReport, type RequirementResult } from './report';

/** Lines of one block's multi-line part (received, counterexample) shown in the terminal; the rest is in the report files. */
const MAX_PART_LINES = 12;
/** Characters of a response body shown in the terminal. */
const MAX_BODY = 300;

const TAG = { failed: 'FAIL', warned: 'warn', known: 'known' } as const;

/** Cuts and gaps listed in the terminal; the rest are in the report files. */
const MAX_LISTED = 8;

function more(count: number): string[] {
  return count > MAX_LISTED ? [`  … ${count - MAX_LISTED} more in the report`] : [];
}

/**
 * What a run prints at its end: one block per failed requirement (the statement, the first
 * counterexample in full, how often and where else it failed), then the verdict. Every server string is
 * made visible (no control character, escape sequence or line break of its own) and sits after the
 * suite's indentation, so none can start a line or pass for the suite's own output.
 */
export function summaryLines(report: ConformanceReport, notes: string[] = []): string[] {
  const lines: string[] = [];
  for (const r of failures(report)) lines.push('', ...failureBlock(r));
  for (const title of report.unattributedFailures) lines.push('', `FAIL (no requirement) ${visible(title)}`);
  for (const id of report.gate.fixed) lines.push('', `fixed ${id}: listed as a known failure in ${visible(report.gate.expectationsFile ?? '')}, and it passes now; remove it from there`);
  if (report.generated.length) lines.push('', generatedLine(report));
  if (report.cuts.length) lines.push('', 'Cut short:', ...report.cuts.slice(0, MAX_LISTED).map((cut) => `  ${visible(cutLine(cut))}`), ...more(report.cuts.length));
  // What the run did not judge, by cause: what makes it inconclusive, interrupted or incomplete, and what would complete it.
  if (!report.complete) lines.push('', 'Not judged:', ...report.gaps.slice(0, MAX_LISTED).map((gap) => `  ${gap.cause}: ${visible(gap.what)}`), ...more(report.gaps.length));
  for (const note of notes) lines.push('', note);
  lines.push('', visible(verdictLine(report)));
  return lines;
}

function failureBlock(r: RequirementResult): string[] {
  const display = displayOf(r) as keyof typeof TAG;
  const head = `${TAG[display] ?? 'FAIL'} ${r.id} (${r.level}, §${r.section}) ${r.statement}`;
  const first = r.findings[0];
  if (!first) return [head];
  const lines = [head, `    in: ${visible(first.test)}`, ...evidenceLines(first)];
  const others = new Set(r.findings.slice(1).map((f) => f.test).filter((t) => t !== first.test));
  const more = r.occurrences - 1;
  if (more > 0) {
    const where = others.size ? ` in ${others.size} other test(s): ${[...others].slice(0, 3).map(visible).join('; ')}${others.size > 3 ? '; …' : ''}` : ' in the same test';
    lines.push(`    + ${more} more occurrence(s)${where}`);
  }
  if (r.knownFailure) lines.push(`    known failure: ${visible(r.knownFailure.reason)}`);
  return lines;
}

function evidenceLines(e: Evidence): string[] {
  const lines = [...part('Expected', e.expected), ...part('Received', e.received)];
  const request = requestLine(e);
  if (request) lines.push(`    Request:   ${visible(request)}`);
  const response = responseLine(e);
  if (response && e.response) {
    const body = e.response.body === '' ? '(empty)' : e.response.body.length > MAX_BODY ? `${e.response.body.slice(0, MAX_BODY)}… (${e.response.body.length} characters)` : e.response.body;
    lines.push(`    Response:  ${visible(response)} ${visible(body)}`);
  }
  if (e.curl) lines.push(`    Reproduce: ${visible(e.curl)}`);
  if (e.counterexample) lines.push(...part('Counterexample', e.counterexample));
  if (e.replay) lines.push(`    Replay:    ${visible(e.replay.command)}`);
  return lines;
}

/** A labelled part, its own lines kept (each made visible and indented), cut to a bounded number. */
function part(label: string, text: string): string[] {
  const all = visibleLines(text);
  const shown = all.slice(0, MAX_PART_LINES);
  if (all.length > shown.length) shown.push(`… ${all.length - shown.length} more line(s) in the report`);
  return shown.map((line, i) => (i === 0 ? `    ${`${label}: `.padEnd(11)}${line}` : `      ${line}`));
}
