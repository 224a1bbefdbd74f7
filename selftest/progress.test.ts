import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { LOG_EVERY_MS, Progress, QUIET_MS } from '../reporter/progress';
import { behaviourTarget, runCli, temporaryDirectory } from './support/cli';

/** Issue 21: a long run shows it is alive; a short one prints nothing more. Time is a fake clock here. */
function stream(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, columns: 120, write: (text: string) => written.push(text), written };
}

test('without a terminal: nothing in the first seconds, then a line at most every 10 s with tests, requests, failures, elapsed and estimate', () => {
  let now = 0;
  const out = stream(false);
  const progress = new Progress(100, out, () => now);
  for (let test = 1; test <= 100; test++) {
    now += 400;
    progress.testEnded(5, test > 50 ? ['ORD-LIST-006'] : []);
  }
  progress.end();
  // 40 s of run: lines at 10, 20, 30 and 40 s, none before QUIET_MS.
  expect(out.written).toHaveLength(4);
  expect(out.written[0]).toBe('oms-conformance: 25/100 tests, 125 requests, 0 requirement(s) failed, 10 s, about 30 s left\n');
  expect(out.written[3]).toBe('oms-conformance: 100/100 tests, 500 requests, 1 requirement(s) failed, 40 s\n');
  expect(LOG_EVERY_MS).toBe(10_000);
});

test('a run that ends within a few seconds prints nothing of its progress, on a terminal or not', () => {
  for (const isTTY of [true, false]) {
    let now = 0;
    const out = stream(isTTY);
    const progress = new Progress(50, out, () => now);
    for (let test = 0; test < 50; test++) {
      now += (QUIET_MS - 1) / 50;
      progress.testEnded(3, []);
    }
    progress.end();
    expect(out.written).toEqual([]);
  }
});

test('on a terminal: one line redrawn in place, taken off before other output and at the end', () => {
  let now = 0;
  const out = stream(true);
  const progress = new Progress(10, out, () => now);
  now = QUIET_MS;
  progress.testEnded(2, []);
  now += 1000;
  progress.testEnded(2, ['ORD-GET-004']);
  progress.clear();
  progress.end();
  expect(out.written[0]).toBe('\r\x1b[2K1/10 tests, 2 requests, 0 requirement(s) failed, 3 s, about 27 s left');
  expect(out.written[1]).toBe('\r\x1b[2K2/10 tests, 4 requests, 1 requirement(s) failed, 4 s, about 16 s left');
  // Cleared once before other output; end() finds nothing left to clear.
  expect(out.written.slice(2)).toEqual(['\r\x1b[2K']);
});

// Issue 39: a run slowed by a list that lags behind writes says so while it waits: for how long, and what it waits for.
test('a run waiting for a lagging list to settle says so: for how long, under which setting, what the list does not show yet, and when it settled', async () => {
  test.setTimeout(120_000);
  const run = async (knobs: string) => {
    const target = await behaviourTarget({ OMS_KNOBS: knobs });
    try {
      const work = temporaryDirectory('oms-waiting-');
      const result = await runCli([...target.args, '--grep', '@ORD-LIST-008', '--list-settle', '3000', '--out', 'report'], { cwd: work, env: { ...target.env, OMS_FAILURE_STORE: 'off', OMS_LEDGER_DIR: join(work, 'ledger') } });
      expect(result.exitCode, result.stdout + result.stderr).toBe(0);
      return result.stderr;
    } finally {
      await target.server.close();
    }
  };
  // The index learns each write 800 ms late: an order just created is not listed yet.
  const lagging = await run('list-lag=index-800ms');
  expect(lagging).toMatch(/oms-conformance: waiting up to 3\.0 s \(--list-settle\) for the list to settle, as a list served from an index or a replica may lag behind writes; not shown yet: order \S+ in the list \(ORD-LIST-008\)/);
  expect(lagging).toMatch(/oms-conformance: the list settled after \d\.\d s: it shows order \S+ in the list \(ORD-LIST-008\)/);
  // A list that shows each write at once is read once: no wait, nothing said.
  expect(await run('')).not.toContain('waiting up to');
});
