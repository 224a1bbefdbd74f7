import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { readSetting } from '../config/settings';

// `oms-conformance merge` only: replays the shards' blob reports through the conformance reporter.
// OMS_MERGED_RUN carries what the shards ran (checked to agree by cli/merge.ts).
const mergedRun = readSetting('mergedRun');
if (!mergedRun) throw new Error('cli/merge.config.ts is used by `oms-conformance merge`, which sets OMS_MERGED_RUN');

export default defineConfig({
  testDir: join(__dirname, '..', 'tests'),
  reporter: [[require.resolve('../reporter/conformance-reporter'), { mergedRun }]],
});
