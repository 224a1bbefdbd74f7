import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { forAll, type Trail } from '../harness/property';
import { FailureStore, hasExactJson, type StoredFailure } from '../harness/failure-store';
import { FINDING_ATTACHMENT, type FindingRecord } from '../harness/record/findings';
import { forgetRun } from '../harness/record/run-knowledge';
import type { Judgement } from '../checks/check';
import { readSettings } from '../config/settings';
import { suiteVersionSeed } from '../config/seed';
import { failedRequirements, runSuite, type SuiteRun } from './support/run-suite';

/**
 * Issue 28: one server, one verdict on every run, and a failure found once never lost to a new draw.
 * The suite runs against a reference server that merges items of one name (create-merges-repeated-items): the
 * model-based test catches it only when a sequence happens to create two items of one name, which the suite
 * version's seed does not draw and seed 1 does; with a new seed per run it was caught in about one run of two.
 */
const FAULT = 'create-merges-repeated-items';
const REQUIREMENT = 'ORD-CREATE-004';
const MODEL_BASED = ['--grep', 'model-based runs'];
/** A seed whose command sequences create two items of one name (seeds 1, 3 and 5 do; the suite version's does not). */
const EXPLORING_SEED = '1';

const temporary = (name: string) => mkdtempSync(join(tmpdir(), `oms-${name}-`));
const failedIds = (run: SuiteRun) => failedRequirements(run.report).map((r) => r.id).sort();
const storeOf = (run: SuiteRun) => failedRequirements(run.report).find((r) => r.id === REQUIREMENT)?.findings.find((f) => f.store)?.store;

test.describe('the same verdict on every run, with no seed given', () => {
  for (const profile of ['core', 'strict']) {
    test(`${profile}: three runs against one faulty server give one verdict, one set of failed requirements and one printed seed`, async () => {
      const runs: SuiteRun[] = [];
      // One after another, each with a failure store of its own (runSuite): nothing one run finds reaches the next.
      for (let i = 0; i < 3; i++) runs.push(await runSuite({ OMS_FAULT: FAULT, OMS_PROFILE: profile }, MODEL_BASED));
      const outcomes = runs.map((run) => ({
        verdict: run.report?.verdict,
        failed: failedIds(run),
        printed: /seed (\d+) \(from the suite version/.exec(run.output)?.[1],
        recorded: [run.report?.seed, run.report?.seedFrom],
      }));
      expect(outcomes[0].printed, runs[0].output).toBe(String(suiteVersionSeed()));
      expect(outcomes[0].recorded).toEqual([suiteVersionSeed(), 'suite-version']);
      expect(outcomes[1], runs[1].output).toEqual(outcomes[0]);
      expect(outcomes[2], runs[2].output).toEqual(outcomes[0]);
    });
  }
});

test('a failure found only by exploring comes back from the store in the next plain run, marked as from the store', async () => {
  const plain = await runSuite({ OMS_FAULT: FAULT }, MODEL_BASED);
  expect(failedIds(plain), `the suite version's seed catches ${FAULT} in the model-based runs by itself: pick a fault or test it misses\n${plain.output}`).not.toContain(REQUIREMENT);

  const store = temporary('store');
  const exploring = await runSuite({ OMS_FAULT: FAULT, OMS_SEED: EXPLORING_SEED, OMS_FAILURE_STORE: store }, MODEL_BASED);
  expect(failedIds(exploring), exploring.output).toContain(REQUIREMENT);
  const kept = storeOf(exploring);
  expect(kept, exploring.output).toEqual({ file: expect.stringMatching(/^stateful-orders-model-based-runs-[a-z0-9-]*-[0-9a-f]{16}\.json$/), replayed: false });
  expect(readdirSync(store)).toContain(kept?.file);

  const again = await runSuite({ OMS_FAULT: FAULT, OMS_FAILURE_STORE: store }, MODEL_BASED);
  expect(again.report?.seedFrom).toBe('suite-version');
  expect(failedIds(again), again.output).toContain(REQUIREMENT);
  // Both model-based tests may have kept one: each replays its own.
  const replayed = storeOf(again);
  expect(replayed).toEqual({ file: expect.any(String), replayed: true });
  expect(readdirSync(store)).toContain(replayed?.file);
  expect(again.output).toContain(`Store:     from the failure store: ${replayed?.file}`);
  expect(again.report?.generated.filter((g) => g.stored).map((g) => g.test), 'the generated tests that replayed stored counterexamples first').not.toEqual([]);
  expect(readFileSync(join(again.reportDir, 'report.md'), 'utf8')).toContain('from the failure store');
  expect(readFileSync(join(again.reportDir, 'index.html'), 'utf8')).toContain('from the failure store');
});

/** A property that fails where `fails` says, counting its inputs; nothing is sent. */
function property(fails: (n: number) => boolean, ran: number[]) {
  return {
    input: fc.integer({ min: 0, max: 1_000_000_000 }),
    run: async (n: number, _trail: Trail): Promise<Judgement | undefined> => {
      ran.push(n);
      return fails(n) ? { requirementId: 'ORD-LIST-004', on: [], finding: { requirementId: 'ORD-LIST-004', expected: 'a full page', received: `a page short at ${n}` } } : undefined;
    },
  };
}

function lastFinding(): FindingRecord {
  const attached = test.info().attachments.filter((a) => a.name === FINDING_ATTACHMENT);
  return JSON.parse(String(attached[attached.length - 1]?.body)) as FindingRecord;
}

test.describe.serial('the store, run by run', () => {
  test.beforeEach(() => {
    // A run id of this test's own, so what it records as failed is this test's alone.
    process.env.OMS_RUN_ID = `selftest-store-${process.pid}-${test.info().testId}`;
  });
  test.afterEach(() => forgetRun(process.env.OMS_RUN_ID as string));

  test('a shrunk input is kept, replayed first under any seed (a new server alike), and stays when it passes', async () => {
    const directory = temporary('store');
    const settings = (seed: string) => readSettings({ OMS_FAILURE_STORE: directory, OMS_EFFORT: 'quick', OMS_SEED: seed });

    const first = await forAll(settings('7'), property((n) => n >= 10, [])).then(() => undefined, (e: unknown) => e as Error);
    expect(first?.message).toContain('[ORD-LIST-004]');
    const files = readdirSync(directory);
    expect(files).toHaveLength(1);
    const entry = JSON.parse(readFileSync(join(directory, files[0]), 'utf8')) as StoredFailure;
    expect(entry).toMatchObject({ format: 1, requirement: 'ORD-LIST-004', input: 10, seed: 7 });
    expect(entry.test).toContain('a shrunk input is kept');
    expect(lastFinding().store).toEqual({ file: files[0], replayed: false });

    // Another seed, and a server that fails on that input alone: no new draw would meet it, the store does, first.
    const ran: number[] = [];
    const second = await forAll(settings('8'), property((n) => n === 10, ran)).then(() => undefined, (e: unknown) => e as Error);
    expect(second?.message).toContain('[ORD-LIST-004]');
    expect(ran).toEqual([10]);
    expect(lastFinding().store).toEqual({ file: files[0], replayed: true });
    expect(lastFinding().counterexample).toContain(`replayed from the failure store (${files[0]})`);

    // A server that passes it: the entry runs first, the generated inputs follow, and the entry stays for the next server.
    const passing: number[] = [];
    await forAll(settings('9'), property(() => false, passing));
    expect(passing[0]).toBe(10);
    expect(passing.length).toBeGreaterThan(1);
    expect(readdirSync(directory)).toEqual(files);
  });

  test('the same counterexample found twice is one file; foreign or damaged files are left alone; off keeps nothing', () => {
    const directory = temporary('store');
    const store = new FailureStore(directory);
    const failure = { test: 'file.spec.ts › a test', requirement: 'ORD-GET-002', input: { note: 'Zoë' }, seed: 1, path: '0:1' };
    const file = store.keep(failure);
    expect(store.keep({ ...failure, seed: 2, path: '3' }), 'the input names it, not the seed that found it').toBe(file);
    expect(file).toMatch(/^file-a-test-[0-9a-f]{16}\.json$/);
    writeFileSync(join(directory, 'file-a-test-0123456789abcdef.json'), '{ not json');
    writeFileSync(join(directory, 'notes.txt'), 'a reader left this here');
    expect(store.entriesOf('file.spec.ts › a test').map((e) => [e.file, e.input])).toEqual([[file, { note: 'Zoë' }]]);
    expect(store.entriesOf('file.spec.ts › another test')).toEqual([]);
    expect(new FailureStore(join(directory, 'notes.txt', 'below-a-file')).keep(failure), 'a store that cannot be written keeps nothing, and says so').toBeUndefined();
    expect(FailureStore.of(readSettings({ OMS_FAILURE_STORE: 'off' }))).toBeUndefined();
    expect(FailureStore.of(readSettings({}))?.directory).toMatch(/[\\/]\.oms-conformance[\\/]failures$/);
  });

  test('an input is kept as itself only where JSON carries it exactly; otherwise by seed and path', () => {
    expect([{ a: [1, 'x', null, true] }, Object.assign(Object.create(null) as object, { a: 1 })].every(hasExactJson)).toBe(true);
    expect([Number.NaN, Infinity, -0, undefined, [1, undefined], { a: undefined }, new Date(0), BigInt(1), () => 1].some(hasExactJson)).toBe(false);
    const directory = temporary('store');
    const file = new FailureStore(directory).keep({ test: 't', requirement: 'ORD-GET-002', input: { price: Number.NaN }, seed: 5, path: '2:0' });
    const entry = JSON.parse(readFileSync(join(directory, String(file)), 'utf8')) as StoredFailure;
    expect(entry.input).toBeUndefined();
    expect([entry.seed, entry.path]).toEqual([5, '2:0']);
  });
});
