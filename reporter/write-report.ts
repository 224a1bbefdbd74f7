import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { renderBadge } from './badge';
import { failureExchanges, renderHar } from './har';
import { renderHtml } from './html';
import { integrityOf, signReport } from './integrity';
import { renderJunit } from './junit';
import { renderMarkdown } from './markdown';
import { jsonText } from './markup';
import { REPORT_FILES, type ConformanceReport } from './report';

/** Removes the report files of an earlier run, so nothing stale is read as this run's result. */
export function clearReport(directory: string): void {
  for (const file of Object.values(REPORT_FILES)) rmSync(join(directory, file), { force: true });
}

/**
 * Writes every report file, then report.json with the SHA-256 of the others and, given a key, its
 * Ed25519 signature. report.json is written last: its presence means the report is whole.
 */
export function writeReport(directory: string, withBodies: ConformanceReport, signingKey?: KeyObject, options: { har?: boolean } = {}): ConformanceReport {
  mkdirSync(directory, { recursive: true });
  const har = options.har ? renderHar(failureExchanges(withBodies), { name: withBodies.suite.name, version: withBodies.suite.version }, new Date(withBodies.finishedAt)) : undefined;
  // The whole bodies the findings kept for failures.har stay out of every other file: report.json keeps excerpts.
  const report: ConformanceReport = { ...withBodies, requirements: withBodies.requirements.map((r) => ({ ...r, findings: r.findings.map(({ whole: _whole, ...finding }) => finding) })) };
  const rendered: Array<[string, string]> = [
    [REPORT_FILES.markdown, renderMarkdown(report)],
    [REPORT_FILES.html, renderHtml(report)],
    [REPORT_FILES.badge, renderBadge(report)],
    [REPORT_FILES.junit, renderJunit(report)],
  ];
  if (har) rendered.push([REPORT_FILES.har, har]);
  for (const [file, content] of rendered) writeFileSync(join(directory, file), content);
  const finished: ConformanceReport = { ...report, integrity: integrityOf(directory, rendered.map(([file]) => file)) };
  if (signingKey && finished.integrity) finished.integrity.signature = signReport(finished, signingKey);
  writeFileSync(join(directory, REPORT_FILES.json), `${jsonText(finished)}\n`);
  return finished;
}

