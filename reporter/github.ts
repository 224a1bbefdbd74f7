import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { visible } from '../config/safe-text';
import { DISPLAY, displayOf, failures } from './display';
import { renderMarkdown } from './markdown';
import type { ConformanceReport } from './report';

/**
 * GitHub Actions output of a report: the job summary (the Markdown report, whose escaping of server
 * text is markdown.ts's) and one workflow command per failed requirement: `::error` where the failure
 * fails the run, `::warning` where it does not (a level the profile does not gate on, a known failure).
 */

/** The job summary: verdict, counts table, failed requirements, as report.md has them. */
export function githubSummary(report: ConformanceReport): string {
  return `${renderMarkdown(report)}\n`;
}

/**
 * One annotation per failed requirement, each exactly one line: server text can neither end the
 * command nor start another (workflow commands are recognised only at the start of a line). Its level
 * follows the terminal's tag (terminal.ts): only a failure that gates the run is an error.
 */
export function githubAnnotations(report: ConformanceReport): string[] {
  return failures(report).map((r) => {
    const display = displayOf(r);
    const finding = r.findings[0];
    // Server text in the one form of every channel (config/safe-text.ts): GitHub shows %0A as a line break, and colours ANSI escapes.
    const detail = finding?.expected ? ` Expected ${visible(finding.expected)}; received ${visible(finding.received ?? '')}.` : '';
    const title = `${r.id} (${r.level}, ${DISPLAY[display].label})`;
    const message = `${r.statement}${detail}${r.knownFailure ? ` Known failure: ${visible(r.knownFailure.reason)}` : ''} Evidence and curl line: report.json / index.html.`;
    return `::${display === 'failed' ? 'error' : 'warning'} title=${escapeProperty(title)}::${escapeData(message)}`;
  });
}

/** GitHub's escaping of a command's message (actions/toolkit, command.ts). */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** GitHub's escaping of a command property: also ':' and ',', so no '::' can end the properties early. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * In GitHub Actions (GITHUB_STEP_SUMMARY set): appends the summary and prints the annotations. A shard's
 * partial report is left to the merge, so each failure is annotated once.
 */
export function publishToGithub(report: ConformanceReport, summaryFile: string | undefined, print: (line: string) => void = console.log): void {
  if (!summaryFile || report.shard) return;
  appendFileSync(summaryFile, githubSummary(report));
  for (const line of githubAnnotations(report)) print(line);
}

/**
 * The step outputs of a run or merge (GITHUB_OUTPUT set): verdict, score (percent of the gating
 * requirements passed), report-dir and run-id, for the steps after it (`steps.<id>.outputs.verdict`, the
 * action's outputs). Each value is written in the multi-line form with a delimiter it cannot contain.
 */
export function githubOutputs(report: ConformanceReport, reportDir: string): string {
  const outputs: Array<[string, string]> = [
    ['verdict', report.verdict],
    ['score', String(report.score.percent)],
    ['report-dir', reportDir],
    ['run-id', report.runId],
  ];
  return outputs
    .map(([name, value]) => {
      const delimiter = `ghadelimiter_${randomUUID()}`;
      return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
    })
    .join('');
}

export function writeGithubOutputs(report: ConformanceReport, reportDir: string, outputFile: string | undefined = process.env.GITHUB_OUTPUT): void {
  if (outputFile) appendFileSync(outputFile, githubOutputs(report, reportDir));
}
