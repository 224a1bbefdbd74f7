import { expect, test } from '@playwright/test';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import { FAULTS } from './reference/faults';
import { VARIANTS } from './reference/variants';
import type { ConformanceReport } from '../reporter/report';
import { requestLog, startServer } from './support/cli';
import { ordersLeftBehind, runSuite } from './support/run-suite';

const [A, B] = DEVELOPMENT_ACCOUNTS;

/** Account A of the reference server already holds 350 orders of varied content, as a shared staging account would. */
const prefilled = () => VARIANTS.find((variant) => variant.name === 'prefilled-account')!.behaviour();

/** The MUST requirements a report judged (passed or failed), of those that can be tested. */
function judgedMust(report: ConformanceReport): { judged: string[]; gating: number } {
  const must = report.requirements.filter((r) => r.level === 'MUST' && r.status !== 'not-testable');
  return { judged: must.filter((r) => r.status === 'passed' || r.status === 'failed').map((r) => r.id), gating: must.length };
}

test('read-only against an account that holds 350 orders judges at least half of the MUST requirements and sends no request that writes', async () => {
  test.setTimeout(5 * 60_000);
  const log = requestLog();
  const server = await startServer([prefilled(), log]);
  try {
    const run = await runSuite({ OMS_BASE_URL: server.url, OMS_TOKEN: A.developmentToken, OMS_TOKEN_B: B.developmentToken, OMS_READ_ONLY: '1', OMS_WORKERS: '2' });
    expect(run.exitCode, run.output.slice(-3000)).toBe(0);
    const report = run.report as ConformanceReport;
    expect([report.readOnly, report.verdict, report.complete]).toEqual([true, 'conformant', false]);
    expect(log.requests.filter((request) => !request.startsWith('GET ')), 'requests other than GET').toEqual([]);
    expect(log.requests.length).toBeGreaterThan(100);
    expect(ordersLeftBehind(run)).toBe(0);
    const { judged, gating } = judgedMust(report);
    test.info().annotations.push({ type: 'judged', description: `${judged.length} of ${gating} MUST requirements judged read-only, ${log.requests.length} requests, all GET` });
    expect(judged.length * 2, judged.join(' ')).toBeGreaterThanOrEqual(gating);
    // Among them what a GET on existing orders can judge: credentials, get, formats, paging invariants, unknown ids.
    expect(judged).toEqual(expect.arrayContaining(['ORD-AUTH-001', 'ORD-AUTH-004', 'ORD-GET-001', 'ORD-FORM-001', 'ORD-FORM-002', 'ORD-LIST-006', 'ORD-LIST-007', 'ORD-ERR-006']));
    expect(report.requirements.find((r) => r.id === 'ORD-GET-004')?.status).toBe('passed');
    expect(report.requirements.find((r) => r.id === 'ORD-ISO-001')?.status).toBe('passed');
    // What needs a write is skipped, saying so.
    expect(report.requirements.find((r) => r.id === 'ORD-CREATE-004')).toMatchObject({ status: 'skipped', skipReasons: [expect.stringMatching(/^read-only mode \(OMS_READ_ONLY\): this check needs to send POST/)] });
  } finally {
    await server.close();
  }
});

test('read-only still fails a server whose answers break a requirement, without writing', async () => {
  const log = requestLog();
  const server = await startServer([prefilled(), FAULTS.find((fault) => fault.id === 'format-text-plain')!.behaviour(), log]);
  try {
    const run = await runSuite({ OMS_BASE_URL: server.url, OMS_TOKEN: A.developmentToken, OMS_READ_ONLY: '1' }, ['--grep', '@ORD-GEN-001(?![0-9])']);
    expect(run.exitCode, run.output.slice(-3000)).toBe(1);
    expect(run.report?.requirements.find((r) => r.id === 'ORD-GEN-001')?.status).toBe('failed');
    expect(log.requests.filter((request) => !request.startsWith('GET '))).toEqual([]);
  } finally {
    await server.close();
  }
});

test('read-only against an account too small for the list checks that need a full one skips them with the reason', async () => {
  const server = await startServer([]);
  try {
    const run = await runSuite({ OMS_BASE_URL: server.url, OMS_TOKEN: A.developmentToken, OMS_READ_ONLY: '1' }, ['--grep', '@ORD-LIST-002(?![0-9])']);
    expect(run.exitCode, run.output.slice(-3000)).toBe(0);
    // The test of a full default page is skipped (a generated one may still judge the requirement on the empty account).
    expect(run.report?.requirements.find((r) => r.id === 'ORD-LIST-002')?.skipReasons).toEqual([
      'read-only mode (OMS_READ_ONLY): this check needs an account holding at least 101 orders, and it holds 0',
    ]);
  } finally {
    await server.close();
  }
});
