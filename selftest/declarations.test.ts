import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { JSONReport, JSONReportSuite } from '@playwright/test/reporter';
import { declaredBody, loadDeclarations } from '../harness/schedule/declarations';
import { testKey } from '../harness/schedule/plan';
import { PROJECT_ROOT, runSuite } from './support/run-suite';
import { temporaryDirectory } from './support/cli';

interface Listed {
  titlePath: string[];
  file: string;
  line: number;
}

/** Every test of a JSON report, with its title path below the project (file title, describes, title) and its location. */
function listed(suite: JSONReportSuite, path: string[] = []): Listed[] {
  const here = [...path, suite.title];
  return [
    ...suite.specs.map((spec) => ({ titlePath: [...here, spec.title], file: join(PROJECT_ROOT, 'tests', spec.file), line: spec.line })),
    ...(suite.suites ?? []).flatMap((child) => listed(child, here)),
  ];
}

/** The suite's tests as Playwright lists them (no test runs). */
async function suiteTests(): Promise<Listed[]> {
  const results = join(temporaryDirectory('oms-declarations-'), 'list.json');
  const run = await runSuite({ PLAYWRIGHT_JSON_OUTPUT_NAME: results }, ['--list', '--reporter', 'json']);
  expect(run.exitCode, run.output).toBe(0);
  const report = JSON.parse(readFileSync(results, 'utf8')) as JSONReport;
  return report.suites.flatMap((suite) => listed(suite));
}

test('every test of the suite is located where its spec file declares it, not in the harness that wraps test()', async () => {
  const tests = await suiteTests();
  expect(tests.length).toBeGreaterThan(150);
  for (const t of tests) {
    // The title path's first part is the file; the location is a line of that same file, declaring that test.
    expect(t.file, t.titlePath.join(' › ')).toBe(join(PROJECT_ROOT, 'tests', t.titlePath[0]));
    const line = readFileSync(t.file, 'utf8').split('\n')[t.line - 1] ?? '';
    expect(line, `${t.titlePath.join(' › ')} at ${t.file}:${t.line}`).toMatch(/\btest\(/);
  }
});

test('a worker reads, from each spec file, the body of every test Playwright will run from it, under the key its plan names the test by', async () => {
  const tests = await suiteTests();
  const files = new Map(tests.map((t) => [t.file, t.titlePath[0]]));
  for (const [file, fileTitle] of files) loadDeclarations(file, fileTitle);
  const missing = tests.filter((t) => typeof declaredBody(testKey(t.titlePath)) !== 'function').map((t) => t.titlePath.join(' › '));
  expect(missing).toEqual([]);
  // Read for its declarations only: the file is no module of this process afterwards, so Playwright's own load of it declares its tests.
  for (const file of files.keys()) expect(require.cache[require.resolve(file)]).toBeUndefined();
});
