import { LEVELS } from '../harness/requirements';
import { failures, skipsByReason, targetLabel } from './display';
import { STATUSES, verdictLine, type ConformanceReport } from './report';

/** report.md: a summary short enough for a pull-request comment. */
export function renderMarkdown(report: ConformanceReport): string {
  const icon = report.verdict === 'conformant' ? '✅' : report.gate.passed ? '⚠️' : '❌';
  const lines = [
    `## ${icon} ${verdictLine(report)}`,
    '',
    `Suite ${report.suite.name} ${report.suite.version} · target ${inline(targetLabel(report))} · profile **${report.profile}** · effort ${report.effort} · seed ${report.seed ?? 'random'}` +
      `${report.readOnly ? ' · **read-only**' : ''}${report.grep ? ` · grep ${inline(report.grep)}` : ''}${report.shard ? ` · shard ${report.shard}` : ''} · run ${inline(report.runId)}`,
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
      const detail = finding?.expected ? ` Expected ${inline(oneLine(finding.expected))}, received ${inline(oneLine(finding.received ?? ''))}.` : '';
      lines.push(`- **${r.id}** (${r.level}, §${r.section}, ${tag}): ${r.statement}${detail}${r.knownFailure ? ` Known: ${r.knownFailure.reason}` : ''}`);
    }
  }
  if (report.unattributedFailures.length) {
    lines.push('', '### Failed tests that name no requirement', '', ...report.unattributedFailures.map((t) => `- ${t}`));
  }
  if (report.gate.fixed.length) {
    lines.push('', '### Known failures that now pass', '', 'Remove them from the expectations file:', '');
    for (const id of report.gate.fixed) lines.push(`- **${id}**`);
  }
  const observed = report.requirements.filter((r) => r.observed.length);
  if (observed.length) {
    lines.push('', '### Observed behaviours', '');
    for (const r of observed) lines.push(`- **${r.id}** (§${r.section}) ${r.statement} — ${r.observed.map(inline).join(', ')}`);
  }
  const skips = skipsByReason(report);
  if (skips.length) {
    lines.push('', '### Skipped', '');
    for (const [reason, ids] of skips) lines.push(`- ${ids.length} requirement(s): ${reason} (${ids.join(', ')})`);
  }
  lines.push('', 'Full evidence, with a curl line for every failure: `index.html` and `report.json` in the report directory.', '');
  return lines.join('\n');
}

function oneLine(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** Inline code that survives backticks inside the text. */
function inline(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${text.replace(/\n/g, ' ')}${fence}`;
}
