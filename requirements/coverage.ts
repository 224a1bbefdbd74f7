import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { catalogue } from '../harness/requirements';
import { REQUIREMENT_ANNOTATION } from '../harness/verifies';

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

if (require.main === module) {
  const { testsByRequirement, untested, unlinked } = computeCoverage();
  for (const r of catalogue().values()) {
    const tests = testsByRequirement.get(r.id) ?? [];
    console.log(`${r.id.padEnd(15)} ${r.level.padEnd(8)} §${r.section.padEnd(4)} ${r.not_tested ? 'not testable' : `${tests.length} test(s)`}`);
  }
  console.log(`\nRequirements without a test (${untested.length}):${untested.map((line) => `\n  ${line}`).join('')}`);
  console.log(`Tests without a requirement (${unlinked.length}):${unlinked.map((line) => `\n  ${line}`).join('')}`);
  process.exit(untested.length || unlinked.length ? 1 : 0);
}
