/**
 * The run's two phases, as Playwright projects (the conventions: workers coordinate through the run's
 * structure, not through locks of their own). Most tests run side by side in `together`. The tests tagged
 * ALONE_TAG then run in `alone`, one at a time in one worker, once every worker of the first phase has
 * stopped (its orders deleted): nothing else of this run writes meanwhile. They are the tests whose verdict
 * a write of this run would change: a list view of several pages (the same orders on every read), and a
 * write to an order just deleted (no other create may take the deleted id, ORD-OBS-022).
 *
 * `alone` depends on `phase-break`, a project without tests, not on `together`: Playwright runs a
 * project after the phase of its dependencies, and `together` shares that phase; a dependency itself would
 * run whole, whatever --grep, shard or file filter the run was given, and its failures would skip `alone`.
 *
 * Splitting the list views (which only need no write of the run) from the writers into a phase of their own,
 * read side by side, was measured and left out: the new workers of each phase cost more than the views gain
 * (quick run, 2 cores: 15.5 s against 14.0 s at 50 ms, 27.5 s against 27.8 s at 150 ms).
 */
export const ALONE_TAG = '@alone';
/** The project of the tests that run alone. */
export const ALONE_PHASE = 'alone';

const ALONE = new RegExp(`${ALONE_TAG}(?![\\w-])`);

/**
 * The run's projects for `workers` workers. A run of one worker has one phase: its tests run one at a time
 * anyway, and a second phase would only cost a new worker (config/network.ts: the same-machine default).
 */
export function phaseProjects(workers: number) {
  if (workers <= 1) return [{ name: ALONE_PHASE, use: { runsAlone: true } }];
  return [
    { name: 'together', grepInvert: ALONE },
    { name: 'phase-break', testMatch: [] },
    { name: ALONE_PHASE, grep: ALONE, dependencies: ['phase-break'], workers: 1, use: { runsAlone: true } },
  ];
}

/** A project of the run's phases: the run's structure, no part of a test's name (reporter/conformance-reporter.ts). */
export function isPhaseProject(name: string): boolean {
  return phaseProjects(2).some((project) => project.name === name);
}

/** The phases' own patterns: they split the run, they filter nothing out of it (reporter/run-info.ts). */
export function isPhasePattern(source: string): boolean {
  return source === ALONE.source;
}
