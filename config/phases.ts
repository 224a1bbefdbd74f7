/**
 * The run's phases, as Playwright projects (the conventions: workers coordinate through the run's structure, not
 * through locks of their own), and the kinds of test a worker schedules (harness/schedule/scheduler.ts):
 * - most tests run side by side, with each other and, inside one worker, many at once;
 * - NO_OTHER_CREATES_TAG: beside the others, but at times no other test may create: a write to an order just deleted
 *   (no other create may take the deleted id, ORD-OBS-022), orders made one after another with nothing made between;
 *   the test holds its worker's creates back meanwhile (harness/requests/created-orders.ts, withoutOtherCreates);
 * - QUIET_TAG: a list view read twice for a stable account: it may write first, beside the others; its views wait
 *   until nothing of the run writes, and are read beside the other quiet tests' views;
 * - ALONE_TAG: beside nothing at all.
 * In a run of one worker (the default: a worker runs the requests of many tests at once) these hold inside the
 * worker, in one phase. In a run of several workers, a worker cannot hold another's creates back, so the tests of the
 * last three kinds run in `alone`, in one worker, once every worker of the first phase has stopped (its orders deleted).
 *
 * `alone` depends on `phase-break`, a project without tests, not on `together`: Playwright runs a
 * project after the phase of its dependencies, and `together` shares that phase; a dependency itself would
 * run whole, whatever --grep, shard or file filter the run was given, and its failures would skip `alone`.
 */
export const ALONE_TAG = '@alone';
export const QUIET_TAG = '@quiet';
export const NO_OTHER_CREATES_TAG = '@no-other-creates';
/** The project of the tests that run alone, and of every test in a run of one worker. */
export const ALONE_PHASE = 'alone';

const TAGGED = (tag: string) => new RegExp(`${tag}(?![\\w-])`);
/** The tests a run of several workers runs in its second phase: those that need what only one worker can hold (config/phases.ts). */
const APART = new RegExp(`(?:${ALONE_TAG}|${QUIET_TAG}|${NO_OTHER_CREATES_TAG})(?![\\w-])`);

/** How a test may run beside others: `together` beside any but quiet and alone ones, `quiet` beside quiet ones, `alone` beside none. */
export type TestKind = 'together' | 'quiet' | 'alone';

export function kindOf(tags: readonly string[]): TestKind {
  if (tags.some((tag) => TAGGED(ALONE_TAG).test(tag))) return 'alone';
  if (tags.some((tag) => TAGGED(QUIET_TAG).test(tag))) return 'quiet';
  return 'together';
}

/** Whether a run of several workers runs the test in its second phase (`alone`): as the phases' patterns choose it. */
export function runsInSecondPhase(tags: readonly string[]): boolean {
  return tags.some((tag) => APART.test(tag));
}

/**
 * The run's projects for `workers` workers. One worker has one phase: it keeps the kinds apart itself, and a second
 * phase would only cost a new worker. Each project here runs in one worker (`soleWorker`): its worker knows every test
 * it will run, and sends their requests before Playwright reaches them.
 */
export function phaseProjects(workers: number) {
  if (workers <= 1) return [{ name: ALONE_PHASE, use: { runsAlone: true, soleWorker: true } }];
  return [
    { name: 'together', grepInvert: APART },
    { name: 'phase-break', testMatch: [] },
    { name: ALONE_PHASE, grep: APART, dependencies: ['phase-break'], workers: 1, use: { runsAlone: true, soleWorker: true } },
  ];
}

/** A project of the run's phases: the run's structure, no part of a test's name (reporter/conformance-reporter.ts). */
export function isPhaseProject(name: string): boolean {
  return phaseProjects(2).some((project) => project.name === name);
}

/** The phases' own patterns: they split the run, they filter nothing out of it (reporter/run-info.ts). */
export function isPhasePattern(source: string): boolean {
  return source === APART.source;
}
