import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { requirement } from '../requirements/catalogue';
import { behavioursFromEnvironment } from './reference/behaviours';
import { FAULTS } from './reference/faults';
import { VARIANTS } from './reference/variants';
import { judgeFault, judgeVariant, type RowResult } from './matrix/judge';
import { renderMarkdown, renderText } from './matrix/render';
import { ALL_ROWS, rowName, selectRows, suiteWorkers, type Row } from './matrix/rows';
import { PROJECT_ROOT, runSuite, type SuiteRun } from './support/run-suite';

/**
 * Proves the suite: every row runs the whole suite. A fault must be caught by the requirements it
 * declares and by nothing else than its declared collateral; a variant must pass, any failure being a
 * false alarm. OMS_MATRIX=quick runs a representative dozen rows; OMS_MATRIX=<name>,<name> runs those.
 */
const ROWS = selectRows(process.env.OMS_MATRIX);
const FULL_MATRIX = ROWS.length === ALL_ROWS.length;
const MATRIX_DOCUMENT = join(PROJECT_ROOT, 'docs', 'conformance-matrix.md');
// Shared by the workers of one run (their parent is the runner), out of test-results, which suite runs may clear.
const RUN_DIRECTORY = join(tmpdir(), `oms-matrix-${process.ppid}`);
const ROWS_DIRECTORY = join(RUN_DIRECTORY, 'rows');

interface StoredRow extends RowResult {
  startedAt: number;
  finishedAt: number;
}

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
    const run = await runSuite({ OMS_FAULT: 'unknown-name' }, suiteArguments());
    expect(run.exitCode, run.output).toBe(2);
    expect(run.output).toContain('OMS_FAULT=unknown-name: there is no fault "unknown-name". Known faults');
    expect(run.report, 'no report for a run that never started').toBeUndefined();
    rmSync(run.reportDir, { recursive: true, force: true });
  });
});

test.describe('fault and variant matrix', () => {
  for (const row of ROWS) {
    const name = rowName(row);
    const title =
      row.kind === 'fault'
        ? `catches fault ${name} (${row.fault.level}) by ${row.fault.catches.join(', ')} and no unrelated requirement`
        : `accepts variant ${name}`;
    test(title, async () => {
      const startedAt = Date.now();
      const result = await runRow(row);
      const finishedAt = Date.now();
      result.durationMs = finishedAt - startedAt;
      const stored: StoredRow = { ...result, startedAt, finishedAt };
      mkdirSync(ROWS_DIRECTORY, { recursive: true });
      writeFileSync(join(ROWS_DIRECTORY, `${name}.json`), JSON.stringify(stored, null, 2));
      expect(result.passed, result.reason).toBe(true);
    });
  }

  // Each worker runs this when it is done; only the one that finds every row written prints and writes the matrix.
  test.afterAll(async ({}, testInfo) => {
    const rows = readRows(ROWS_DIRECTORY);
    if (rows.length < ROWS.length || !claim(join(RUN_DIRECTORY, 'matrix.done'))) return;
    const order = ROWS.map(rowName);
    rows.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
    const timing = {
      wallMs: Math.max(...rows.map((r) => r.finishedAt)) - Math.min(...rows.map((r) => r.startedAt)),
      totalMs: rows.reduce((sum, r) => sum + r.durationMs, 0),
    };
    const target = FULL_MATRIX ? MATRIX_DOCUMENT : join(testInfo.project.outputDir, 'conformance-matrix.md');
    mkdirSync(join(target, '..'), { recursive: true });
    writeFileSync(target, `${renderMarkdown(rows, timing)}\n`);
    console.log(`\n${renderText(rows, timing)}\nmatrix written to ${target}\n`);
    rmSync(RUN_DIRECTORY, { recursive: true, force: true });
  });
});

/**
 * Runs the whole suite for one row and judges it: only the whole suite shows a fault failing an unrelated
 * requirement (checks made on every response fire in the tests of every requirement).
 */
async function runRow(row: Row): Promise<RowResult> {
  const workers = String(suiteWorkers(row));
  if (row.kind === 'variant') return judgeVariant(row.variant, await suite({ OMS_VARIANT: row.variant.name, OMS_WORKERS: workers }));
  return judgeFault(row.fault, await suite({ OMS_FAULT: row.fault.id, OMS_WORKERS: workers }));
}

/** One run of the whole suite under the strict profile, its report read and its files removed. */
async function suite(environment: Record<string, string>): Promise<SuiteRun> {
  const run = await runSuite({ ...environment, OMS_PROFILE: 'strict' }, suiteArguments());
  rmSync(run.reportDir, { recursive: true, force: true });
  return run;
}

/** Arguments of one suite run: its own output folder (the suite's default one is shared, and cleared by every run). */
function suiteArguments(): string[] {
  return ['--output', join(RUN_DIRECTORY, 'output', `${process.pid}`)];
}

function readRows(directory: string): StoredRow[] {
  let files: string[] = [];
  try {
    files = readdirSync(directory).filter((file) => file.endsWith('.json'));
  } catch {
    return [];
  }
  return files.map((file) => JSON.parse(readFileSync(join(directory, file), 'utf8')) as StoredRow);
}

/** True for the one caller that creates the marker file first. */
function claim(marker: string): boolean {
  try {
    closeSync(openSync(marker, 'wx'));
    return true;
  } catch {
    return false;
  }
}
