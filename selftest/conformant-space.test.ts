import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { catalogue } from '../requirements/catalogue';
import { behavioursFromEnvironment } from './reference/behaviours';
import { VARIANTS } from './reference/variants';
import { KNOBS, knobsText } from './reference/variants/knobs';
import { oncePerRun } from './support/once';
import { readProjectRun } from './support/reports-by-project';
import { failedRequirements, ordersLeftBehind, PROJECT_ROOT, runSuite, type SuiteRun } from './support/run-suite';
import { DRAWN, SINGLES, SINGLE_TESTS, singleName, THOROUGH, type Setting } from './space/points';

/**
 * The space of conformant servers (selftest/reference/variants/knobs.ts): every point must pass the whole suite
 * in both profiles. A failed requirement on any point is a false alarm of the suite; fast-check shrinks
 * it to the fewest knobs that cause it. Which points npm test runs, and why: selftest/space/points.ts.
 */
const SPACE_CONFIG = join(PROJECT_ROOT, 'selftest', 'space', 'playwright.config.ts');
const RANDOM_POINTS = THOROUGH ? 40 : 2;
/** The seed of the random points npm test runs; OMS_SEED replaces it, OMS_EFFORT=thorough draws a new one. */
const QUICK_SEED = 20261123;

/** A point of the space: a value for each knob, shrinking towards the clean server's (the first value). */
const point: fc.Arbitrary<Setting> = fc
  .tuple(...DRAWN.map((knob) => fc.constantFrom(...knob.values)))
  .map((values) => Object.fromEntries(values.map((value, index) => [DRAWN[index].name, value]).filter(([name, value]) => knobValues(name)[0] !== value)));

function knobValues(name: string): readonly string[] {
  return KNOBS.find((knob) => knob.name === name)?.values ?? [];
}

/** Why a run of the strict profile rejected a conformant server, or undefined when it passed both profiles. */
function falseAlarm(setting: Setting, run: SuiteRun): string | undefined {
  const label = `OMS_KNOBS=${knobsText(setting) || '(none)'}`;
  if (!run.report) return `${label}: the suite wrote no report (exit code ${run.exitCode}):\n${run.output.slice(-2000)}`;
  // Strict gates on MUST and SHOULD, core on MUST only: one strict run judges both profiles.
  const failed = failedRequirements(run.report).filter((r) => r.level === 'MUST' || r.level === 'SHOULD');
  const unattributed = run.report.unattributedFailures;
  const leftBehind = ordersLeftBehind(run);
  if (failed.length === 0 && unattributed.length === 0 && run.exitCode === 0 && leftBehind === 0) return undefined;
  const core = failed.some((r) => r.level === 'MUST') ? 'core fails' : 'core passes';
  return [
    failed.length || unattributed.length || run.exitCode !== 0
      ? `${label}: a conformant server was rejected (${core}, strict fails; exit code ${run.exitCode})`
      : `${label}: the run passed but did not clean up after itself`,
    ...failed.map((r) => `  ${r.id} (${r.level}) failed`),
    ...unattributed.map((text) => `  a failure attributed to no requirement: ${text}`),
    ...(leftBehind ? [`  ${leftBehind} order(s) the run created were left behind (the cleanup could not delete them)`] : []),
    run.output.slice(-3000),
  ].join('\n');
}

async function judge(setting: Setting): Promise<string | undefined> {
  return falseAlarm(setting, await runSuite({ OMS_KNOBS: knobsText(setting), OMS_PROFILE: 'strict' }));
}

test.describe('the space of conformant servers: definitions', () => {
  test('every OBSERVED or NONE entry of the catalogue has a knob, and every knob names one', () => {
    const freedoms = [...catalogue().values()].filter((r) => r.level === 'OBSERVED' || r.level === 'NONE').map((r) => r.id);
    const withKnob = new Set(KNOBS.map((knob) => knob.entry));
    expect(freedoms.filter((id) => !withKnob.has(id)), 'OBSERVED or NONE entries without a knob (add one to selftest/reference/variants/knobs.ts)').toEqual([]);
    expect(KNOBS.filter((knob) => !freedoms.includes(knob.entry)).map((knob) => `${knob.name} names ${knob.entry}`), 'knobs naming no OBSERVED or NONE entry').toEqual([]);
  });

  test('knobs have kebab-case names, two or more values each, and every hand-written variant is one of their values', () => {
    const names = KNOBS.map((knob) => knob.name);
    expect(names.filter((name) => !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name) || names.indexOf(name) !== names.lastIndexOf(name))).toEqual([]);
    expect(KNOBS.filter((knob) => knob.values.length < 2 || new Set(knob.values).size !== knob.values.length).map((knob) => knob.name)).toEqual([]);
    const values = new Set(KNOBS.flatMap((knob) => knob.values));
    // Variants made of several knobs (named points) say so in their description.
    const loose = VARIANTS.filter((variant) => !values.has(variant.name) && !variant.description.includes('OMS_KNOBS='));
    expect(loose.map((variant) => variant.name), 'variants that are no point of the space').toEqual([]);
  });

  test('OMS_KNOBS switches knobs on, and a wrong one is refused with the knobs it could be', () => {
    expect(behavioursFromEnvironment({ OMS_KNOBS: 'create-status=create-200, amounts=cents' }).map((b) => b.name)).toEqual(['create-status=create-200', 'amounts=cents']);
    expect(behavioursFromEnvironment({ OMS_KNOBS: 'create-status=201' })).toEqual([]);
    expect(() => behavioursFromEnvironment({ OMS_KNOBS: 'amounts=dollars' })).toThrow(/OMS_KNOBS: knob amounts has no value "dollars"\. Values: as-sent, cents/);
    expect(() => behavioursFromEnvironment({ OMS_KNOBS: 'no-such-knob=1' })).toThrow(/there is no knob "no-such-knob"/);
  });
});

test.describe(`the space of conformant servers: each knob value alone passes ${SINGLE_TESTS}`, () => {
  // One Playwright run for every value (selftest/space/playwright.config.ts: a project each), in one worker of these tests; each test judges its report.
  test.describe.configure({ mode: 'default' });
  // In the self-tests' output folder, which each run clears: a worker started after a failed test reads them too.
  const reports = () => join(test.info().project.outputDir, 'space-reports');
  test.beforeAll(async () => {
    test.setTimeout(10 * 60_000);
    await oncePerRun('space', async () => {
      const run = await runSuite({ OMS_EFFORT: process.env.OMS_EFFORT, OMS_SPACE_REPORTS: reports() }, ['--config', SPACE_CONFIG]);
      expect(run.output, 'the run of the knob values alone').toContain(`conformant space: ${SINGLES.length} knob values alone`);
    });
  });

  for (const [index, setting] of SINGLES.entries()) {
    test(`${knobsText(setting)} alone passes ${SINGLE_TESTS}`, () => {
      expect(falseAlarm(setting, readProjectRun(join(reports(), singleName(index))))).toBeUndefined();
    });
  }
});

test.describe('the space of conformant servers: random points', () => {
  test(`${RANDOM_POINTS} random points pass the whole suite (shrunk to the fewest knobs on a false alarm)`, async () => {
    test.setTimeout((THOROUGH ? RANDOM_POINTS * 5 * 120 : 5 * 60) * 1000);
    // npm test draws the same points every time (a gate must not change its mind on its own); thorough explores.
    const seed = process.env.OMS_SEED ? Number(process.env.OMS_SEED) : THOROUGH ? undefined : QUICK_SEED;
    await fc.assert(
      fc.asyncProperty(point, async (setting) => {
        const alarm = await judge(setting);
        if (alarm) throw new Error(alarm);
      }),
      // Each shrinking step is a suite run: bounded in time (2 minutes in npm test, which reports the false alarm either
      // way; 2 hours with OMS_EFFORT=thorough), the smallest point found so far is reported.
      { numRuns: RANDOM_POINTS, seed, verbose: true, interruptAfterTimeLimit: (THOROUGH ? 120 : 2) * 60_000, markInterruptAsFailure: false },
    );
  });
});
