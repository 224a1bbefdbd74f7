import { LEVELS } from '../requirements/catalogue';
import { cutLine, DISPLAY, displayOf, failures, foldAtScreenful, generatedLine, laidOutBody, linesAtFault, readableBody, runsMade, screenfulAround, seedLabel, skipsByReason, targetLabel, verdictHeadline, verdictReasons, type Display } from './display';
import { commandText, visible, visibleLines } from '../config/safe-text';
import { authorizationSent, isAboutCredentials, requestLine, responseLine, storeLabel, type Evidence } from './evidence';
import { escapeMarkup as escape } from './markup';
import { stateNeeded } from './reproduce';
import { bySection, STATUSES, type ConformanceReport, type RequirementResult } from './report';

/**
 * index.html: one self-contained page (inline style, no script, no network: the Content-Security-Policy
 * forbids every fetch). Verdict first, naming the failed requirements, then the failures with their
 * evidence, open, then the run, the requirements by section coloured by status, the observed behaviours
 * and the skips.
 */
export function renderHtml(report: ConformanceReport): string {
  const conformant = report.verdict === 'conformant';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(verdictHeadline(report))}</title>
<style>${STYLE}</style>
</head>
<body>
<header class="verdict ${conformant ? 'ok' : report.verdict === 'inconclusive' || report.verdict === 'interrupted' ? 'inconclusive' : report.gate.passed ? 'known' : 'bad'}" data-testid="verdict" data-verdict="${report.verdict}">
  <h1>${escape(verdictHeadline(report))}</h1>
  <p>${escape(targetLabel(report))}</p>
${failedNames(report)}${reasons(report)}</header>
<main>
${failuresSection(report)}
${runSection(report)}
${countsSection(report)}
${matrixSection(report)}
${fixedSection(report)}
${observedSection(report)}
${cutsSection(report)}
${generatedSection(report)}
${skippedSection(report)}
${allSection(report)}
</main>
<footer>report.json records the SHA-256 of this page and of every other report file; check them, and the signature over report.json, with <code>oms-conformance verify report.json --pub KEY.pub</code>.</footer>
</body>
</html>
`;
}

/** The header's line of failed requirements, each a link to its evidence. */
function failedNames(report: ConformanceReport): string {
  const failed = failures(report);
  if (!failed.length) return '';
  const links = failed.map((r) => `<a href="#${r.id}">${r.id}</a> (${r.level}${displayOf(r) === 'failed' ? '' : `, ${escape(DISPLAY[displayOf(r)].label)}`})`);
  return `  <p class="failed-names" data-testid="failed-names">Failed: ${links.join(', ')}</p>\n`;
}

function runSection(report: ConformanceReport): string {
  const facts: Array<[string, string]> = [
    ['Suite', `${report.suite.name} ${report.suite.version}`],
    ['openapi.yaml SHA-256', report.suite.openapiSha256],
    ['catalogue SHA-256', report.suite.catalogueSha256],
    ['Target', targetLabel(report)],
    ['Profile', `${report.profile} (${report.profile === 'core' ? 'MUST gates' : 'MUST and SHOULD gate'})`],
    ['Effort', report.effort],
    ['Seed', seedLabel(report)],
    ['Read-only', report.readOnly ? 'yes: requirements that need writes were skipped' : 'no'],
    ['Selection', report.grep || report.shard ? [report.grep && `grep ${report.grep}`, report.shard && `shard ${report.shard}`].filter(Boolean).join(', ') : 'every test'],
    ['Complete', report.complete ? 'yes: every gating requirement was checked' : 'no: why, under the verdict'],
    ['Run id', report.runId + (report.mergedShards ? ` (merged from ${report.mergedShards} shards)` : '')],
    ['Started', report.startedAt],
    ['Finished', report.finishedAt],
    ['Expectations', report.gate.expectationsFile ?? 'none'],
    ['Rate limits', report.rateLimitRetries ? `${report.rateLimitRetries} answer(s) 429/503 waited out and retried` : 'none met'],
  ];
  return `<section id="run"><h2>Run</h2><dl class="facts">${facts.map(([k, v]) => `<dt>${escape(k)}</dt><dd>${escape(v)}</dd>`).join('')}</dl></section>`;
}

function countsSection(report: ConformanceReport): string {
  const rows = LEVELS.map(
    (level) => `<tr><th>${level}</th>${STATUSES.map((s) => `<td>${report.counts[level][s] || '·'}</td>`).join('')}</tr>`,
  ).join('');
  return `<section id="counts"><h2>Counts by level</h2><table class="counts"><thead><tr><th>Level</th>${STATUSES.map((s) => `<th>${s}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table></section>`;
}

function matrixSection(report: ConformanceReport): string {
  const legend = (Object.keys(DISPLAY) as Display[])
    .map((d) => `<span class="cell d-${d}">${escape(DISPLAY[d].label)}</span>`)
    .join(' ');
  const rows = bySection(report.requirements)
    .map(([section, requirements]) => `<tr data-section="${escape(section)}"><th>§${escape(section)}</th><td>${requirements.map(cell).join('')}</td></tr>`)
    .join('');
  return `<section id="matrix"><h2>Requirements by section</h2><p class="legend">${legend}</p><table class="matrix">${rows}</table></section>`;
}

function cell(r: RequirementResult): string {
  const display = displayOf(r);
  const target = r.status === 'failed' ? r.id : `req-${r.id}`;
  return `<a class="cell d-${display}" href="#${target}" data-id="${r.id}" data-status="${r.status}" title="${escape(`${r.id} (${r.level}): ${r.statement} — ${DISPLAY[display].label}`)}">${r.id}</a>`;
}

function failuresSection(report: ConformanceReport): string {
  const failed = failures(report);
  const unattributed = report.unattributedFailures.length
    ? `<h3>Failed tests that name no requirement</h3><ul>${report.unattributedFailures.map((t) => `<li>${escape(t)}</li>`).join('')}</ul>`
    : '';
  if (!failed.length) return `<section id="failures"><h2>Failures</h2><p>None.</p>${unattributed}</section>`;
  const items = failed
    .map((r) => {
      const display = displayOf(r);
      const known = r.knownFailure ? `<p class="known-reason">Known failure: ${escape(r.knownFailure.reason)}</p>` : '';
      return `<details id="${r.id}" class="failure" data-id="${r.id}" open>
<summary><span class="cell d-${display}">${escape(DISPLAY[display].label)}</span> <strong>${r.id}</strong> (${r.level}, §${escape(r.section)}) ${escape(r.statement)}</summary>
${known}<p class="tests">Checked by ${r.tests.length} test(s); it failed in ${failedIn(r)}.</p>
${r.findings.map(finding).join('\n')}
</details>`;
    })
    .join('\n');
  return `<section id="failures"><h2>Failures (${failed.length})</h2><p>Each failure with its evidence: the request, the response, what was expected, and a curl line that reproduces it (and what state it needs, where it needs one).</p>${items}${unattributed}</section>`;
}

function failedIn(r: RequirementResult): string {
  const tests = [...new Set(r.findings.map((f) => f.test))];
  const kept = r.occurrences > r.findings.length ? ` (${r.occurrences} violations in all; the first ${r.findings.length} below)` : '';
  return tests.length ? `${tests.length} of them${kept}` : 'them';
}

/** One finding: the suite's parts with their lines kept, server text (bodies) on one line made visible, the curl line as built (evidence.ts has the same form for plain text). */
function finding(evidence: Evidence): string {
  const request = requestLine(evidence);
  const lines = (text: string | undefined) => text && visibleLines(text).join('\n');
  const parts: Array<[string, string | undefined, string]> = [
    ['Expected', lines(evidence.expected), 'expected'],
    ['Received', lines(evidence.received), 'received'],
    ['Request', request && [visible(request), ...sentCredentials(evidence), ...(evidence.request?.body === undefined ? [] : [readableBody(evidence.request.body)])].join('\n'), 'request'],
    ['Field at fault', evidence.response && evidence.fieldsAtFault?.map(visible).join('\n'), 'at-fault'],
    ['Response', evidence.response && responseBlock(evidence), 'response'],
    ['Reproduce', evidence.curl && commandText(evidence.curl), 'curl'],
    ['Needs', evidence.curl && stateNeeded(evidence), 'state'],
    ['Counterexample', lines(evidence.counterexample), 'counterexample'],
    ['Failure store', evidence.store && visible(storeLabel(evidence.store)), 'store'],
    ['Replay', evidence.replay && commandText(evidence.replay.command), 'replay'],
  ];
  const present = parts.filter(([, value]) => value !== undefined);
  const repeats = evidence.repeats ? `<p class="repeats">${evidence.repeats} more violation(s) of it in the same test.</p>` : '';
  return `<div class="finding"><h4>${escape(evidence.test)}</h4><dl>${present
    .map(([label, value, name]) => `<dt>${label}</dt><dd>${name === 'response' ? value : folded(value as string, name)}</dd>`)
    .join('')}</dl>${repeats}</div>`;
}

/** For a failure of authentication, the Authorization header the request sent (masked): it is what the requirement judges. */
function sentCredentials(evidence: Evidence): string[] {
  return evidence.request && isAboutCredentials(evidence.requirementId) ? [`Authorization ${visible(authorizationSent(evidence.request.headers))}`] : [];
}

/**
 * The response: its status line, then its body laid out, each line that holds a field at fault marked (a mark
 * titled with the requirement and the pointer), a screenful shown around the first mark and the rest folded.
 * Every line is escaped apart from the mark the suite puts around it: server text cannot open or close one.
 */
function responseBlock(evidence: Evidence): string {
  const response = evidence.response as NonNullable<Evidence['response']>;
  const body = response.body === '' ? { text: '(empty)', paths: [undefined] } : laidOutBody(response.body);
  const lines = [visible(responseLine(evidence) ?? ''), ...body.text.split('\n')];
  const marked = new Map([...linesAtFault(body.paths, evidence.fieldsAtFault ?? [])].map(([line, pointer]) => [line + 1, pointer]));
  const { start, end } = screenfulAround(lines.length, [...marked.keys()]);
  const pre = (from: number, to: number) =>
    `<pre class="response">${lines
      .slice(from, to)
      .map((line, i) => {
        const pointer = marked.get(from + i);
        return pointer === undefined ? escape(line) : `<mark class="at-fault" title="${escape(`${evidence.requirementId}: field at fault ${visible(pointer)}`)}">${escape(line)}</mark>`;
      })
      .join('\n')}</pre>`;
  const fold = (summary: string, from: number, to: number) => (from < to ? `<details class="more"><summary>${summary}</summary>${pre(from, to)}</details>` : '');
  if (start === 0) return `${pre(0, end)}${fold(`${lines.length - end} more line(s)`, end, lines.length)}`;
  return `${pre(0, 1)}${fold(`${start - 1} line(s) above the field at fault`, 1, start)}${pre(start, end)}${fold(`${lines.length - end} more line(s)`, end, lines.length)}`;
}

/** A part in a pre, the lines past a screenful folded into a details the reader opens. */
function folded(text: string, name: string): string {
  const { shown, rest, restLines } = foldAtScreenful(text);
  const more = rest ? `<details class="more"><summary>${restLines} more line(s)</summary><pre class="${name}">${escape(rest)}</pre></details>` : '';
  return `<pre class="${name}">${escape(shown)}</pre>${more}`;
}

function fixedSection(report: ConformanceReport): string {
  if (!report.gate.fixed.length) return '';
  return `<section id="fixed"><h2>Known failures that now pass</h2><p>Remove them from ${escape(report.gate.expectationsFile ?? 'the expectations file')}:</p><ul>${report.gate.fixed
    .map((id) => `<li><strong>${id}</strong></li>`)
    .join('')}</ul></section>`;
}

function observedSection(report: ConformanceReport): string {
  const observed = report.requirements.filter((r) => r.observed.length);
  if (!observed.length) return '';
  const rows = observed
    .map((r) => `<tr data-id="${r.id}"><th>${r.id}</th><td>§${escape(r.section)}</td><td>${escape(r.statement)}</td><td>${r.observed.map((v) => `<code>${escape(visible(v))}</code>`).join('<br>')}</td></tr>`)
    .join('');
  return `<section id="observed"><h2>Observed behaviours</h2><p>Where the document leaves the behaviour open, what this server does: reported, never a failure.</p><table><thead><tr><th>Id</th><th>Section</th><th>Question</th><th>Seen</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** Under the headline, once each: the known failures, what the run did not judge and what would complete it, expired expectations. */
function reasons(report: ConformanceReport): string {
  const items = verdictReasons(report).map(({ cause, what }) => `<li data-cause="${escape(cause)}"><strong>${escape(cause)}</strong>: ${escape(what)}</li>`);
  return items.length ? `  <ul class="reasons" data-testid="reasons">${items.join('')}</ul>\n` : '';
}

function cutsSection(report: ConformanceReport): string {
  if (!report.cuts.length) return '';
  return `<section id="cuts"><h2>Cut short</h2><ul>${report.cuts.map((cut) => `<li data-cause="${escape(cut.cause)}">${escape(visible(cutLine(cut)))}</li>`).join('')}</ul></section>`;
}

function generatedSection(report: ConformanceReport): string {
  if (!report.generated.length) return '';
  const rows = report.generated
    .map((g) => `<tr${g.made < g.planned && !g.failed ? ' class="short"' : ''}><td>${escape(g.test)}</td><td>${escape(runsMade(g))}</td><td>${g.requests}</td><td>${g.requirements.join(', ')}</td></tr>`)
    .join('');
  return `<section id="generated"><h2>Generated tests</h2><p>${escape(generatedLine(report))}.</p><table><thead><tr><th>Test</th><th>Runs made of planned</th><th>Requests</th><th>Requirements</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function skippedSection(report: ConformanceReport): string {
  const skips = skipsByReason(report);
  if (!skips.length) return '';
  return `<section id="skipped"><h2>Skipped</h2><ul>${skips.map(([reason, ids]) => `<li>${escape(visible(reason))}: ${ids.join(', ')}</li>`).join('')}</ul></section>`;
}

function allSection(report: ConformanceReport): string {
  const rows = report.requirements
    .map((r) => {
      const display = displayOf(r);
      const notes = visible([...r.skipReasons, ...r.observed.map((v) => `observed: ${v}`)].join('; '));
      return `<tr id="req-${r.id}"><th>${r.id}</th><td>${r.level}</td><td>§${escape(r.section)}</td><td>${escape(r.statement)}</td><td><span class="cell d-${display}">${escape(DISPLAY[display].label)}</span></td><td>${escape(r.checkedOn.join(' '))}</td><td>${escape(r.tests.length ? r.tests.join('; ') : notes)}</td></tr>`;
    })
    .join('');
  return `<section id="all"><h2>Every requirement</h2><table class="all"><thead><tr><th>Id</th><th>Level</th><th>Section</th><th>Statement</th><th>Status</th><th>Checked on</th><th>Tests or reason</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#24292f;background:#f6f8fa}
main{padding:0 24px 24px;max-width:1200px}
header.verdict{padding:18px 24px;color:#fff}
header.verdict h1{margin:0 0 4px;font-size:22px}
header.verdict p{margin:0}
header.verdict .failed-names{margin-top:6px}header.verdict a{color:#fff}
header.verdict ul.reasons{margin:6px 0 0;padding-left:20px}
header.ok{background:#1a7f37}header.bad{background:#cf222e}header.known{background:#8250df}header.inconclusive{background:#57606a}
section{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:4px 16px 12px;margin-top:16px}
h2{font-size:17px}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px}
dl.facts dt{font-weight:600}dl.facts dd{margin:0;word-break:break-all}
table{border-collapse:collapse}
th,td{text-align:left;vertical-align:top;padding:3px 8px;border-bottom:1px solid #eaeef2}
table.counts td{text-align:right}
table.matrix th{white-space:nowrap}
.cell{display:inline-block;margin:2px;padding:2px 6px;border-radius:4px;font:12px/1.5 ui-monospace,SFMono-Regular,Menlo,monospace;text-decoration:none;border:1px solid transparent}
${(Object.keys(DISPLAY) as Display[]).map((d) => `.d-${d}{background:${DISPLAY[d].colour};color:${DISPLAY[d].text}}`).join('\n')}
.d-not-testable{border:1px dashed #8c959f}
details.failure{border:1px solid #d0d7de;border-radius:6px;margin:8px 0;padding:6px 10px}
details.failure summary{cursor:pointer}
.finding{border-top:1px solid #eaeef2;margin-top:8px}
.finding h4{margin:8px 0 4px}
.finding dl{margin:0}.finding dt{font-weight:600;margin-top:4px}.finding dd{margin:0}
pre{background:#f6f8fa;border:1px solid #eaeef2;border-radius:4px;padding:6px 8px;white-space:pre-wrap;word-break:break-all;margin:2px 0;font-size:12px}
pre.curl{background:#0d1117;color:#e6edf3}
pre.state{background:#fff8c5;border-color:#d4a72c}
details.more summary{cursor:pointer;color:#57606a;font-size:12px}
mark.at-fault{background:#ffd8d3;color:#82071e;outline:1px solid #cf222e;font-weight:600}
pre.at-fault{background:#fff0ee;border-color:#cf222e;color:#82071e}
footer{padding:12px 24px;color:#57606a}
`;
