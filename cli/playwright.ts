import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { EXIT_CODE } from '../config/exit-codes';
import { INSTALLED_FROM_NPM, PACKAGE_ROOT } from '../config/package-root';

export const SUITE_CONFIG = join(PACKAGE_ROOT, 'playwright.config.ts');
export const MERGE_CONFIG = join(PACKAGE_ROOT, 'cli', 'merge.config.ts');

/**
 * Runs Playwright's command line in a child process with the given environment (secrets travel
 * there, never in argv). Installed as a dependency, the suite sits in node_modules, where Playwright
 * does not compile TypeScript: tsx does it instead, in the runner and (through execArgv) its workers.
 */
export function runPlaywright(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const tsx = INSTALLED_FROM_NPM ? ['--require', require.resolve('tsx/cjs')] : [];
  const child = spawn(process.execPath, [...tsx, require.resolve('@playwright/test/cli'), ...args], { env, stdio: 'inherit' });
  // Ctrl-C reaches the child too (the same process group): it stops its tests, cleans up and writes an
  // interrupted report. This process waits for that, and ends with the child's code, instead of dying first.
  const waitForChild = () => undefined;
  process.on('SIGINT', waitForChild);
  return new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? EXIT_CODE.interrupted : EXIT_CODE.configuration)));
  }).finally(() => process.off('SIGINT', waitForChild));
}
