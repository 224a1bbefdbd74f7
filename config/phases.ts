/**
 * The run's phases, as Playwright projects (the conventions: workers coordinate through the run's structure, not
 * through locks of their own), and the three kinds of test a worker schedules (harness/schedule/scheduler.ts):
 * - most tests run side by side, with each other and, inside one worker, many at once;
 * - QUIET_TAG: a list view read twice for a stable account: beside other views, while nothing of the run writes;
 * - ALONE_TAG: a write that nothing of the run may meet (a write to an order just deleted: no other create may
 *   take the deleted id, ORD-OBS-022): beside nothing at all.
 * In a run of one worker (the default: a worker runs the requests of many tests at once) these hold inside the
 * worker, in one phase. In a run of several workers, the quiet and alone tests run in `alone`, in one worker,
 * once every worker of the first phase has stopped (its orders deleted): nothing else of this run writes meanwhile.
 *
 * `alone` depends on `phase-break`, a project without tests, not on `together`: Playwright runs a
 * project after the phase of its dependencies, and `together` shares that phase; a dependency itself would
 * run whole, whatever --grep, shard or file filter the run was given, and its failures would skip `alone`.
 */
export const ALONE_TAG = '@alone';
export const QUIET_TAG = '@quiet';
/** The project of the tests that run alone, and of every test in a run of one worker. */
export const ALONE_PHASE = 'alone';

const TAGGED = (tag: string) => new RegExp(`${tag}(?![\\w-])`);
const ALONE_OR_QUIET = new RegExp(`(?:${ALONE_TAG}|${QUIET_TAG})(?![\\w-])`);

/** How a test may run beside others: `together` beside any but quiet and alone ones, `quiet` beside quiet ones, `alone` beside none. */
export type TestKind = 'together' | 'quiet' | 'alone';

export function kindOf(tags: readonly string[]): TestKind {
  if (tags.some((tag) => TAGGED(ALONE_TAG).test(tag))) return 'alone';
  if (tags.some((tag) => TAGGED(QUIET_TAG).test(tag))) return 'quiet';
  return 'together';
}

/**
 * The run's projects for `workers` workers. One worker has one phase: it keeps the kinds apart itself, and a second
 * phase would only cost a new worker. Each project here runs in one worker (`soleWorker`): its worker knows every test
 * it will run, and sends their requests before Playwright reaches them.
 */
export function phaseProjects(workers: number) {
  if (workers <= 1) return [{ name: ALONE_PHASE, use: { runsAlone: true, soleWorker: true } }];
  return [
    { name: 'together', grepInvert: ALONE_OR_QUIET },
    { name: 'phase-break', testMatch: [] },
    { name: ALONE_PHASE, grep: ALONE_OR_QUIET, dependencies: ['phase-break'], workers: 1, use: { runsAlone: true, soleWorker: true } },
  ];
}

/** A project of the run's phases: the run's structure, no part of a test's name (reporter/conformance-reporter.ts). */
export function isPhaseProject(name: string): boolean {
  return phaseProjects(2).some((project) => project.name === name);
}

/** The phases' own patterns: they split the run, they filter nothing out of it (reporter/run-info.ts). */
export function isPhasePattern(source: string): boolean {
  return source === ALONE_OR_QUIET.source;
}
