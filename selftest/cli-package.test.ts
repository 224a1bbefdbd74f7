import { execFile } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { PROJECT_ROOT, readReport, runCli, temporaryDirectory } from './support/cli';

const exec = promisify(execFile);

test('npm pack ships what the command needs, and the installed package runs the suite from node_modules', async () => {
  const work = temporaryDirectory('oms-pack-');
  await exec('npm', ['pack', '--silent', '--pack-destination', work], { cwd: PROJECT_ROOT });
  const [tarball] = readdirSync(work).filter((name) => name.endsWith('.tgz'));
  const { stdout: listing } = await exec('tar', ['-tzf', join(work, tarball)]);
  const files = listing.split('\n').map((line) => line.replace(/^package\//, ''));
  for (const needed of ['cli/oms-conformance.js', 'cli/merge.config.ts', 'reporter/report.schema.json', 'reporter/README.md', 'playwright.config.ts', 'openapi.yaml', 'requirements/catalogue.yaml', 'harness/http/ledger.ts', 'config/settings-table.ts', 'docs/certify.md']) {
    expect(files, needed).toContain(needed);
  }
  expect(files.some((file) => file.startsWith('tests/') && file.endsWith('.spec.ts'))).toBe(true);
  expect(files.filter((file) => file.startsWith('selftest/') || file.startsWith('.ci/') || file.startsWith('node_modules/'))).toEqual([]);

  const app = join(work, 'app');
  await exec('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), '{ "name": "vendor-ci", "private": true }\n');
  try {
    await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--silent', join(work, tarball)], { cwd: app, timeout: 120_000 });
  } catch (error) {
    const text = String((error as { stderr?: string }).stderr ?? error);
    test.skip(/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT/.test(text), `npm install needs the registry or its cache: ${text.split('\n')[0]}`);
    throw error;
  }
  const bin = join(app, 'node_modules', '.bin', 'oms-conformance');
  const run = await runCli(['--grep', '@ORD-CREATE-002', '--out', 'report'], { cwd: app, bin });
  expect(run.exitCode, run.stdout + run.stderr).toBe(0);
  expect(readReport(join(app, 'report')).verdict).toBe('conformant');
});
