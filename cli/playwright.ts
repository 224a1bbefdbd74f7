import { spawn } from 'node:child_process';
import { join, sep } from 'node:path';
import { EXIT_CODE } from '../config/exit-codes';
import { PACKAGE_ROOT } from '../reporter/run-info';

export const SUITE_CONFIG = join(PACKAGE_ROOT, 'playwright.config.ts');
export const MERGE_CONFIG = join(PACKAGE_ROOT, 'cli', 'merge.config.ts');

/**
 * Runs Playwright's command line in a child process with the given environment (secrets travel
 * there, never in argv). Installed as a dependency, the suite sits in node_modules, where Playwright
 * does not compile TypeScript: tsx does it instead, in the runner and (through execArgv) its workers.
 */
export function runPlaywright(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const tsx = PACKAGE_ROOT.split(sep).includes('node_modules') ? ['--require', require.resolve('tsx/cjs')] : [];
  const child = spawn(process.execPath, [...tsx, require.resolve('@playwright/test/cli'), ...args], { env, stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? EXIT_CODE.configuration));
  });
}
