import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FullConfig } from '@playwright/test/reporter';
import { OPENAPI_PATH } from '../contract/openapi';
import { CATALOGUE_PATH } from '../requirements/catalogue';
import type { Settings } from '../config/settings';
import { isPhasePattern } from '../config/phases';
import type { RunInfo } from '../config/run-info';
import { runSeed, suitePackage } from '../config/seed';
import { PACKAGE_ROOT } from '../config/package-root';

export { PACKAGE_ROOT };

/** Which suite produced a report: its version and the exact contract and catalogue it tested against. */
export interface SuiteIdentity {
  name: string;
  version: string;
  /** SHA-256 (hex) of openapi.yaml. */
  openapiSha256: string;
  /** SHA-256 (hex) of requirements/catalogue.yaml. */
  catalogueSha256: string;
  /** SHA-256 (hex) over the code that decides verdicts: every file of SUITE_CODE_FOLDERS, by path and content. */
  codeSha256: string;
}

/** The folders whose code decides what a run checks and how: a change in any of them is another suite. */
export const SUITE_CODE_FOLDERS = ['tests', 'generators', 'model', 'checks', 'harness', 'contract', 'config', 'reporter', 'requirements'];

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export function sha256File(path: string): string {
  return sha256(readFileSync(path));
}

export function suiteIdentity(): SuiteIdentity {
  const pkg = suitePackage();
  return {
    name: pkg.name,
    version: pkg.version,
    openapiSha256: sha256File(OPENAPI_PATH),
    catalogueSha256: sha256File(CATALOGUE_PATH),
    codeSha256: codeSha256(),
  };
}

let codeHash: string | undefined;

/** One hash over the suite's code, computed once per process: each file's path and bytes, in path order. */
export function codeSha256(): string {
  if (codeHash) return codeHash;
  const hash = createHash('sha256');
  const files = SUITE_CODE_FOLDERS.flatMap((folder) => filesUnder(join(PACKAGE_ROOT, folder))).sort();
  for (const file of files) hash.update(`${relative(PACKAGE_ROOT, file)}\0`).update(readFileSync(file)).update('\0');
  codeHash = hash.digest('hex');
  return codeHash;
}

function filesUnder(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return /\.(ts|js|ya?ml|json|md)$/.test(entry.name) ? [path] : [];
  });
}

/** The run as Playwright and the configuration contract describe it, before the global setup has run. */
export function runInfoAtStart(config: FullConfig, settings: Settings, runId: string, argv: string[] = process.argv): RunInfo {
  const grep = config.projects.flatMap((project) => (Array.isArray(project.grep) ? project.grep : [project.grep]));
  const filters = [...new Set(grep.map((pattern) => pattern.source))].filter((source) => source !== '.*' && !isPhasePattern(source)).map((source) => `grep ${source} (config)`);
  filters.push(...commandLineFilters(argv));
  const { seed, from } = runSeed(settings);
  return {
    runId,
    target: { baseUrl: settings.baseUrl ?? null, embedded: !settings.baseUrl },
    profile: settings.profile,
    effort: settings.effort,
    seed,
    seedFrom: from,
    readOnly: settings.readOnly,
    grep: filters.length ? filters.join(' ') : null,
    shard: config.shard ? `${config.shard.current}/${config.shard.total}` : null,
    mergedShards: null,
  };
}

/** A run covers the whole catalogue only when no filter or shard narrowed it. */
export function isPartial(run: RunInfo): boolean {
  return run.grep !== null || run.shard !== null;
}

/** `playwright test` options that take a value: what follows them is not a file filter. */
const VALUE_OPTIONS = new Set([
  '-c', '--config', '--output', '-g', '--grep', '--grep-invert', '--shard', '--reporter', '-j', '--workers', '--project',
  '--timeout', '--retries', '--repeat-each', '--max-failures', '--trace', '--tsconfig', '--global-timeout', '--test-list',
  '--test-list-invert', '--last-failed-file', '--update-source-method', '--browser',
]);

/**
 * Filters given on Playwright's command line (--grep, --grep-invert, file filters, --last-failed,
 * --only-changed): Playwright does not show them to reporters, yet a filtered run must say it is partial.
 */
export function commandLineFilters(argv: string[]): string[] {
  const start = argv.indexOf('test');
  if (start < 0) return [];
  const filters: string[] = [];
  const args = argv.slice(start + 1);
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = args[i].startsWith('--') && args[i].includes('=') ? [args[i].slice(0, args[i].indexOf('=')), args[i].slice(args[i].indexOf('=') + 1)] : [args[i], undefined];
    const value = VALUE_OPTIONS.has(name) && inline === undefined ? args[++i] : inline;
    if (name === '-g' || name === '--grep' || name === '--grep-invert' || name === '--test-list') filters.push(`${name === '-g' ? '--grep' : name} ${value ?? ''}`);
    else if (name === '--last-failed' || name === '--only-changed') filters.push(name);
    else if (!name.startsWith('-')) filters.push(name);
  }
  return filters;
}
