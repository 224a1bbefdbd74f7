import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { TrafficReport } from '../reporter/traffic-report';
import { behaviourTarget, readReport, runCli, schemaProblems, temporaryDirectory } from './support/cli';

/** The requirements a report failed, and those a judgement of traffic failed. */
const failedInRun = (directory: string) => readReport(directory).requirements.filter((r) => r.status === 'failed').map((r) => r.id);
const failedInJudge = (report: TrafficReport) => report.requirements.filter((r) => r.status === 'failed').map((r) => r.id);

/** A failing run of the whole suite with --har, then judge on its failures.har: the judgement and what the run failed. */
async function runThenJudge(fault: string): Promise<{ run: string[]; judged: TrafficReport; output: string; exitCode: number }> {
  const work = temporaryDirectory('oms-judge-');
  const target = await behaviourTarget({ OMS_FAULT: fault });
  const run = await runCli(['--har', '--out', 'report', '--seed', '7', ...target.args], { cwd: work, env: target.env }).finally(() => target.server.close());
  expect(run.exitCode, run.stdout + run.stderr).toBe(1);
  // The whole bodies kept for failures.har stay out of report.json, which keeps to its schema.
  expect(schemaProblems(readReport(join(work, 'report')))).toEqual([]);
  const judged = await runCli(['judge', join('report', 'failures.har'), '--json', 'judged.json'], { cwd: work });
  return { run: failedInRun(join(work, 'report')), judged: JSON.parse(readFileSync(join(work, 'judged.json'), 'utf8')) as TrafficReport, output: judged.stdout + judged.stderr, exitCode: judged.exitCode };
}

test('judge on the failures.har of a failing run reports the same failed requirements as the run, and sends nothing', async () => {
  test.setTimeout(4 * 60_000);
  // Content types, a round trip with what was sent, and list pages too long for report.json's excerpts (kept whole for the HAR).
  for (const fault of ['format-text-plain', 'create-rounds-prices', 'list-limit-capped-at-50']) {
    const { run, judged, output, exitCode } = await runThenJudge(fault);
    expect(exitCode, output).toBe(1);
    expect(failedInJudge(judged), fault).toEqual(run);
    expect(judged.recordedFailures.map((f) => [f.id, f.judged])).toEqual(run.map((id) => [id, 'failed']));
    expect(output).toContain('no request sent');
    expect(output).toMatch(/Traffic judged \(core\): VIOLATIONS FOUND .*not a certification/);
  }
});

test('judge says "not judged" for what a recording cannot show, and judges the rest with the run\'s context (an id it knew unknown)', async () => {
  test.setTimeout(4 * 60_000);
  const { run, judged, output } = await runThenJudge('errors-unknown-id-200-empty');
  // The delete and isolation failures need state the recording does not hold: the run failed them, judge says it cannot tell.
  const notJudged = judged.recordedFailures.filter((f) => f.judged === 'not-judged').map((f) => f.id);
  expect(notJudged.sort()).toEqual(['ORD-DELETE-002', 'ORD-ISO-001']);
  expect(failedInJudge(judged)).toEqual(run.filter((id) => !notJudged.includes(id)));
  // failures.har keeps the gets that showed the order after its delete, not the delete: the reason names the sequence it lacks.
  expect(output).toMatch(/ORD-DELETE-002 on \d+ exchange\(s\): not judged here: no 2xx delete followed by a get of the same order, with no write to it between, in this traffic/);
  expect(judged.requirements.find((r) => r.id === 'ORD-ISO-002')?.reason).toContain('a second account');
});

test('judge takes a browser HAR: judges what each exchange shows, ignores what is not the interface, masks the credentials it carries', async () => {
  const token = 'browser-session-token-8c41f0';
  const base = 'http://127.0.0.1:9/api';
  const order = { id: 'o-1', user_id: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b', customer: { id: 'c-1', name: 'Ada', tax_office: 'Kadıköy' }, items: [{ id: 'i-1', name: 'Mug', quantity: 1, price: 2.5, total: 2.5 }], currency: 'EUR', price: 2.5, status: 'created', created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T10:00:00Z', deleted_at: null };
  const entry = (method: string, url: string, status: number, body: unknown, headers: Record<string, string> = { Authorization: `Bearer ${token}` }, sent?: unknown) => ({
    startedDateTime: '2026-11-25T09:00:00.000Z',
    time: 12,
    request: { method, url, httpVersion: 'HTTP/1.1', cookies: [], headers: Object.entries(headers).map(([name, value]) => ({ name, value })), queryString: [], headersSize: -1, bodySize: -1, ...(sent !== undefined && { postData: { mimeType: 'application/json', text: JSON.stringify(sent) } }) },
    response: { status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: [{ name: 'Content-Type', value: 'application/json' }], content: { size: 0, mimeType: 'application/json', text: JSON.stringify(body) }, redirectURL: '', headersSize: -1, bodySize: -1 },
    cache: {},
    timings: { send: 1, wait: 10, receive: 1 },
  });
  const summaries = Array.from({ length: 7 }, (_, n) => ({ id: `o-${n}`, customer: { name: 'A' }, items: [], currency: 'EUR', price: 1, status: 'created', created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T10:00:00Z' }));
  const sent = { customer: { name: 'Ada' }, items: [{ name: 'Mug', quantity: 1, price: 2.5 }], currency: 'EUR', price: 2.5, note: 'ring twice' };
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'a browser', version: '1' },
      entries: [
        entry('GET', `${base}/orders?limit=5`, 200, { success: true, meta: { status: 200, message: 'ok', total: 40 }, data: summaries }),
        entry('GET', `${base}/orders/o-1`, 200, { ...order, echo: token }, {}),
        entry('POST', `${base}/orders`, 201, order, undefined, sent),
        entry('GET', 'http://127.0.0.1:9/static/app.js', 200, 'x'),
      ],
    },
  };
  const work = temporaryDirectory('oms-judge-');
  writeFileSync(join(work, 'browser.har'), JSON.stringify(har));
  const judged = await runCli(['judge', 'browser.har', '--base-url', base, '--json', 'judged.json'], { cwd: work });
  const output = judged.stdout + judged.stderr;
  expect(judged.exitCode, output).toBe(1);
  const report = JSON.parse(readFileSync(join(work, 'judged.json'), 'utf8')) as TrafficReport;
  const status = (id: string) => report.requirements.find((r) => r.id === id)?.status;
  // A page of 7 at limit 5; a get without credentials answered 200; a create that lost the note it was sent.
  expect(failedInJudge(report)).toEqual(['ORD-AUTH-001', 'ORD-AUTH-006', 'ORD-CREATE-004', 'ORD-LIST-004']);
  expect([status('ORD-LIST-005'), status('ORD-CREATE-003'), status('ORD-GEN-001')]).toEqual(['passed', 'passed', 'passed']);
  expect([status('ORD-LIST-006'), status('ORD-ISO-001')]).toEqual(['not-judged', 'not-judged']);
  expect([report.entries, report.ofTheInterface]).toEqual([4, 3]);
  expect(output).toContain('entry 0: GET http://127.0.0.1:9/api/orders?limit=5 → 200');
  expect(output + readFileSync(join(work, 'judged.json'), 'utf8')).not.toContain(token);
});

test('judge refuses what is not a HAR file with one line and exit code 2', async () => {
  const work = temporaryDirectory('oms-judge-');
  writeFileSync(join(work, 'notes.txt'), 'not json');
  const run = await runCli(['judge', 'notes.txt'], { cwd: work });
  expect(run.exitCode).toBe(2);
  expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^oms-conformance: notes\.txt is not a HAR file: it is not JSON/)]);
});

test('judge on a HAR path that does not exist names the path and where a HAR comes from', async () => {
  const work = temporaryDirectory('oms-judge-');
  const run = await runCli(['judge', 'traffic.har'], { cwd: work });
  expect(run.exitCode).toBe(2);
  expect(run.stderr.trim().split('\n')).toEqual([
    `oms-conformance: traffic.har: no such file (looked for ${JSON.stringify(join(work, 'traffic.har'))}). Give the path of a HAR file: a browser's (developer tools, Network, "Save all as HAR"), the traffic.har that \`oms-conformance proxy --out DIR\` writes, or the failures.har of a run with --har.`,
  ]);
});
