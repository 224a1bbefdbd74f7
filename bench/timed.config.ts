import { join } from 'node:path';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import suite from '../playwright.config';

/**
 * The suite's own configuration, plus the bench's timing reporter (per-test durations and step
 * counts for the scale table). testDir is made absolute because this file lives in bench/.
 */
export default defineConfig({
  ...suite,
  testDir: join(__dirname, '..', 'tests'),
  reporter: [...(suite.reporter as ReporterDescription[]), [require.resolve('./timing-reporter')]],
});
