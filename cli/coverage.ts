import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalogue } from '../requirements/catalogue';
import type { ConformanceReport } from '../reporter/report';
import { REQUIREMENT_ANNOTATION } from '../harness/record/verifies';

interface ListedSpec {
  title: string;
  file: string;
  line: number;
  tests: Array<{ annotations: Array<{ type: string; description?: string }> }>;
}
interface ListedSuite {
  specs?: ListedSpec[];
  suites?: ListedSuite[];
}

export interface Coverage {
  /** Requirement id → titles of the tests that verify it. */
  testsByRequirement: Map<string, string[]>;
  /** Catalogue entries that are neither tested nor marked not_tested. */
  untested: string[];
  /** Tests that name no requirement. */
  unlinked: string[];
}

/** Coverage computed from Playwright's own listing of the suite, never typed in. */
export function computeCoverage(): Coverage {
  const root = join(__dirname, '..');
  const output = execFileSync(process.execPath, [require.resolve('@playwright/test/cli'), 'test', '--list', '--reporter=json', '--config', join(root, 'playwright.config.ts')], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, OMS_BASE_URL: '', PLAYWRIGHT_JSON_OUTPUT_NAME: '' },
  });
  const listing = JSON.parse(output) as { suites: ListedSuite[] };
  const testsByRequirement = new Map<string, string[]>([...catalogue().keys()].map((id) => [id, []]));
  const unlinked: string[] = [];
  const visit = (suite: ListedSuite) => {
    for (const spec of suite.specs ?? []) {
      const ids = spec.tests[0].annotations.filter((a) => a.type === REQUIREMENT_ANNOTATION).map((a) => (a.description ?? '').split(' ')[0]);
      if (ids.length === 0) unlinked.push(`${spec.file}:${spec.line} ${spec.title}`);
      for (const id of ids) testsByRequirement.get(id)?.push(spec.title);
    }
    suite.suites?.forEach(visit);
  };
  listing.suites.forEach(visit);
  const untested = [...catalogue().values()].filter((r) => !r.not_tested && (testsByRequirement.get(r.id) ?? []).length === 0).map((r) => `${r.id} (${r.level}, section ${r.section}): ${r.statement}`);
  return { testsByRequirement, untested, unlinked };
}

export interface Matrix {
  /** Requirement id -> the "operationId/kind" cells a run checked it on. */
  checked: Map<string, Set<string>>;
  /** "ORD-X operationId/kind" cells of applies_to that no test checked. */
  holes: string[];
}

/**
 * Statement x operation x response kind, from what a run of the suite against the embedded reference
 * server actually judged (report.json's checkedOn, from the checked-on annotations of
 * harness/record/checked-on.ts), against applies_to.
 */
export function matrixOf(report: Pick<ConformanceReport, 'requirements'>): Matrix {
  const checked = new Map(report.requirements.map((r) => [r.id, new Set(r.checkedOn)]));
  const holes = [...catalogue().values()].flatMap((r) =>
    (r.applies_to ?? []).filter((cell) => !cell.endsWith('?') && !checked.get(r.id)?.has(cell)).map((cell) => `${r.id} ${cell}`),
  );
  return { checked, holes };
}

/** The matrix of a run of the whole suite, strict, one worker, against the clean embedded reference server. */
export function computeMatrix(): Matrix {
  const root = join(__dirname, '..');
  const directory = mkdtempSync(join(tmpdir(), 'oms-coverage-'));
  spawnSync(process.execPath, [require.resolve('@playwright/test/cli'), 'test', '--config', join(root, 'playwright.config.ts'), '--output', join(directory, 'output')], {
    cwd: root,
    encoding: 'utf8',
    // One worker unless the caller's environment says otherwise; always the embedded server.
    env: { OMS_WORKERS: '1', ...process.env, OMS_BASE_URL: '', OMS_PROFILE: 'strict', OMS_REPORT_DIR: join(directory, 'report') },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const report = JSON.parse(readFileSync(join(directory, 'report', 'report.json'), 'utf8')) as ConformanceReport;
  rmSync(directory, { recursive: true, force: true });
  return matrixOf(report);
}

if (require.main === module) {
  const { testsByRequirement, untested, unlinked } = computeCoverage();
  for (const r of catalogue().values()) {
    const tests = testsByRequirement.get(r.id) ?? [];
    console.log(`${r.id.padEnd(15)} ${r.level.padEnd(8)} §${r.section.padEnd(4)} ${r.not_tested ? 'not testable' : `${tests.length} test(s)`}`);
  }
  console.log(`\nRequirements without a test (${untested.length}):${untested.map((line) => `\n  ${line}`).join('')}`);
  console.log(`Tests without a requirement (${unlinked.length}):${unlinked.map((line) => `\n  ${line}`).join('')}`);
  let holes: string[] = [];
  if (!process.argv.includes('--no-run')) {
    console.log('\nStatement x operation x response kind (a run of the suite against the embedded reference server; + checked, - hole, ? the clean reference server never answers it):');
    const matrix = computeMatrix();
    for (const r of catalogue().values()) {
      if (!r.applies_to?.length) continue;
      const marks = r.applies_to.map((cell) => `${matrix.checked.get(r.id)?.has(cell.replace(/\?$/, '')) ? '+' : cell.endsWith('?') ? '?' : '-'}${cell.replace(/\?$/, '')}`);
      console.log(`${r.id.padEnd(15)} ${r.level.padEnd(7)} ${marks.join(' ')}`);
    }
    holes = matrix.holes;
    console.log(`\nCells of applies_to no test checked (${holes.length}):${holes.map((line) => `\n  ${line}`).join('')}`);
  }
  process.exit(untested.length || unlinked.length || holes.length ? 1 : 0);
}
