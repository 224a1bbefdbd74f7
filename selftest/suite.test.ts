import { expect, test } from '@playwright/test';
import { matrixOf } from '../cli/coverage';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import { startReferenceServer } from '../reference/server';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT, runSuite, type SuiteRun } from './support/run-suite';

function expectConformant(run: SuiteRun) {
  expect(run.report, run.output).toBeDefined();
  const failed = run.report!.requirements.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.evidence[0] ?? ''}`);
  expect(failed, run.output.slice(-3000)).toEqual([]);
  expect(run.report!.unattributedFailures).toEqual([]);
  expect(run.exitCode, run.output.slice(-3000)).toBe(0);
  const untested = run.report!.requirements.filter((r) => (r.level === 'MUST' || r.level === 'SHOULD') && r.status === 'not-reached');
  expect(untested.map((r) => r.id)).toEqual([]);
}

test.describe('one run of the whole suite against the embedded reference server, strict', () => {
  // Both tests judge the same run: in one worker, so it runs once.
  test.describe.configure({ mode: 'default' });
  let run: SuiteRun;
  test.beforeAll(async () => {
    run = await runSuite({ OMS_PROFILE: 'strict' });
  });

  test('the embedded reference server passes the strict profile, every requirement checked', () => {
    expectConformant(run);
    expect(run.report!.requirements.filter((r) => r.status === 'skipped').map((r) => r.id)).toEqual([]);
    const unobserved = run.report!.requirements.filter((r) => r.level === 'OBSERVED' && r.status !== 'not-testable' && !(r.status === 'observed' && r.observed.length > 0));
    expect(unobserved.map((r) => `${r.id}: ${r.status}`)).toEqual([]);
  });

  test('statement x operation x response: a run against the embedded reference server checks every cell of applies_to', () => {
    expect(run.report, run.output).toBeDefined();
    const { holes } = matrixOf(run.report!);
    expect(holes, 'cells no check judged (npm run coverage prints the matrix): add a check that names those responses, or mark the cell with ? where the clean server never answers it').toEqual([]);
  });
});

test('a server at OMS_BASE_URL passes the core profile; without OMS_TOKEN_B the isolation checks are skipped with the reason', async () => {
  const server = await startReferenceServer();
  try {
    const run = await runSuite({ OMS_BASE_URL: server.url, OMS_TOKEN: DEVELOPMENT_ACCOUNTS[0].developmentToken, OMS_PROFILE: 'core' });
    expectConformant(run);
    const isolation = run.report!.requirements.filter((r) => r.id.startsWith('ORD-ISO-'));
    expect(isolation.map((r) => r.status)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(isolation[0].skipReasons.join()).toContain('OMS_TOKEN_B');
  } finally {
    await server.close();
  }
});

test('a run that crashes outside the tests is not reported as conformant', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oms-crash-'));
  writeFileSync(join(dir, 'crash-setup.ts'), "export default async function crash() { throw new Error('the setup crashed on purpose'); }\n");
  writeFileSync(
    join(dir, 'crash.config.ts'),
    `import base from ${JSON.stringify(join(PROJECT_ROOT, 'playwright.config'))};\nexport default { ...base, testDir: ${JSON.stringify(join(PROJECT_ROOT, 'tests'))}, globalSetup: ${JSON.stringify(join(dir, 'crash-setup.ts'))} };\n`,
  );
  const run = await runSuite({}, ['--config', join(dir, 'crash.config.ts'), '--grep', '@ORD-GET-004']);
  expect(run.exitCode, run.output).not.toBe(0);
  expect(run.output).not.toContain('OMS conformance (core): CONFORMANT');
});
