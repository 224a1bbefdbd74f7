import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import suite from '../../playwright.config';

const ROOT = join(__dirname, '..', '..');

/**
 * The conformance suite as `npm run conformance` runs it, against a reference server with the behaviours that
 * OMS_FAULT, OMS_VARIANT, OMS_HOSTILE and OMS_KNOBS name (selftest/reference/global-setup.ts starts it first):
 * `OMS_FAULT=list-page-three-overlap npm run proof:conformance`. The suite itself reads none of these variables.
 */
export default defineConfig({
  ...suite,
  testDir: join(ROOT, 'tests'),
  outputDir: join(ROOT, 'test-results'),
  globalSetup: [require.resolve('./global-setup'), ...[suite.globalSetup ?? []].flat()],
});
