import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '@playwright/test';

/**
 * Runs `work` once per run of the self-tests, for a describe whose tests all judge what it made (one long
 * Playwright run: the matrix, the knob values alone). A failed test makes Playwright start a new worker,
 * which runs the describe's beforeAll again: the marker, in the project's output folder (cleared by each run),
 * says it already ran, and what it wrote stays where the tests read it.
 */
export async function oncePerRun(name: string, work: () => Promise<void>): Promise<void> {
  const marker = join(test.info().project.outputDir, `${name}.done`);
  if (existsSync(marker)) return;
  await work();
  mkdirSync(test.info().project.outputDir, { recursive: true });
  writeFileSync(marker, '');
}
