import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { forgetQuiet } from '../harness/requests/quiet';
import { PROJECT_ROOT, temporaryDirectory } from './support/cli';

const run = promisify(execFile);

/**
 * Two workers that each hold the run's other workers quiet (a write after a delete, ORD-DELETE-005) at the same
 * time: one goes after the other. Each once joined the readers and waited for the other's turn to end, so both
 * waited out the 5 s bound and then wrote together (one quick run in seven took 8 s instead of 3).
 */
test('two workers holding the others quiet at once take turns, neither waiting out the bound', async () => {
  const runId = `quiet-selftest-${process.pid}`;
  const log = join(temporaryDirectory('oms-quiet-'), 'sequences.log');
  const tsx = join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
  const script = join(PROJECT_ROOT, 'selftest', 'fixtures', 'quiet', 'sequence.ts');
  try {
    const startAt = String(Date.now() + 3_000);
    await Promise.all(['first', 'second'].map((name) => run(tsx, [script, log, name, startAt], { env: { ...process.env, OMS_RUN_ID: runId }, timeout: 30_000 })));
  } finally {
    forgetQuiet(runId);
  }
  const events = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(' '))
    .map(([name, kind, at]) => ({ name, kind, at: Number(at) }));
  expect(events.map((event) => event.kind)).toEqual(['start', 'end', 'start', 'end']);
  expect(events[0].name).toBe(events[1].name);
  expect(events[2].name).toBe(events[3].name);
  // The second began once the first ended, not after the 5 s a worker waits for another's turn.
  expect(events[2].at - events[1].at).toBeLessThan(2_500);
});
