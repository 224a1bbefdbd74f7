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
 */
export const ALONE_TAG = '@alone';
/** The project of the tests that run alone. */
export const ALONE_PHASE = 'alone';

const ALONE = new RegExp(`${ALONE_TAG}(?![\\w-])`);

export const PHASE_PROJECTS = [
  { name: 'together', grepInvert: ALONE },
  { name: 'phase-break', testMatch: [] },
  { name: ALONE_PHASE, grep: ALONE, dependencies: ['phase-break'], workers: 1, use: { runsAlone: true } },
];

/** A project of the run's phases: the run's structure, no part of a test's name (reporter/conformance-reporter.ts). */
export function isPhaseProject(name: string): boolean {
  return PHASE_PROJECTS.some((project) => project.name === name);
}

/** The phases' own patterns: they split the run, they filter nothing out of it (reporter/run-info.ts). */
export function isPhasePattern(source: string): boolean {
  return source === ALONE.source;
}
