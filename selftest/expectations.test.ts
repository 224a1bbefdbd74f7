import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { loadExpectations } from '../reporter/expectations';
import { readReport, runCli, schemaProblems, temporaryDirectory } from './support/cli';

test.describe('expectations that expire', () => {
  test('an entry holds through its until day and expires the day after', () => {
    const work = temporaryDirectory();
    const file = join(work, 'known.yaml');
    writeFileSync(file, 'ORD-GET-004: { reason: wrong status (ticket 7), until: 2026-03-31 }\nORD-GET-003: plain reason\n');
    const onTheDay = loadExpectations(file, new Date('2026-03-31T23:59:00Z'));
    expect([onTheDay.get('ORD-GET-004'), onTheDay.expired]).toEqual(['wrong status (ticket 7)', []]);
    const after = loadExpectations(file, new Date('2026-04-01T00:00:00Z'));
    expect([after.has('ORD-GET-004'), after.get('ORD-GET-003')]).toEqual([false, 'plain reason']);
    expect(after.expired).toEqual([{ id: 'ORD-GET-004', reason: 'wrong status (ticket 7)', until: '2026-03-31' }]);
  });

  test('an expired entry fails a run that is otherwise conformant, and the reasons under the verdict line name it', async () => {
    const work = temporaryDirectory();
    writeFileSync(join(work, 'known.yaml'), 'ORD-GET-004: { reason: used to answer 200 (ticket 7), until: 2020-01-31 }\n');
    const run = await runCli(['--expect', 'known.yaml', '--grep', '@ORD-GET-004(?![\\w-])', '--out', 'report', '--workers', '1'], { cwd: work });
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^OMS conformance \(core\): CONFORMANT · [^\n]*\n(?: {2}.*\n)* {2}expired expectations: renew or remove in known\.yaml: ORD-GET-004 \(until 2020-01-31\)$/m);
    const report = readReport(join(work, 'report'));
    expect([report.verdict, report.gate.passed, report.gate.expired]).toEqual(['conformant', false, [{ id: 'ORD-GET-004', reason: 'used to answer 200 (ticket 7)', until: '2020-01-31' }]]);
    expect(schemaProblems(report)).toEqual([]);
  });

  for (const [until, shown] of [['31/12/2026', '"31/12/2026"'], ['2026-02-30', '"2026-02-30"'], ['soon', '"soon"']]) {
    test(`until: ${until} stops the run before it starts: exit 2, one line naming the file and entry, nothing written`, async () => {
      const work = temporaryDirectory();
      writeFileSync(join(work, 'known.yaml'), `ORD-GET-004: { reason: ticket 7, until: ${until} }\n`);
      const run = await runCli(['--expect', 'known.yaml', '--out', 'report'], { cwd: work });
      expect(run.exitCode).toBe(2);
      expect(run.stderr.trim()).toMatch(new RegExp(`^oms-conformance: the expectations file \\S*known\\.yaml: ORD-GET-004 has until ${shown.replace(/[/]/g, '\\/')}, which is not a date: write it as YYYY-MM-DD`));
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(existsSync(join(work, 'report'))).toBe(false);
    });
  }
});

test.describe('oms-conformance expectations --prune', () => {
  test('lists the entries that pass in the report and the expired ones, keeps the rest, and changes nothing', async () => {
    const work = temporaryDirectory();
    const known = 'ORD-GET-004: now fixed\nORD-GET-003: still broken\nORD-LIST-003: { reason: old, until: 2020-01-01 }\nORD-ISO-001: not run\n';
    writeFileSync(join(work, 'known.yaml'), known);
    const requirement = (id: string, status: string) => ({ id, status, findings: [] });
    writeFileSync(
      join(work, 'report.json'),
      JSON.stringify({
        gate: { expectationsFile: 'known.yaml' },
        requirements: [requirement('ORD-GET-004', 'passed'), requirement('ORD-GET-003', 'failed'), requirement('ORD-LIST-003', 'failed'), requirement('ORD-ISO-001', 'skipped')],
      }),
    );
    const run = await runCli(['expectations', '--prune', 'report.json'], { cwd: work });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([
      'now passes: ORD-GET-004 (now fixed): remove it from known.yaml',
      'expired:    ORD-LIST-003 (until 2020-01-01): renew its until or remove it from known.yaml',
      'not checked in report.json (kept): ORD-ISO-001',
      '2 of 4 entries of known.yaml can go.',
    ]);
  });

  const mistakes: Array<[string[], string]> = [
    [['expectations'], 'expectations needs --prune REPORT.json (the report of a run against the server)'],
    [['expectations', '--prune', 'missing.json'], 'cannot read the report missing.json: ENOENT'],
    [['expectations', '--prune', 'not-json.json'], 'not-json.json is not a report.json: it is not JSON'],
    [['expectations', '--prune', 'no-file.json'], 'no-file.json was made without an expectations file: give the file with --expect FILE'],
  ];
  for (const [args, message] of mistakes) {
    test(`oms-conformance ${args.join(' ')}: one line, exit 2`, async () => {
      const work = temporaryDirectory();
      writeFileSync(join(work, 'not-json.json'), '{');
      writeFileSync(join(work, 'no-file.json'), JSON.stringify({ gate: { expectationsFile: null }, requirements: [] }));
      const run = await runCli(args, { cwd: work });
      expect(run.exitCode).toBe(2);
      expect(run.stderr.trim()).toBe(`oms-conformance: ${message}`);
    });
  }
});
