import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

test('npm pack ships the product apart from its proof: no fault, variant, knob or hostile module, and no code that reads their variables', async () => {
  const { stdout } = await exec('npm', ['pack', '--dry-run', '--json', '--silent'], { cwd: PROJECT_ROOT });
  const files = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0].files.map((file) => file.path);
  expect(files).toContain('reference/server.ts');
  const proof = files.filter((file) => /^selftest\/|(^|\/)(faults|variants|hostile)\/|knobs|behaviours/.test(file));
  expect(proof, 'modules of the self-proof in the published package (package.json "files")').toEqual([]);
  const code = files.filter((file) => /\.(ts|js)$/.test(file));
  const readers = code.filter((file) => /OMS_(FAULT|VARIANT|HOSTILE|KNOBS)\b/.test(readFileSync(join(PROJECT_ROOT, file), 'utf8')));
  expect(readers, 'shipped code that names a behaviour variable of the self-proof').toEqual([]);
});
