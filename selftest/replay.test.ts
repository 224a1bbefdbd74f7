import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { replayUnits, replayVerdict } from '../cli/replay';
import type { Behaviour } from '../reference/app';
import { errorReply, ApiError } from '../reference/http';
import { FAULTS } from './reference/faults';
import type { ConformanceReport } from '../reporter/report';
import { DEV_TOKEN_A, runCli, startServer, temporaryDirectory } from './support/cli';

/** file:line of a real test of ORD-GET-003, found by its title (line numbers move as the file changes). */
const GET_003_FILE = 'tests/orders/get-order.spec.ts';
const GET_003_LOCATION = `${GET_003_FILE}:${
  readFileSync(join(__dirname, '..', GET_003_FILE), 'utf8')
    .split('\n')
    .findIndex((line) => line.includes("test('keeps the id, user_id and created_at it assigned'")) + 1
}`;

/** A report.json as a failed run writes it, reduced to what replay reads. */
function failedReport(seed: number | null): Record<string, unknown> {
  const failed = (id: string, findings: unknown[] = []) => ({ id, status: 'failed', findings });
  return {
    profile: 'core',
    effort: 'quick',
    seed,
    requirements: [
      // A generated failure: its recorded counterexample runs alone, at its location.
      failed('ORD-GET-003', [{ test: 'get › keeps', message: 'm', replay: { seed: 4242, path: '0', location: GET_003_LOCATION } }]),
      failed('ORD-GET-004'),
      failed('ORD-DELETE-004'),
      { id: 'ORD-GET-001', status: 'passed', findings: [] },
    ],
  };
}

/** GET of an unknown id answers 500 every other time: ORD-GET-004 fails in one run of two. */
function flakyNotFound(): Behaviour {
  let count = 0;
  return {
    name: 'selftest-flaky-not-found',
    intercept: (request) =>
      request.method === 'GET' && request.path.startsWith('/orders/oms-conformance-missing-') && ++count % 2 === 1
        ? errorReply(new ApiError(500, 'internal', 'flaky'))
        : undefined,
  };
}

test('replay groups the failed requirements: recorded counterexamples by seed, path and location, the rest by tag with the run seed', () => {
  const units = replayUnits(failedReport(7) as unknown as ConformanceReport, 'report.json');
  expect(units).toEqual([
    { seed: 4242, path: '0', location: GET_003_LOCATION, requirements: ['ORD-GET-003'] },
    { seed: 7, requirements: ['ORD-GET-004', 'ORD-DELETE-004'] },
  ]);
  expect(['failed', 'failed'].map(() => replayVerdict(['failed', 'failed']))).toEqual(['STILL FAILING', 'STILL FAILING']);
  expect([replayVerdict(['passed', 'passed']), replayVerdict(['failed', 'passed']), replayVerdict(['unchecked'])]).toEqual(['FIXED', 'FLAKY', 'NOT CHECKED']);
});

test('oms-conformance replay runs the failed requirements N times and says FIXED, STILL FAILING or FLAKY for each', async () => {
  test.setTimeout(5 * 60_000);
  const fault = FAULTS.find((f) => f.id === 'delete-removes-neighbour');
  const server = await startServer([flakyNotFound(), fault!.behaviour()]);
  try {
    const work = temporaryDirectory();
    // No --base-url: the replay goes to the server the report tested.
    writeFileSync(join(work, 'report.json'), JSON.stringify({ ...failedReport(7), target: { baseUrl: server.url, embedded: false } }));
    const run = await runCli(['replay', 'report.json', '--times', '2', '--workers', '1'], { cwd: work, env: { OMS_TOKEN: DEV_TOKEN_A } });
    const summary = run.stdout.split('Replay of report.json, 2 time(s):')[1] ?? '';
    const lines = summary.split('\n').filter((line) => line.trim());
    expect(lines, run.stdout.slice(-3000) + run.stderr).toEqual([
      '  FIXED         ORD-GET-003 (failed 0 of 2)',
      '  FLAKY         ORD-GET-004 (failed 1 of 2)',
      '  STILL FAILING ORD-DELETE-004 (failed 2 of 2)',
    ]);
    expect(run.exitCode).toBe(1);
    // Every report path the replay printed is still there after it exits (replay-report/, not a deleted temporary directory).
    const printed = [...run.stdout.matchAll(/Report: (\S+)\/index\.html/g)].map((match) => match[1]);
    expect(printed).toHaveLength(4);
    for (const directory of printed) expect(existsSync(join(work, directory, 'index.html')), directory).toBe(true);
    expect(printed.every((directory) => directory.startsWith('replay-report/run-'))).toBe(true);
    expect(run.stdout).toContain('Reports of the replay runs, kept: replay-report/run-1-1/index.html (ORD-GET-003)');
  } finally {
    await server.close();
  }
});

test.describe('replay refuses what it cannot replay: exit 2, one line naming the file, nothing written', () => {
  const cases: Array<[string, string[], string]> = [
    ['a report without seeds', ['replay', 'unseeded.json'], 'unseeded.json has no seed to replay ORD-GET-004, ORD-DELETE-004 with'],
    ['a missing report', ['replay', 'missing.json'], 'cannot read the report missing.json: ENOENT'],
    ['an unreadable report', ['replay', 'broken.json'], 'broken.json is not a report.json: it is not JSON'],
    ['a bad --times', ['replay', 'unseeded.json', '--times', '0'], '--times must be a positive integer, got "0"'],
    ['--out the directory of the report it reads', ['replay', 'seeded.json', '--out', '.'], '--out .: that is the directory of seeded.json, which replay reads; give another one'],
  ];
  for (const [what, args, message] of cases) {
    test(what, async () => {
      const work = temporaryDirectory();
      writeFileSync(join(work, 'unseeded.json'), JSON.stringify(failedReport(null)));
      writeFileSync(join(work, 'seeded.json'), JSON.stringify(failedReport(7)));
      writeFileSync(join(work, 'broken.json'), '{"requirements": [');
      const run = await runCli(args, { cwd: work });
      expect(run.exitCode).toBe(2);
      expect(run.stderr.trim()).toContain(`oms-conformance: ${message}`);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(existsSync(join(work, '.oms-ledger'))).toBe(false);
    });
  }
});
