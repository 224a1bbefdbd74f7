import { LEVELS } from '../requirements/catalogue';
import { commandText, visible } from '../config/safe-text';
import { cutLine, failures, generatedLine, runsMade, seedLabel, skipsByReason, targetLabel } from './display';
import { storeLabel } from './evidence';
import { STATUSES, verdictLine, type ConformanceReport } from './report';

/** report.md: a summary short enough for a pull-request comment. */
export function renderMarkdown(report: ConformanceReport): string {
  const icon = { conformant: '✅', inconclusive: '❔', interrupted: '⏹️', 'not-conformant': report.gate.passed ? '⚠️' : '❌' }[report.verdict];
  const lines = [
    `## ${icon} ${verdictLine(report)}`,
    '',
    `Suite ${report.suite.name} ${report.suite.version} · target ${codeSpan(targetLabel(report))} · profile **${report.profile}** · effort ${report.effort} · seed ${seedLabel(report)}` +
      `${report.readOnly ? ' · **read-only**' : ''}${report.grep ? ` · grep ${codeSpan(report.grep)}` : ''}${report.shard ? ` · shard ${report.shard}` : ''} · run ${codeSpan(report.runId)}`,
    '',
    `Score: ${report.score.passed} of ${report.score.gating} gating requirements passed (${report.score.percent}%).` +
      (report.rateLimitRetries ? ` ${report.rateLimitRetries} rate-limited answer(s) (429/503) were waited out and retried.` : ''),
    '',
    `| Level | ${STATUSES.join(' | ')} |`,
    `|---|${STATUSES.map(() => '---:').join('|')}|`,
    ...LEVELS.map((level) => `| ${level} | ${STATUSES.map((s) => report.counts[level][s] || '·').join(' | ')} |`),
  ];
  const failed = failures(report);
  if (failed.length) {
    lines.push('', '### Failed requirements', '');
    for (const r of failed) {
      const tag = r.knownFailure ? 'known failure' : r.gating ? 'FAIL' : 'warning, not gating';
      const finding = r.findings[0];
      const detail = finding?.expected ? ` Expected ${codeSpan(oneLine(finding.expected))}, received ${codeSpan(oneLine(finding.received ?? ''))}.` : '';
      const stored = r.findings.find((f) => f.store?.replayed)?.store;
      // The file name is the store's own (a slug and a hash), shown as code; the label is one line already.
      const fromStore = stored ? ` ${storeLabel(stored).replace(stored.file, codeSpan(stored.file))}.` : '';
      lines.push(`- **${r.id}** (${r.level}, §${r.section}, ${tag}): ${r.statement}${detail}${fromStore}${r.knownFailure ? ` Known: ${codeSpan(r.knownFailure.reason)}` : ''}`);
      if (finding?.curl) lines.push('', ...shellBlock(commandText(finding.curl)).map((line) => `  ${line}`));
    }
  }
  if (report.unattributedFailures.length) {
    lines.push('', '### Failed tests that name no requirement', '', ...report.unattributedFailures.map((t) => `- ${codeSpan(t)}`));
  }
  if (report.gate.fixed.length) {
    lines.push('', '### Known failures that now pass', '', 'Remove them from the expectations file:', '');
    for (const id of report.gate.fixed) lines.push(`- **${id}**`);
  }
  const observed = report.requirements.filter((r) => r.observed.length);
  if (observed.length) {
    lines.push('', '### Observed behaviours', '');
    for (const r of observed) lines.push(`- **${r.id}** (§${r.section}) ${r.statement} — ${r.observed.map(codeSpan).join(', ')}`);
  }
  if (!report.complete) {
    lines.push('', '### Not judged', '', 'What this run did not judge, and why: it is not a certification.', '');
    for (const gap of report.gaps) lines.push(`- **${gap.cause}**: ${codeSpan(gap.what)}`);
  }
  if (report.cuts.length) {
    lines.push('', '### Cut short', '');
    for (const cut of report.cuts) lines.push(`- ${codeSpan(cutLine(cut))}`);
  }
  if (report.generated.length) {
    lines.push('', '### Generated tests', '', `${generatedLine(report)}.`, '', '| Test | Runs made of planned | Requests |', '|---|---|---|');
    for (const g of report.generated) lines.push(`| ${codeSpan(g.test)} | ${runsMade(g)} | ${g.requests} |`);
  }
  const skips = skipsByReason(report);
  if (skips.length) {
    lines.push('', '### Skipped', '');
    for (const [reason, ids] of skips) lines.push(`- ${ids.length} requirement(s): ${codeSpan(reason)} (${ids.join(', ')})`);
  }
  lines.push('', 'Full evidence, with a curl line for every failure: `index.html` and `report.json` in the report directory.', '');
  return lines.join('\n');
}

function oneLine(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/**
 * A command as a fenced code block (GitHub gives it a copy button): its text as it is, since nothing in a
 * code block is markup, and a fence longer than any run of backticks in it, so no line of it can close the block.
 */
function shellBlock(command: string): string[] {
  const fence = '`'.repeat(Math.max(3, ...(command.match(/`+/g) ?? []).map((run) => run.length + 1)));
  return [`${fence}sh`, command, fence];
}

/**
 * A Markdown code span that holds any text as text: the fence is longer than the longest run of
 * backticks inside, padded where the text starts or ends with one, and control characters are shown
 * as escapes. Nothing inside a code span is markup, so server text cannot inject HTML or links.
 */
export function codeSpan(text: string): string {
  const content = visible(text);
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = content.startsWith('`') || content.endsWith('`') || content === '' ? ' ' : '';
  return `${fence}${pad}${content}${pad}${fence}`;
}
