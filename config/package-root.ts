import { join, sep } from 'node:path';

/** The suite's own folder: a checkout of its repository, or node_modules/oms-conformance after `npm install`. */
export const PACKAGE_ROOT = join(__dirname, '..');

/**
 * Installed from npm (used as `npx oms-conformance`), not a checkout: the one place that tells them apart.
 * Installed, Playwright does not compile the suite's TypeScript, and a hint that names `npx playwright test`
 * finds no test (the vendor's folder has no Playwright config, and Playwright skips node_modules).
 */
export const INSTALLED_FROM_NPM = PACKAGE_ROOT.split(sep).includes('node_modules');
