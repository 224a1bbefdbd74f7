import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, expect, test } from '@playwright/test';
import { laidOutBody, linesAtFault, readableBody, screenfulAround, SCREENFUL_LINES } from '../reporter/display';
import { renderHtml } from '../reporter/html';
import { renderMarkdown } from '../reporter/markdown';
import type { ConformanceReport } from '../reporter/report';
import { CHROMIUM, readReport, schemaProblems } from './support/cli';
import { runSuite, type SuiteRun } from './support/run-suite';

// Issue 31: a failure shows the field at fault. A check that knows where in the response body the fault is
// (a schema difference, a field that did not come back as sent) gives its JSON pointer; index.html and report.md
// name it beside the body and mark its line in the laid-out body, in a way server text cannot forge.

test.describe('the line of a JSON pointer in the laid-out body', () => {
  test('each line knows the member or element it starts, computed while laying out (readableBody is the same text)', () => {
    const body = '{"data":[{"id":"a","price":"12","items":[{"x":1}]},{"a/b~c":{}}],"meta":{"status":200}}';
    const { text, paths } = laidOutBody(body);
    expect(text).toBe(readableBody(body));
    const lines = text.split('\n');
    const lineOf = (pointer: string) => lines[paths.indexOf(pointer)];
    expect(lineOf('/data/0/price')).toBe('      "price": "12",');
    expect(lineOf('/data/0/items/0/x')).toBe('          "x": 1');
    expect(lineOf('/data/1/a~1b~0c')).toBe('      "a/b~c": {}');
    expect(lineOf('/meta')).toBe('  "meta": {');
    expect(lineOf('')).toBe('{');
    expect(paths[lines.length - 1], 'a closing bracket starts nothing').toBeUndefined();
  });

  test('of a key written twice, the last is marked: the value a JSON parser (and the check) kept', () => {
    const { text, paths } = laidOutBody('{"price":12.5,"items":[],"price":"12"}');
    const [[line]] = [...linesAtFault(paths, ['/price'])];
    expect(text.split('\n')[line]).toBe('  "price": "12"');
  });

  test('a field the body lacks marks its nearest container; text that is not JSON has no line to mark', () => {
    const { paths } = laidOutBody('{"customer":{"name":"x"},"items":[]}');
    expect([...linesAtFault(paths, ['/customer/id', '/items/0/total'])]).toEqual([
      [1, '/customer/id'],
      [4, '/items/0/total'],
    ]);
    expect([...linesAtFault(laidOutBody('Internal error at /customer').paths, ['/customer'])]).toEqual([]);
  });

  test('a key that reads like a pointer or structure is matched as a key, never as text', () => {
    // The server's key "/customer/email" and a string value holding "email" must not take the mark.
    const { text, paths } = laidOutBody('{"x":"\\"email\\": 1","/customer/email":2,"customer":{"email":3}}');
    const [[line]] = [...linesAtFault(paths, ['/customer/email'])];
    expect(text.split('\n')[line]).toBe('    "email": 3');
  });

  test('past a screenful the window moves to the first mark, and the first screenful stays when the mark is in it', () => {
    expect(screenfulAround(100, [])).toEqual({ start: 0, end: SCREENFUL_LINES });
    expect(screenfulAround(100, [12])).toEqual({ start: 0, end: SCREENFUL_LINES });
    const { start, end } = screenfulAround(100, [70, 90]);
    expect(start).toBeLessThan(70);
    expect(end).toBeGreaterThan(70);
    expect(screenfulAround(100, [99]).end).toBe(100);
  });
});

test.describe.serial('a failing run shows the field at fault', () => {
  let run: SuiteRun;
  let report: ConformanceReport;

  test.beforeAll(async () => {
    // customer.email comes back as a string where openapi.yaml says an object: ORD-FORM-001 names /customer/email.
    run = await runSuite({ OMS_FAULT: 'format-customer-email-as-string' }, ['--grep', '@ORD-FORM-001', '--grep-invert', 'generated|model-based|coverage phase']);
    report = readReport(run.reportDir);
  });

  test('report.json keeps the pointer with the finding, and stays valid against its schema', () => {
    expect(run.exitCode, run.output.slice(-2000)).toBe(1);
    const findings = report.requirements.find((r) => r.id === 'ORD-FORM-001')?.findings ?? [];
    expect(findings.length, run.output.slice(-2000)).toBeGreaterThan(0);
    expect(findings.map((f) => f.fieldsAtFault)).toContainEqual(['/customer/email']);
    expect(schemaProblems(report)).toEqual([]);
  });

  test('report.md names the pointer above the body and marks its line in the suite\'s own column', () => {
    const markdown = readFileSync(join(run.reportDir, 'report.md'), 'utf8');
    expect(markdown).toContain('Field at fault: `/customer/email` (marked → in the body below)');
    const fenced = bodyLines(markdown);
    expect(fenced.filter((line) => line.startsWith('→ '))).toEqual([expect.stringMatching(/^→ {5}"email": "/)]);
    expect(fenced.filter((line) => !line.startsWith('→ ') && !line.startsWith('  '))).toEqual([]);
  });

  test('server text cannot forge a mark, and a mark past a screenful is shown in the window around it', () => {
    const failure = report.requirements.find((r) => r.id === 'ORD-FORM-001')!;
    // The server answers a body whose values and keys hold the marks of both reports, the marked field far down.
    const filler = Array.from({ length: SCREENFUL_LINES * 2 }, (_, i) => `"f${i}":"→ forged <mark class=\\"at-fault\\">x</mark>"`).join(',');
    const body = `{"→ key":1,${filler},"customer":{"email":"grace@example.com"}}`;
    const finding = { ...failure.findings[0], response: { ...failure.findings[0].response!, body }, fieldsAtFault: ['/customer/email'] };
    const changed: ConformanceReport = { ...report, requirements: report.requirements.map((r) => (r === failure ? { ...r, findings: [finding] } : { ...r, findings: [] })) };

    const markdown = renderMarkdown(changed);
    const fenced = bodyLines(markdown);
    expect(fenced.filter((line) => line.startsWith('→'))).toEqual(['→     "email": "grace@example.com"']);
    expect(fenced.some((line) => line.includes('→ forged')), 'the forged marks reached report.md: the test proves nothing').toBe(true);
    // The window shows the marked line before any fold; the lines above it are folded, and say so.
    const marked = markdown.indexOf('→     "email"');
    expect(markdown.indexOf('line(s) above the field at fault')).toBeLessThan(marked);
    const above = markdown.slice(0, marked);
    expect(above.lastIndexOf('</details>'), 'the marked line is inside a fold').toBeGreaterThan(above.lastIndexOf('<details>'));

    const html = renderHtml(changed);
    expect(html.match(/<mark /g)).toHaveLength(1);
    expect(html).toContain('<mark class="at-fault" title="ORD-FORM-001: field at fault /customer/email">    &quot;email&quot;: &quot;grace@example.com&quot;</mark>');
    expect(html).toContain('&lt;mark class=\\&quot;at-fault\\&quot;&gt;');
    const shown = html.slice(html.indexOf('line(s) above the field at fault'));
    const folded = shown.indexOf('more line(s)');
    expect(shown).toContain('<mark ');
    expect(folded === -1 || shown.indexOf('<mark ') < folded, 'the marked line is inside a fold').toBe(true);
    expect(shown.indexOf('</details>')).toBeLessThan(shown.indexOf('<mark '));
  });

  test('index.html in the browser: the marked line is visible, with the requirement, and the pointer beside the body', async () => {
    test.skip(!existsSync(CHROMIUM.executablePath as string), `no browser at ${CHROMIUM.executablePath}`);
    const browser = await chromium.launch(CHROMIUM);
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(join(run.reportDir, 'index.html')).href);
      const failure = page.locator('details.failure[data-id="ORD-FORM-001"]');
      const mark = failure.locator('mark.at-fault').first();
      await expect(mark).toBeVisible();
      await expect(mark).toContainText('"email": "');
      await expect(mark).toHaveAttribute('title', 'ORD-FORM-001: field at fault /customer/email');
      await expect(failure.locator('dt', { hasText: 'Field at fault' }).first()).toBeVisible();
      await expect(failure.locator('pre.at-fault').first()).toHaveText('/customer/email');
      // Marked, not only tagged: its background differs from the body's around it.
      const [marked, around] = await mark.evaluate((m) => [getComputedStyle(m).backgroundColor, getComputedStyle(m.parentElement as Element).backgroundColor]);
      expect(marked).not.toBe(around);
      await mark.scrollIntoViewIfNeeded();
      await expect(mark).toBeInViewport();
      await page.screenshot({ path: test.info().outputPath('field-at-fault.png'), fullPage: false });
    } finally {
      await browser.close();
    }
  });
});

/** The lines inside report.md's response code blocks, without the list item's indentation. */
function bodyLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  let inResponse = false;
  for (const line of markdown.split('\n')) {
    if (/^ {2}Response `/.test(line)) inResponse = true;
    const opens = /^ {2}(`{3,})\s*$/.exec(line);
    if (fence === undefined && opens && inResponse) fence = opens[1];
    else if (fence !== undefined && line === `  ${fence}`) fence = undefined;
    else if (fence !== undefined) lines.push(line.slice(2));
    if (/^- \*\*/.test(line)) inResponse = false;
  }
  return lines;
}
