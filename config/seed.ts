import { createHash, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SeedSource } from './run-info';
import { writeSettings, type Settings } from './settings';

/**
 * The seed of a run's generated tests, fixed once in the runner and handed to every worker: one seed for
 * the whole run, so no test's inputs depend on which worker runs it or when. Unless asked to explore, it is
 * derived from the suite version (Hypothesis' derandomize): the same server gets the same verdict every run.
 */

/** The suite's package.json: its name and version. */
export function suitePackage(): { name: string; version: string } {
  return JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { name: string; version: string };
}

/** The default seed: a stable hash of the suite's name and version, so a new release may draw other inputs, a rerun never does. */
export function suiteVersionSeed({ name, version } = suitePackage()): number {
  return createHash('sha256').update(`${name}@${version}`).digest().readUInt32BE(0) & 0x7fffffff;
}

/** Whether the run draws new inputs: --explore, OMS_SEED=random, or thorough effort without a seed of its own. */
export function explores(settings: Pick<Settings, 'seed' | 'explore' | 'effort'>): boolean {
  if (typeof settings.seed === 'number') return false;
  return settings.seed === 'random' || settings.explore || settings.effort === 'thorough';
}

export interface RunSeed {
  seed: number;
  from: SeedSource;
}

/** The run's seed: the one given (or fixed by the runner), a new one when exploring, otherwise the suite version's. */
export function runSeed(settings: Pick<Settings, 'seed' | 'explore' | 'effort' | 'seedFrom'>): RunSeed {
  if (typeof settings.seed === 'number') return { seed: settings.seed, from: settings.seedFrom ?? 'given' };
  if (explores(settings)) return { seed: randomInt(1, 2 ** 31 - 1), from: 'drawn' };
  return { seed: suiteVersionSeed(), from: 'suite-version' };
}

/** Fixes the run's seed in the runner (settings and the environment its workers and reporter inherit): drawn once, used everywhere. */
export function fixRunSeed(settings: Settings, env: NodeJS.ProcessEnv = process.env): RunSeed {
  const fixed = runSeed(settings);
  settings.seed = fixed.seed;
  settings.seedFrom = fixed.from;
  writeSettings({ seed: fixed.seed, seedFrom: fixed.from }, env);
  return fixed;
}
