import { visible } from '../config/safe-text';
import { evidenceLines } from './evidence';
import { escapeMarkup as escape } from './markup';
import { bySection, type ConformanceReport, type RequirementResult } from './report';

/** junit.xml: one test suite per section of the document, one test case per requirement. */
export function renderJunit(report: ConformanceReport): string {
  const suites = bySection(report.requirements).map(([section, requirements]) => {
    const cases = requirements.map(testCase);
    const failures = requirements.filter((r) => outcome(r) === 'failure').length;
    const skipped = requirements.filter((r) => outcome(r) === 'skipped').length;
    return [
      `  <testsuite name="section ${escape(section)}" tests="${requirements.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  const failures = report.requirements.filter((r) => outcome(r) === 'failure').length;
  const skipped = report.requirements.filter((r) => outcome(r) === 'skipped').length;
  const seconds = Math.max(0, (Date.parse(report.finishedAt) - Date.parse(report.startedAt)) / 1000);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="OMS conformance (${report.profile})" tests="${report.requirements.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds.toFixed(3)}" timestamp="${report.startedAt}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * Only a failure that fails the run is a JUnit failure; a known failure or one of a level the profile
 * does not gate on is a skipped case that says so, so a CI dashboard agrees with the exit code.
 */
function outcome(r: RequirementResult): 'failure' | 'skipped' | 'passed' {
  if (r.status === 'failed') return r.gating && !r.knownFailure ? 'failure' : 'skipped';
  return r.status === 'passed' || r.status === 'observed' ? 'passed' : 'skipped';
}

function testCase(r: RequirementResult): string {
  const open = `    <testcase classname="oms-conformance.section-${escape(r.section)}" name="${escape(`${r.id} (${r.level}): ${r.statement}`)}" time="0">`;
  const body: string[] = [];
  const out: string[] = [];
  if (outcome(r) === 'failure') {
    const message = r.findings[0]?.expected ? `expected ${r.findings[0].expected}` : r.statement;
    body.push(`      <failure message="${escape(visible(firstLine(message)))}" type="${r.level}">${escape(evidenceText(r))}</failure>`);
  } else if (r.status === 'failed') {
    const why = r.knownFailure ? `known failure: ${r.knownFailure.reason}` : `${r.level} failed; this level does not gate the chosen profile`;
    body.push(`      <skipped message="${escape(visible(why))}"/>`);
    if (r.findings.length) out.push(evidenceText(r));
  } else if (outcome(r) === 'skipped') {
    const why = (r.skips.length ? r.skips.map((skip) => `${skip.kind}: ${skip.reason}`) : r.skipReasons).join('; ') || (r.status === 'not-reached' ? 'no test checked it in this run' : r.status);
    body.push(`      <skipped message="${escape(visible(why))}"/>`);
  }
  if (r.observed.length) out.push(`observed: ${visible(r.observed.join('; '))}`);
  if (r.knownFailure?.outcome === 'now-passing') out.push(`known failure now passes: remove ${r.id} from the expectations file`);
  if (out.length) body.push(`      <system-out>${escape(out.join('\n\n'))}</system-out>`);
  return body.length ? [open, ...body, '    </testcase>'].join('\n') : `${open}</testcase>`;
}

/** The failures as plain text, rendered from their records in the form every plain-text channel shows (a server line never starts a line). */
function evidenceText(r: RequirementResult): string {
  return r.findings.map((finding) => evidenceLines(finding).join('\n')).join('\n\n');
}

function firstLine(text: string): string {
  return text.split('\n')[0].slice(0, 300);
}
