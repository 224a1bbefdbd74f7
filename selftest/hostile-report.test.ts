import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, expect, test, type Browser } from '@playwright/test';
import type { ConformanceReport } from '../reporter/report';
import { CHROMIUM, readReport } from './support/cli';
import { runSuite, type SuiteRun } from './support/run-suite';
import { RecordingShell } from './support/shell';

// A server that puts Markdown, HTML, shell text, ANSI escapes and forged verdict lines into every string it
// answers (OMS_HOSTILE=markup-everywhere): every output of the run must show them as data, nowhere as markup,
// a command, a terminal control or a line of the suite's own.
const SELECTION = '@ORD-CREATE-004|@ORD-GET-004|@ORD-LIST-008|@ORD-OBS-00[17]';
const NOT_GENERATED = 'generated|model-based';
const MARKUP = ['<img', '<script', 'onerror', '](', 'elsewhere.invalid'];
const HAS_CHROMIUM = existsSync(CHROMIUM.executablePath as string);

test.describe.serial('reports of a run against a server that answers markup and shell text everywhere', () => {
  let run: SuiteRun;
  let report: ConformanceReport;
  let browser: Browser | undefined;

  test.beforeAll(async () => {
    run = await runSuite({ OMS_HOSTILE: 'markup-everywhere' }, ['--grep', SELECTION, '--grep-invert', NOT_GENERATED]);
    report = readReport(run.reportDir);
  });

  test.afterAll(async () => browser?.close());

  test('the run fails on the poisoned values and its findings quote them', () => {
    expect(run.exitCode, run.output.slice(-2000)).toBe(1);
    const quoted = report.requirements.flatMap((r) => r.findings).filter((f) => `${f.received}${f.response?.body}`.includes('<img src=x'));
    expect(quoted.length, 'no finding carries the hostile text: the test proves nothing').toBeGreaterThan(0);
  });

  test('report.md holds server text only inside code spans', () => {
    const markdown = readFileSync(join(run.reportDir, 'report.md'), 'utf8');
    expect(markdown).toContain('<img src=x');
    const prose = withoutCodeSpans(markdown);
    expect(MARKUP.filter((marker) => prose.includes(marker))).toEqual([]);
    expect(prose).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });

  test('the terminal shows no escape sequence, and no server text starts a line', () => {
    expect(run.output).not.toContain('\u001b[2J');
    const lines = run.output.split('\n');
    expect(lines.filter((line) => /^OMS conformance \(/.test(line))).toEqual([expect.stringMatching(/^OMS conformance \(core\): NOT CONFORMANT/)]);
    expect(lines.filter((line) => line.startsWith('Reproduce: curl http://elsewhere'))).toEqual([]);
  });

  test('every curl line of the report is one bash command that sends exactly the recorded request', () => {
    const shell = new RecordingShell({ OMS_TOKEN: 'token-value', OMS_TOKEN_B: 'token-b-value' });
    try {
      const findings = report.requirements.flatMap((r) => r.findings).filter((f) => f.curl && f.request);
      expect(findings.length).toBeGreaterThan(0);
      for (const { curl, request } of findings) {
        expect(shell.syntaxError(curl as string), curl).toBeUndefined();
        const args = shell.curlArguments(curl as string);
        expect(args.slice(0, 5)).toEqual(['-sS', '-i', '-X', request!.method, request!.url]);
        expect(args.includes('http://elsewhere.invalid/x')).toBe(false);
      }
    } finally {
      shell.dispose();
    }
  });

  test('index.html renders server text as text: no element, script or request comes from it', async () => {
    test.skip(!HAS_CHROMIUM && !process.env.OMS_REQUIRE_CHROMIUM, 'no Chromium at /usr/bin/chromium (apt-get install chromium): the page is not opened in a browser');
    browser = await chromium.launch(CHROMIUM);
    const page = await browser.newPage();
    const network: string[] = [];
    await page.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : (network.push(route.request().url()), route.abort())));
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => void (dialogs.push(dialog.message()), dialog.dismiss()));
    await page.goto(`file://${join(run.reportDir, 'index.html')}`);
    await page.locator('details').evaluateAll((all) => all.forEach((d) => d.setAttribute('open', '')));
    const dom = await page.evaluate(() => ({
      injected: document.querySelectorAll('img, script, iframe, object, embed, a[href^="http"]').length,
      shown: document.body.innerText.includes('<img src=x onerror=alert(1)>'),
    }));
    expect(dom).toEqual({ injected: 0, shown: true });
    expect(dialogs).toEqual([]);
    expect(network).toEqual([]);
  });

  test('junit.xml is well-formed XML with the server text escaped', async () => {
    const xml = readFileSync(join(run.reportDir, 'junit.xml'), 'utf8');
    expect(xml).not.toMatch(/<(img|script)\b/);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    test.skip(!HAS_CHROMIUM && !process.env.OMS_REQUIRE_CHROMIUM, 'no Chromium at /usr/bin/chromium: the XML is not parsed by a browser');
    browser ??= await chromium.launch(CHROMIUM);
    const page = await browser.newPage();
    const error = await page.evaluate((text) => new DOMParser().parseFromString(text, 'application/xml').querySelector('parsererror')?.textContent ?? null, xml);
    expect(error).toBeNull();
  });
});

/** Markdown with every code span removed, by CommonMark's rule: a run of n backticks closes at the next run of exactly n. */
function withoutCodeSpans(markdown: string): string {
  let out = '';
  let i = 0;
  while (i < markdown.length) {
    if (markdown[i] !== '`') {
      out += markdown[i++];
      continue;
    }
    const run = /^`+/.exec(markdown.slice(i))![0];
    const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
    close.lastIndex = i + run.length;
    const end = close.exec(markdown);
    if (!end) {
      out += run;
      i += run.length;
    } else i = end.index + run.length;
  }
  return out;
}
