/**
 * The run's phases, as Playwright projects (the conventions: workers coordinate through the run's structure,
 * not through locks of their own). Playwright runs a project once every project of the level before it (by
 * dependencies) has ended, its workers stopped and their orders deleted:
 *
 * 1. `together`: most tests, side by side in every worker; beside them, `view-orders` makes the orders the list
 *    views read (VIEW_ORDERS) and hands them over instead of deleting them when its worker stops.
 * 2. `views`: the tests tagged VIEW_TAG, side by side in every worker, reading list views while no test of the
 *    run writes: its workers refuse every write (OmsApi, `writesHeld`).
 * 3. `alone`: the tests tagged ALONE_TAG, one at a time in one worker, no other test of the run beside them:
 *    a view around a write of its own (a count after a delete), and a write to an order just deleted (no other
 *    create may take the deleted id, ORD-OBS-022).
 * 4. `view-orders-cleanup` (view-orders' teardown, once views and alone have ended): deletes the orders handed over.
 *
 * `views` depends on `view-orders`, which therefore runs whenever a view does, whatever --grep, shard or file
 * filter the run was given (Playwright runs a dependency whole). `alone` depends on a project without tests that
 * depends on `view-orders` too: it comes after the views, and the cleanup after it.
 *
 * A run of one worker has one phase: every test runs alone then, the view orders made by the first view test.
 */
export const ALONE_TAG = '@alone';
/** Tests that read list views of the account and write nothing (the orders they read are made before). */
export const VIEW_TAG = '@view';
/** The project of the tests that run alone (and of every test, in a run of one worker). */
export const ALONE_PHASE = 'alone';
/** The project of the step that makes the orders for the list views. */
export const VIEW_ORDERS_PHASE = 'view-orders';
/** The project that deletes the orders made for the list views, last. */
export const VIEW_ORDERS_CLEANUP_PHASE = 'view-orders-cleanup';
/** The project of the list views. */
export const VIEWS_PHASE = 'views';
/** The worker option `writesHeld` of the views phase: why its tests may not write. */
export const VIEWS_HOLD_WRITES = 'the list views of this phase read the account while no test of the run writes (config/phases.ts)';

/** The files of the tests that make the orders for the list views and remove them (tests/phases/). */
const VIEW_ORDERS_FILE = /phases[\\/]view-orders\.setup\.ts$/;
const VIEW_ORDERS_CLEANUP_FILE = /phases[\\/]view-orders\.teardown\.ts$/;

const ALONE = new RegExp(`${ALONE_TAG}(?![\\w-])`);
const VIEW = new RegExp(`${VIEW_TAG}(?![\\w-])`);

/** The run's projects for `workers` workers. */
export function phaseProjects(workers: number) {
  if (workers <= 1) return [{ name: ALONE_PHASE, use: { runsAlone: true } }];
  return [
    // First: its one test starts with the first workers (Playwright hands out the projects' tests in this order).
    { name: VIEW_ORDERS_PHASE, testMatch: VIEW_ORDERS_FILE, teardown: VIEW_ORDERS_CLEANUP_PHASE, workers: 1 },
    { name: 'together', grepInvert: [ALONE, VIEW] },
    { name: VIEWS_PHASE, grep: VIEW, dependencies: [VIEW_ORDERS_PHASE], use: { writesHeld: VIEWS_HOLD_WRITES } },
    { name: 'views-break', testMatch: [], dependencies: [VIEW_ORDERS_PHASE] },
    { name: ALONE_PHASE, grep: ALONE, dependencies: ['views-break'], workers: 1, use: { runsAlone: true } },
    { name: VIEW_ORDERS_CLEANUP_PHASE, testMatch: VIEW_ORDERS_CLEANUP_FILE, workers: 1 },
  ];
}

const PHASE_NAMES = new Set(phaseProjects(2).map((project) => project.name));

/** A project of the run's phases: the run's structure, no part of a test's name (reporter/conformance-reporter.ts). */
export function isPhaseProject(name: string): boolean {
  return PHASE_NAMES.has(name);
}

/** A project Playwright runs only once `view-orders` has passed (it skips its tests otherwise). */
export function afterViewOrders(name: string): boolean {
  return name === VIEWS_PHASE || name === ALONE_PHASE;
}

/** The phases' own patterns: they split the run, they filter nothing out of it (reporter/run-info.ts). */
export function isPhasePattern(source: string): boolean {
  return source === ALONE.source || source === VIEW.source;
}
