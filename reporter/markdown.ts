import { LEVELS } from '../requirements/catalogue';
import { commandText, visible } from '../config/safe-text';
import { cutLine, failures, generatedLine, laidOutBody, linesAtFault, runsMade, screenfulAround, seedLabel, skipsByReason, targetLabel, verdictHeadline, verdictReasons } from './display';
import { responseLine, storeLabel, type Evidence } from './evidence';
import { STATUSES, type ConformanceReport } from './report';

/** report.md: a summary short enough for a pull-request comment. */
export function renderMarkdown(report: ConformanceReport): string {
  const icon = { conformant: '✅', inconclusive: '❔', interrupted: '⏹️', 'not-conformant': report.gate.passed ? '⚠️' : '❌' }[report.verdict];
  const reasons = verdictReasons(report);
  const lines = [
    `## ${icon} ${verdictHeadline(report)}`,
    '',
    ...reasons.map(({ cause, what }) => `- **${cause}**: ${codeSpan(what)}`),
    ...(reasons.length ? [''] : []),
    `Suite ${report.suite.name} ${report.suite.version} · target ${codeSpan(targetLabel(report))} · profile **${report.profile}** · effort ${report.effort} · seed ${seedLabel(report)}` +
      `${report.readOnly ? ' · **read-only**' : ''}${report.grep ? ` · grep ${codeSpan(report.grep)}` : ''}${report.shard ? ` · shard ${report.shard}` : ''} · run ${codeSpan(report.runId)}`,
    '',
    ...(report.rateLimitRetries ? [`${report.rateLimitRetries} rate-limited answer(s) (429/503) were waited out and retried.`, ''] : []),
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
      if (finding?.curl) lines.push('', ...codeBlock(commandText(finding.curl), 'sh'));
      if (finding) lines.push(...responseBody(finding));
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

/**
 * A failure's response body under its requirement, as a list item's code block: laid out, the lines past a
 * screenful folded into a details the reader opens. Server text stays inside the code blocks and code spans.
 * The suite puts a column of its own before every line: `→` on a line that holds a field at fault, two spaces
 * on every other, so server text (never in that column: each body line comes after it) cannot pass for a mark.
 */
function responseBody(evidence: Evidence): string[] {
  if (!evidence.response?.body) return [];
  const { text, paths } = laidOutBody(evidence.response.body);
  const marked = linesAtFault(paths, evidence.fieldsAtFault ?? []);
  const body = text.split('\n').map((line, i) => `${marked.has(i) ? MARK : NO_MARK}${line}`);
  const { start, end } = screenfulAround(body.length, [...marked.keys()]);
  const fold = (summary: string, from: number, to: number) =>
    from < to ? ['', `  <details><summary>${summary}</summary>`, '', ...codeBlock(body.slice(from, to).join('\n')), '', '  </details>'] : [];
  const pointers = evidence.fieldsAtFault ?? [];
  const where = marked.size ? ` (marked ${MARK.trim()} in the body below)` : '';
  const atFault = pointers.length ? ['', `  Field at fault: ${pointers.map(codeSpan).join(', ')}${where}`] : [];
  return [
    '',
    `  Response ${codeSpan(responseLine(evidence) ?? '')}:`,
    ...atFault,
    ...fold(`${start} line(s) above the field at fault`, 0, start),
    '',
    ...codeBlock(body.slice(start, end).join('\n')),
    ...fold(`${body.length - end} more line(s)`, end, body.length),
    '',
  ];
}

/** The suite's column before each line of a body in report.md: the mark of a field at fault, or its blank. */
const MARK = '→ ';
const NO_MARK = '  ';

/** A fenced code block inside a list item: the fence longer than any run of backticks in the text, so nothing in it ends the block. */
function codeBlock(text: string, language = ''): string[] {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return [`  ${fence}${language}`, ...text.split('\n').map((line) => `  ${line}`), `  ${fence}`];
}

function oneLine(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
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
