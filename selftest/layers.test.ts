import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { expect, test } from '@playwright/test';
import { PROJECT_ROOT } from './support/run-suite';

const exec = promisify(execFile);
const DEPCRUISE = join(PROJECT_ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = join(PROJECT_ROOT, '.dependency-cruiser.cjs');

/** dependency-cruiser with the project's rules over `directory`: its exit code and what it printed. */
async function cruise(directory: string): Promise<{ exitCode: number; output: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [DEPCRUISE, '--config', CONFIG, '--output-type', 'err-long', '.'], { cwd: directory });
    return { exitCode: 0, output: stripVTControlCharacters(stdout + stderr) };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { exitCode: failed.code ?? -1, output: stripVTControlCharacters(`${failed.stdout ?? ''}${failed.stderr ?? ''}`) };
  }
}

test('imports run downward: no circle of files, no arrow from a lower layer to a higher one, type-only imports included', async () => {
  const { exitCode, output } = await cruise(PROJECT_ROOT);
  expect(exitCode, output).toBe(0);
  expect(output).toContain('no dependency violations found');
});

test('the layer rules catch a type-only import from checks/ into harness/ and a circle, naming each import', async () => {
  const { exitCode, output } = await cruise(join(__dirname, 'fixtures', 'layers'));
  expect(exitCode, output).not.toBe(0);
  expect(output).toContain('error no-upward-from-checks: checks/judge.ts → harness/recorder.ts');
  expect(output).toMatch(/error no-circular: config\/(docs|settings)\.ts →/);
  expect(output).toContain('2 dependency violations');
});
