import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, expect, test, type Browser } from '@playwright/test';
import { OPENAPI_PATH } from '../contract/openapi';
import { catalogue, CATALOGUE_PATH } from '../requirements/catalogue';
import type { Behaviour } from '../reference/app';
import type { ApiReply, ApiRequest } from '../reference/http';
import type { RunningReference } from '../reference/server';
import type { ConformanceReport } from '../reporter/report';
import type { Evidence } from '../reporter/evidence';
import { stateNeeded } from '../reporter/reproduce';
import { codeSha256, sha256File } from '../reporter/run-info';
import {
  CHROMIUM,
  DEV_TOKEN_A,
  forbiddenInsteadOfUnauthorized,
  listMetaStatusOffByOne,
  PROJECT_ROOT,
  readReport,
  runCli,
  schemaProblems,
  startServer,
  temporaryDirectory,
  type CliRun,
} from './support/cli';
import { elements, tokenize, type Token } from './support/markup';

// One run of the tool, against a server with two small faults, and every report file checked from it:
// ORD-GEN-002 (MUST) fails and is listed as known; ORD-AUTH-006 (SHOULD) fails but core does not gate on it;
// ORD-CREATE-002 passes although listed as known, so it is reported as fixed.
const SELECTION = '@ORD-GEN-00[12]|@ORD-CREATE-002|@ORD-AUTH-004';
/** Generated and model-based tests shrink every failure: slow against a faulty server, and not needed here. */
const NOT_GENERATED = 'generated|model-based';

/** Markup, quotes and an entity in a string the server sends: the report must show it as text, never run it. */
const HOSTILE = `</pre><script>alert(1)</script><img src=x onerror=alert(2)> &amp; 'it''s' \u202e`;
/** The list answers carry HOSTILE as meta.message, so it reaches the evidence of the meta.status failure. */
const hostileListMessage: Behaviour = {
  name: 'selftest-hostile-list-message',
  rewriteReply(request: ApiRequest, reply: ApiReply): ApiReply {
    const body = reply.body as { meta?: Record<string, unknown> } | undefined;
    if (request.method !== 'GET' || request.path !== '/orders' || !body?.meta) return reply;
    return { ...reply, body: { ...body, meta: { ...body.meta, message: HOSTILE } } };
  },
};

/**
 * The browser checks need Debian's chromium (.ci/run installs it and sets OMS_REQUIRE_CHROMIUM=1, which makes
 * its absence a failure); elsewhere they are skipped with the reason, and the strict parse below still
 * proves the page safe.
 */
const CHROMIUM_FOUND = existsSync(CHROMIUM.executablePath as string);
const INSTALL = 'install it with: apt-get install chromium';
function needsChromium(): void {
  if (CHROMIUM_FOUND) return;
  const missing = `no Chromium at ${CHROMIUM.executablePath}`;
  if (process.env.OMS_REQUIRE_CHROMIUM === '1') throw new Error(`${missing}, and OMS_REQUIRE_CHROMIUM=1 requires the browser check of index.html (${INSTALL})`);
  test.skip(true, `${missing}: the check of index.html in a browser is skipped (${INSTALL})`);
}

/** The decoded text of every text token. */
function textOf(tokens: Token[]): string[] {
  return tokens.flatMap((token) => (token.kind === 'text' ? [token.text] : []));
}

test.describe.serial('the conformance report of one run', () => {
  let server: RunningReference;
  let work: string;
  let out: string;
  let run: CliRun;
  let report: ConformanceReport;
  let browser: Browser;

  test.beforeAll(async () => {
    server = await startServer([listMetaStatusOffByOne, forbiddenInsteadOfUnauthorized, hostileListMessage]);
    work = temporaryDirectory('oms-report-');
    out = join(work, 'report');
    writeFileSync(join(work, 'known.yaml'), 'ORD-GEN-002: lists answer meta.status 201 (ticket OMS-1)\nORD-CREATE-002: failed before release 2.3\n');
    const keygen = await runCli(['keygen', 'signing-key.pem'], { cwd: work });
    expect(keygen.exitCode, keygen.stderr).toBe(0);
    run = await runCli(
      ['--base-url', server.url, '--grep', SELECTION, '--grep-invert', NOT_GENERATED, '--out', 'report', '--expect', 'known.yaml', '--sign-key', 'signing-key.pem', '--seed', '1234'],
      { cwd: work, env: { OMS_TOKEN: DEV_TOKEN_A } },
    );
    report = readReport(out);
  });

  test.afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('a known failure does not fail the run; the verdict still says not conformant', () => {
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(report.verdict).toBe('not-conformant');
    expect(report.gate).toEqual({
      passed: true,
      expectationsFile: 'known.yaml',
      newFailures: [],
      knownFailures: ['ORD-GEN-002'],
      fixed: ['ORD-CREATE-002'],
      expired: [],
    });
    expect(run.stdout).toContain('fixed ORD-CREATE-002');
  });

  test('report.json matches the JSON Schema shipped in reporter/report.schema.json', () => {
    expect(schemaProblems(report)).toEqual([]);
  });

  test('report.json says what was run, against what, and with which contract', () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(report.suite).toEqual({ name: 'oms-conformance', version: pkg.version, openapiSha256: sha256File(OPENAPI_PATH), catalogueSha256: sha256File(CATALOGUE_PATH), codeSha256: codeSha256() });
    expect(report.target).toEqual({ baseUrl: server.url, embedded: false });
    expect([report.profile, report.effort, report.seed, report.readOnly, report.grep, report.complete]).toEqual(['core', 'quick', 1234, false, `--grep ${SELECTION} --grep-invert ${NOT_GENERATED}`, false]);
    expect(Date.parse(report.startedAt)).toBeLessThanOrEqual(Date.parse(report.finishedAt));
    expect(report.requirements.map((r) => r.id).sort()).toEqual([...catalogue().keys()].sort());
  });

  test('each failure carries its evidence: expectation, request, response excerpt and a curl line without the token', () => {
    const failed = report.requirements.find((r) => r.id === 'ORD-GEN-002')!;
    expect(failed).toMatchObject({ status: 'failed', gating: true, knownFailure: { reason: 'lists answer meta.status 201 (ticket OMS-1)', outcome: 'still-failing' } });
    const [evidence] = failed.findings;
    expect(evidence.expected).toBe('meta.status 200 (the HTTP status)');
    expect(evidence.received).toBe('meta.status 201');
    expect(evidence.request).toMatchObject({ method: 'GET', path: expect.stringMatching(/^\/orders/) });
    expect(evidence.response).toMatchObject({ status: 200, contentType: expect.stringMatching(/^application\/json/) });
    expect(evidence.curl).toMatch(/^curl .* -H 'Authorization: Bearer '"\$\{OMS_TOKEN\}"/);
    expect(JSON.stringify(report)).not.toContain(DEV_TOKEN_A);
    expect(report.requirements.find((r) => r.id === 'ORD-AUTH-006')).toMatchObject({ status: 'failed', gating: false });
    expect(report.requirements.find((r) => r.id === 'ORD-CREATE-002')).toMatchObject({ status: 'passed', knownFailure: { outcome: 'now-passing' } });
  });

  test('a failure of authentication shows the Authorization header its request sent, masked, and needs no state of the account', () => {
    const failed = report.requirements.find((r) => r.id === 'ORD-AUTH-006')!;
    const evidence = failed.findings.find((f) => f.request)!;
    // The suite's invalid token and the run's own alike: masked where they stand, the scheme shown.
    expect(evidence.message).toMatch(/^ {2}header: +Authorization "Bearer (\[masked\]|\$OMS_TOKEN)"$/m);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    const failure = html.slice(html.indexOf('id="ORD-AUTH-006"'), html.indexOf('</details>', html.indexOf('id="ORD-AUTH-006"')));
    expect(failure).toMatch(/<pre class="request">[A-Z]+ \/orders[^\n]*\nAuthorization &quot;Bearer (\[masked\]|\$OMS_TOKEN)&quot;/);
    expect(failure).not.toContain('an account holding');
    expect(readFileSync(join(out, 'report.json'), 'utf8')).not.toContain('oms-conformance-invalid-');
  });

  test('report.md summarises for a pull request: verdict, counts by level, failures, fixed, observed', () => {
    const markdown = readFileSync(join(out, 'report.md'), 'utf8');
    // One short headline, the reasons below it once.
    expect(markdown).toMatch(/^## ⚠️ OMS conformance \(core\): NOT CONFORMANT · \d+ of \d+ gating requirements passed · (complete|incomplete, not a certification)$/m);
    expect(markdown).toContain('- **known failures**: `ORD-GEN-002, listed in known.yaml`');
    // A failure's response body under it, laid out after the suite's mark column (two spaces where no field is at fault), the lines past a screenful folded.
    expect(markdown).toMatch(/\n {2}Response `\d{3} \(application\/json[^`]*`:\n(\n {2}Field at fault: [^\n]*\n)?\n {2}```\n {4}\{\n {6}"success": true,\n/);
    expect(markdown).toMatch(/\n {2}<details><summary>\d+ more line\(s\)<\/summary>\n\n {2}```\n/);
    expect(markdown).toMatch(/^\| MUST \| \d+ \| 1 \|/m);
    expect(markdown).toContain('- **ORD-GEN-002** (MUST, §4.1, known failure)');
    expect(markdown).toContain('- **ORD-AUTH-006** (SHOULD, §5, warning, not gating)');
    expect(markdown).toContain('### Known failures that now pass');
    expect(markdown).toMatch(/### Observed behaviours\n\n- \*\*ORD-OBS-\d{3}\*\*/);
  });

  test('badge.svg reads "OMS conformance | core N%"', () => {
    const badge = readFileSync(join(out, 'badge.svg'), 'utf8');
    expect(badge).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(badge).toContain('>OMS conformance</text>');
    expect(badge).toContain(`>core ${report.score.percent}%</text>`);
  });

  test('junit.xml has one test case per requirement; only a new gating failure is a <failure>', () => {
    const tokens = tokenize(readFileSync(join(out, 'junit.xml'), 'utf8'), { xml: true });
    const cases = elements(tokens, 'testcase');
    const nameOf = (element: Token[]) => (element[0].kind === 'open' ? element[0].attributes.name : undefined);
    const known = cases.find((element) => nameOf(element)?.startsWith('ORD-GEN-002'));
    const skipped = known?.find((token) => token.kind === 'open' && token.name === 'skipped');
    expect({
      cases: cases.length,
      failures: cases.filter((element) => element.some((token) => token.kind === 'open' && token.name === 'failure')).length,
      known: skipped?.kind === 'open' ? skipped.attributes.message : null,
    }).toEqual({ cases: catalogue().size, failures: 0, known: 'known failure: lists answer meta.status 201 (ticket OMS-1)' });
  });

  test('index.html parses strictly, runs nothing, and shows what the server sent as text (no browser needed)', () => {
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    const tokens = tokenize(html);
    const tags = tokens.flatMap((token) => (token.kind === 'open' ? [token] : []));
    expect(tags.filter((tag) => tag.name === 'script' || tag.name === 'iframe' || tag.name === 'object' || tag.name === 'embed').map((tag) => tag.name)).toEqual([]);
    expect(tags.flatMap((tag) => Object.keys(tag.attributes).filter((name) => name.startsWith('on')))).toEqual([]);
    expect(tags.flatMap((tag) => Object.values(tag.attributes).filter((value) => /^\s*(javascript|data:text\/html)/i.test(value)))).toEqual([]);
    expect(tags.find((tag) => tag.name === 'meta' && tag.attributes['http-equiv'] === 'Content-Security-Policy')?.attributes.content).toContain("default-src 'none'");
    // The server's string reached the page (in the evidence of ORD-GEN-002), and only inside text, in the one form of server text (its bidirectional override shown as \u202e).
    expect(textOf(tokens).some((text) => text.includes(HOSTILE.replace('\u202e', '\\u202e'))), 'the hostile meta.message is shown as text').toBe(true);
    // The same string unescaped breaks the parse: the check can fail.
    expect(() => tokenize(html.replace('</body>', `<pre>${HOSTILE}</pre></body>`))).toThrow();
  });

  test('index.html shows verdict and failed requirements first, evidence open, matrix and observed behaviours, offline, in Chromium', async () => {
    needsChromium();
    browser ??= await chromium.launch(CHROMIUM);
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const network: string[] = [];
    await page.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : (network.push(route.request().url()), route.abort())));
    await page.goto(`file://${join(out, 'index.html')}`);
    await expect(page.getByTestId('verdict').locator('h1')).toHaveText(/^OMS conformance \(core\): NOT CONFORMANT · \d+ of \d+ gating requirements passed · (complete|incomplete, not a certification)$/);
    await expect(page.getByTestId('reasons')).toContainText('known failures: ORD-GEN-002, listed in known.yaml');
    await expect(page.locator('table.matrix a.cell')).toHaveCount(catalogue().size);
    await expect(page.locator('table.matrix tr[data-section="4.1"] a[data-id="ORD-GEN-002"]')).toHaveClass(/d-known/);
    await expect(page.locator('a[data-id="ORD-AUTH-006"]')).toHaveClass(/d-warned/);
    await expect(page.locator('a[data-id="ORD-CREATE-002"]')).toHaveClass(/d-passed/);
    const observed = report.requirements.find((r) => r.status === 'observed')!;
    await expect(page.locator(`#observed tr[data-id="${observed.id}"]`)).toContainText(observed.observed[0]);
    await expect(page.locator('#fixed')).toContainText('ORD-CREATE-002');
    // The header names the failed requirements; the failures come first, open, each curl line with the state it needs.
    await expect(page.getByTestId('failed-names')).toHaveText('Failed: ORD-AUTH-006 (SHOULD, failed (not gating)), ORD-GEN-002 (MUST, known failure)');
    const [failuresTop, runTop] = await Promise.all(['#failures', '#run'].map(async (id) => (await page.locator(id).boundingBox())!.y));
    expect(failuresTop).toBeLessThan(runTop);
    const failure = page.locator('details#ORD-GEN-002');
    await expect(failure.locator('pre.curl').first()).toBeVisible();
    await expect(failure.locator('pre.curl').first()).toContainText(`'Authorization: Bearer '"\${OMS_TOKEN}"`);
    await expect(failure.locator('pre.state').first()).toContainText(/^an account holding \d+ orders, as during the run/);
    // A response body laid out as JSON, a line a field, the lines past a screenful folded until opened.
    const response = failure.locator('pre.response').first();
    await expect(response).toContainText(/^\d{3} \(application\/json[^)]*\)\n\{\n {2}"success": true,\n {2}"meta": \{\n/);
    const more = failure.locator('details.more').first();
    await expect(more.locator('pre')).toBeHidden();
    await more.locator('summary').click();
    await expect(more.locator('pre')).toBeVisible();
    await failure.locator(':scope > summary').click();
    await expect(failure.locator('pre.curl').first()).toBeHidden();
    await failure.locator(':scope > summary').click();
    const colour = await page.locator('a[data-id="ORD-GEN-002"]').evaluate((cell) => getComputedStyle(cell).backgroundColor);
    expect(colour).toBe('rgb(130, 80, 223)');
    await failure.scrollIntoViewIfNeeded();
    const screenshot = test.info().outputPath('index.html.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    await test.info().attach('index.html screenshot', { path: screenshot, contentType: 'image/png' });
    expect(network).toEqual([]);
    await page.close();
  });

  test('report.json holds the SHA-256 of every other report file and an Ed25519 signature that verify checks', async () => {
    expect(Object.keys(report.integrity!.files).sort()).toEqual(['badge.svg', 'index.html', 'junit.xml', 'report.md']);
    for (const [file, hash] of Object.entries(report.integrity!.files)) expect(sha256File(join(out, file)), file).toBe(hash);
    const verified = await runCli(['verify', join(out, 'report.json'), '--pub', join(work, 'signing-key.pub')]);
    expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain('Ed25519 signature matches');
  });

  test('verify fails on a changed report file, a changed report.json and the wrong key', async () => {
    const tampered = (name: string) => {
      const copy = join(work, name);
      cpSync(out, copy, { recursive: true });
      return copy;
    };
    const page = tampered('changed-page');
    writeFileSync(join(page, 'index.html'), readFileSync(join(page, 'index.html'), 'utf8').replace('NOT CONFORMANT', 'CONFORMANT'));
    const json = tampered('changed-json');
    const edited = { ...readReport(json), verdict: 'conformant' };
    writeFileSync(join(json, 'report.json'), JSON.stringify(edited, null, 2));
    const otherKey = await runCli(['keygen', 'other.pem'], { cwd: work });
    expect(otherKey.exitCode).toBe(0);

    const pub = join(work, 'signing-key.pub');
    const changedPage = await runCli(['verify', join(page, 'report.json'), '--pub', pub]);
    expect([changedPage.exitCode, changedPage.stdout]).toEqual([1, expect.stringContaining('FAIL  index.html: changed since the report was written')]);
    const changedJson = await runCli(['verify', join(json, 'report.json'), '--pub', pub]);
    expect([changedJson.exitCode, changedJson.stdout]).toEqual([1, expect.stringContaining('the Ed25519 signature does not match its content')]);
    const wrongKey = await runCli(['verify', join(out, 'report.json'), '--pub', join(work, 'other.pub')]);
    expect([wrongKey.exitCode, wrongKey.stdout]).toEqual([1, expect.stringContaining('signed with another key')]);
  });

  test('verify without --pub exits 1 on an edited report.json (nothing proves it unedited), 0 only when asked for integrity only', async () => {
    const copy = join(work, 'edited-unsigned');
    cpSync(out, copy, { recursive: true });
    writeFileSync(join(copy, 'report.json'), JSON.stringify({ ...readReport(copy), verdict: 'conformant', exitCode: 0 }, null, 2));
    const plain = await runCli(['verify', join(copy, 'report.json')]);
    expect([plain.exitCode, plain.stdout]).toEqual([1, expect.stringContaining('NOT verified: without --pub KEY.pub nothing proves report.json unedited')]);
    const integrityOnly = await runCli(['verify', join(copy, 'report.json'), '--integrity-only']);
    expect([integrityOnly.exitCode, integrityOnly.stdout]).toEqual([0, expect.stringContaining('integrity only, as asked: report.json itself is not proved unedited')]);
    const both = await runCli(['verify', join(copy, 'report.json'), '--integrity-only', '--pub', join(work, 'signing-key.pub')]);
    expect([both.exitCode, both.stderr.trim()]).toEqual([2, 'oms-conformance: give --pub KEY.pub (integrity and origin) or --integrity-only, not both']);
  });
});

test('the state a curl line needs bears on its requirement: a list of 44 orders for a list requirement, none for one of authentication', () => {
  const listed = (requirementId: string): Evidence => ({
    requirementId,
    test: 't',
    message: '',
    expected: '',
    received: '',
    request: { method: 'GET', url: 'http://127.0.0.1:1/orders?limit=1', path: '/orders?limit=1', headers: {} },
    response: { status: 200, contentType: 'application/json', headers: {}, body: '{}', retries: 0, total: 44 },
    curl: 'curl …',
  });
  expect(stateNeeded(listed('ORD-LIST-004'))).toMatch(/^an account holding 44 orders/);
  expect(stateNeeded(listed('ORD-AUTH-001'))).toBeUndefined();
});
