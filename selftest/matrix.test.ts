import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { requirement } from '../requirements/catalogue';
import { behavioursFromEnvironment } from './reference/behaviours';
import { FAULTS } from './reference/faults';
import { VARIANTS } from './reference/variants';
import { runSuite } from './support/run-suite';

/**
 * The faults and variants the matrix runs, checked as definitions. The matrix itself (every row the whole
 * suite) is its own Playwright run: `npm run matrix` (selftest/matrix/playwright.config.ts), part of `npm test`.
 */

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
