import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { diffReports } from '../reporter/diff';
import type { ConformanceReport, RequirementResult } from '../reporter/report';
import { behaviourTarget, runCli, temporaryDirectory } from './support/cli';

/** A report.json reduced to what diff reads, with the given requirements. */
function report(runId: string, requirements: Array<Partial<RequirementResult> & { id: string }>): ConformanceReport {
  return {
    runId,
    profile: 'core',
    effort: 'quick',
    readOnly: false,
    complete: true,
    incompleteReasons: [],
    verdict: requirements.some((r) => r.status === 'failed') ? 'not-conformant' : 'conformant',
    score: { gating: 2, passed: 2, percent: 100 },
    target: { baseUrl: 'https://oms.example/api', embedded: false },
    suite: { name: 'oms-conformance', version: '0.1.0', openapiSha256: 'a', catalogueSha256: 'b', codeSha256: 'c' },
    requirements: requirements.map((r) => ({ level: 'MUST', section: '8', statement: `${r.id} statement`, status: 'passed', observed: [], findings: [], skipReasons: [], gating: true, ...r })),
  } as unknown as ConformanceReport;
}

test('diff names the requirements whose status changed and the observed behaviours that changed, not the instances that illustrate them', () => {
  const old = report('old', [
    { id: 'ORD-LIST-004' },
    { id: 'ORD-GET-004', level: 'SHOULD', status: 'failed', gating: false },
    { id: 'ORD-OBS-009', level: 'OBSERVED', status: 'observed', observed: ['limit=101: rejected (400)'], gating: false },
    { id: 'ORD-OBS-007', level: 'OBSERVED', status: 'observed', observed: ['order ids look like UUIDs (e.g. 6f1d2c3b)'], gating: false },
  ]);
  const next = report('new', [
    { id: 'ORD-LIST-004', status: 'failed', findings: [{ test: 't', message: 'm', requirementId: 'ORD-LIST-004', expected: 'at most 5', received: '7 orders' }] },
    { id: 'ORD-GET-004', level: 'SHOULD', status: 'passed', gating: false },
    { id: 'ORD-OBS-009', level: 'OBSERVED', status: 'observed', observed: ['limit=101: clamped (100 orders)'], gating: false },
    { id: 'ORD-OBS-007', level: 'OBSERVED', status: 'observed', observed: ['order ids look like UUIDs (e.g. 0a9b8c7d)'], gating: false },
  ]);
  const diff = diffReports('old.json', old, 'new.json', next);
  expect(diff.statusChanges.map((c) => [c.id, c.from, c.to, c.kind])).toEqual([
    ['ORD-LIST-004', 'passed', 'failed', 'new-failure'],
    ['ORD-GET-004', 'failed', 'passed', 'fixed'],
  ]);
  expect(diff.statusChanges[0].received).toBe('7 orders');
  expect(diff.observedChanges.map((c) => [c.id, c.was, c.now])).toEqual([['ORD-OBS-009', ['limit=101: rejected (400)'], ['limit=101: clamped (100 orders)']]]);
  expect(diff.newFailures).toEqual(['ORD-LIST-004']);
  expect(diff.notes).toEqual([]);
  // Reports of different runs say so, so a change of the suite is not read as a change of the server.
  expect(diffReports('a', old, 'b', { ...next, effort: 'thorough', complete: false, incompleteReasons: ['grep @ORD-LIST'] } as ConformanceReport).notes).toEqual([
    'effort: "quick" → "thorough"',
    'the new run is incomplete (grep @ORD-LIST): what it did not check shows as a status change',
  ]);
});

test('oms-conformance diff exits 1 on a new failure, and on a changed observation only with --fail-on-observed', async () => {
  const work = temporaryDirectory('oms-diff-');
  const write = (name: string, value: ConformanceReport) => writeFileSync(join(work, name), JSON.stringify(value));
  const observed = (value: string) => ({ id: 'ORD-OBS-009', level: 'OBSERVED' as const, status: 'observed' as const, observed: [value], gating: false });
  write('a.json', report('a', [{ id: 'ORD-LIST-004' }, observed('limit=101: rejected (400)')]));
  write('b.json', report('b', [{ id: 'ORD-LIST-004' }, observed('limit=101: clamped (100 orders)')]));
  write('c.json', report('c', [{ id: 'ORD-LIST-004', status: 'failed' }, observed('limit=101: clamped (100 orders)')]));
  const same = await runCli(['diff', 'a.json', 'a.json'], { cwd: work });
  expect([same.exitCode, same.stdout]).toEqual([0, expect.stringContaining('Status changed: none.')]);
  const drift = await runCli(['diff', 'a.json', 'b.json'], { cwd: work });
  expect(drift.exitCode, drift.stdout).toBe(0);
  expect(drift.stdout).toContain('was: limit=101: rejected (400)');
  expect(drift.stdout).toContain('now: limit=101: clamped (100 orders)');
  expect((await runCli(['diff', 'a.json', 'b.json', '--fail-on-observed'], { cwd: work })).exitCode).toBe(1);
  const broken = await runCli(['diff', 'b.json', 'c.json', '--json', 'diff.json'], { cwd: work });
  expect(broken.exitCode, broken.stdout).toBe(1);
  expect(broken.stdout).toContain('NEW FAILURE  ORD-LIST-004 (MUST, §8) passed → failed');
  expect(JSON.parse(readFileSync(join(work, 'diff.json'), 'utf8')).newFailures).toEqual(['ORD-LIST-004']);
  const wrong = await runCli(['diff', 'a.json'], { cwd: work });
  expect([wrong.exitCode, wrong.stderr.trim()]).toEqual([2, 'oms-conformance: diff needs two reports: oms-conformance diff OLD/report.json NEW/report.json']);
});

test('diff between a passing and a failing run of the suite names the requirement that failed and exits 1', async () => {
  test.setTimeout(3 * 60_000);
  const work = temporaryDirectory('oms-diff-');
  const only = ['--grep', '@ORD-GEN-002(?![0-9])', '--seed', '7'];
  expect((await runCli([...only, '--out', 'passing'], { cwd: work })).exitCode).toBe(0);
  const faulty = await behaviourTarget({ OMS_FAULT: 'format-meta-status-string' });
  expect((await runCli([...only, '--out', 'failing', ...faulty.args], { cwd: work, env: faulty.env }).finally(() => faulty.server.close())).exitCode).toBe(1);
  const diff = await runCli(['diff', 'passing/report.json', 'failing/report.json'], { cwd: work });
  expect(diff.exitCode, diff.stdout).toBe(1);
  expect(diff.stdout).toMatch(/NEW FAILURE {2}ORD-GEN-002 \(MUST, §4\.1\) passed → failed/);
  expect(diff.stdout).toContain('new failure(s): ORD-GEN-002');
});
