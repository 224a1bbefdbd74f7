import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { requirement } from '../requirements/catalogue';
import { behavioursFromEnvironment } from './reference/behaviours';
import { FAULT_FAMILIES, FAULTS } from './reference/faults';
import { VARIANTS } from './reference/variants';
import { faultRowClaim, judgeRow } from './matrix/judge';
import { ALL_ROWS, CAUGHT_ALSO_BY, MATRIX_REPORTS, rowGrep, rowName, selectRows, WHOLE_SUITE_FAULTS } from './matrix/rows';
import { oncePerRun } from './support/once';
import { readProjectRun } from './support/reports-by-project';
import { PROJECT_ROOT, runSuite } from './support/run-suite';

/**
 * Proves the suite: every variant, and one fault of each family, runs the whole suite; the other faults the tests
 * of their requirements (selftest/matrix/rows.ts, rowGrep). A fault must be caught by the requirements it
 * declares and by nothing else than its declared collateral; a variant must pass, any failure being a false
 * alarm. All rows are one Playwright run (selftest/matrix/playwright.config.ts, `npm run matrix` alone), started
 * once here; each row's test judges that row's report. OMS_MATRIX=quick runs a representative dozen rows,
 * OMS_MATRIX=<name>,<name> those.
 */
const MATRIX_CONFIG = join(PROJECT_ROOT, 'selftest', 'matrix', 'playwright.config.ts');
const ROWS = selectRows(process.env.OMS_MATRIX);

test.describe('fault and variant definitions', () => {
  test('every fault declares requirements of the catalogue at its own level', () => {
    const problems: string[] = [];
    for (const fault of FAULTS) {
      if (fault.catches.length === 0) problems.push(`${fault.id}: declares no requirement`);
      const levels = fault.catches.map((id) => {
        try {
          return requirement(id).level;
        } catch (error) {
          problems.push(`${fault.id}: ${(error as Error).message}`);
          return undefined;
        }
      });
      // A MUST fault breaks at least one MUST requirement (so core catches it); a SHOULD fault breaks only SHOULD ones.
      const compatible = fault.level === 'MUST' ? levels.includes('MUST') && levels.every((l) => l === 'MUST' || l === 'SHOULD') : levels.every((l) => l === 'SHOULD');
      if (!compatible) problems.push(`${fault.id} (${fault.level}): declares ${fault.catches.map((id, i) => `${id} (${levels[i]})`).join(', ')}`);
    }
    expect(problems).toEqual([]);
  });

  test('every collateral requirement of a fault is in the catalogue, not among those it declares, named once, with its reason', () => {
    const problems: string[] = [];
    for (const fault of FAULTS) {
      const ids = fault.collateral.map((c) => c.requirement);
      for (const { requirement: id, reason } of fault.collateral) {
        try {
          requirement(id);
        } catch (error) {
          problems.push(`${fault.id}: ${(error as Error).message}`);
        }
        if (fault.catches.includes(id)) problems.push(`${fault.id}: ${id} is declared and collateral at once`);
        if (ids.indexOf(id) !== ids.lastIndexOf(id)) problems.push(`${fault.id}: ${id} is collateral twice`);
        if (reason.trim().length < 20) problems.push(`${fault.id}: ${id} has no reason worth the name (${JSON.stringify(reason)})`);
      }
    }
    expect([...new Set(problems)]).toEqual([]);
  });

  test('faults and variants have unique kebab-case names, cover every area, and a third of the faults are subtle', () => {
    const names = [...FAULTS.map((f) => f.id), ...VARIANTS.map((v) => v.name)];
    expect(names.filter((name) => !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name))).toEqual([]);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
    expect(FAULTS.length).toBeGreaterThanOrEqual(40);
    const areas = ['list', 'create', 'get', 'update', 'delete', 'auth', 'format', 'errors', 'concurrency'];
    expect(areas.filter((area) => !FAULTS.some((f) => f.id.startsWith(`${area}-`)))).toEqual([]);
    expect(FAULTS.filter((f) => f.subtle).length * 3).toBeGreaterThanOrEqual(FAULTS.length);
  });

  test('every family of faults runs one fault through the whole suite; the extra tests of a fault row name a fault that runs a subset and requirements of the catalogue', () => {
    const families = Object.entries(FAULT_FAMILIES);
    expect(families.filter(([, faults]) => !faults.some((fault) => WHOLE_SUITE_FAULTS.includes(fault.id))).map(([family]) => family), 'families with no whole-suite row').toEqual([]);
    expect(families.flatMap(([, faults]) => faults).length, 'FAULT_FAMILIES holds every fault once').toBe(new Set(FAULTS).size);
    const problems = Object.entries(CAUGHT_ALSO_BY).flatMap(([id, requirements]) => [
      ...(FAULTS.some((fault) => fault.id === id) ? [] : [`${id}: no such fault`]),
      ...(WHOLE_SUITE_FAULTS.includes(id) ? [`${id}: runs the whole suite, extra tests mean nothing`] : []),
      ...requirements.flatMap((requirementId) => {
        try {
          requirement(requirementId);
          return [];
        } catch (error) {
          return [`${id}: ${(error as Error).message}`];
        }
      }),
    ]);
    expect(problems, 'CAUGHT_ALSO_BY in selftest/matrix/rows.ts').toEqual([]);
  });

  test("a fault row's grep takes the tests tagged with its requirements and those CAUGHT_ALSO_BY names, no id that only starts alike; whole-suite rows take every test", () => {
    const row = (name: string) => ALL_ROWS.find((r) => rowName(r) === name)!;
    const grep = rowGrep(row('update-nulls-omitted-fields'))!;
    expect(['@ORD-FORM-001', '@ORD-UPDATE-007 @MUST', '@ORD-FORM-0010', '@ORD-FORM-001-x', '@ORD-UPDATE-002'].map((tags) => grep.test(`a title ${tags}`))).toEqual([true, true, false, false, false]);
    expect(ALL_ROWS.filter((r) => r.kind === 'variant' || WHOLE_SUITE_FAULTS.includes(rowName(r))).map((r) => [rowName(r), rowGrep(r)]).filter(([, g]) => g !== undefined)).toEqual([]);
  });

  test('an unknown OMS_FAULT or OMS_VARIANT name is refused with a message naming it', async () => {
    expect(() => behavioursFromEnvironment({ OMS_VARIANT: 'create-200,no-such-variant' })).toThrow(
      /OMS_VARIANT=no-such-variant: there is no variant "no-such-variant"\. Known variants .*create-200/,
    );
    // A fault id is not a variant name, and the reverse.
    expect(() => behavioursFromEnvironment({ OMS_FAULT: 'create-200' })).toThrow(/there is no fault "create-200"/);
    const run = await runSuite({ OMS_FAULT: 'unknown-name' });
    expect(run.exitCode, run.output).toBe(2);
    expect(run.output).toContain('OMS_FAULT=unknown-name: there is no fault "unknown-name". Known faults');
    expect(run.report, 'no report for a run that never started').toBeUndefined();
    rmSync(run.reportDir, { recursive: true, force: true });
  });
});

test.describe('fault and variant matrix', () => {
  // One Playwright run for every row, in one worker of these tests; each test judges its row's report.
  test.describe.configure({ mode: 'default' });
  test.beforeAll(async () => {
    // A bound on a hung run, not a speed target: 160 rows take about 13 minutes on a quiet 2-core machine, more on a loaded one.
    test.setTimeout(40 * 60_000);
    await oncePerRun('matrix', async () => {
      const run = await runSuite({ OMS_MATRIX: process.env.OMS_MATRIX }, ['--config', MATRIX_CONFIG]);
      // The table, as the matrix run printed it: one line per row, then the summary.
      console.log(run.output.slice(run.output.indexOf('    row ')).split('\nmatrix written to')[0]);
    });
  });

  for (const row of ROWS) {
    const name = rowName(row);
    const title = row.kind === 'fault' ? faultRowClaim(row) : `accepts variant ${name}`;
    test(title, () => {
      const run = readProjectRun(join(MATRIX_REPORTS, name));
      const result = judgeRow(row, run);
      expect(result.passed, result.reason).toBe(true);
    });
  }
});
