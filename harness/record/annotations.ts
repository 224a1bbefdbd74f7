/** The annotation types a test carries for the reporter and the bench: names only, so a reporter reads them without loading the harness. */

export const REQUIREMENT_ANNOTATION = 'requirement';

export const OBSERVATION_ANNOTATION = 'observed';

/** Annotation type of the number of requests a test sent (its description), retries included. */
export const REQUESTS_ANNOTATION = 'oms-requests';

/** Annotation type of the longest chain of dependent requests in a test (its description): its floor is that many round trips. */
export const CHAIN_ANNOTATION = 'oms-chain';

/** Annotation type of when a test's body ran (JSON `{ startedAt, endedAt }`, epoch ms): ahead of its test, it may have run long before Playwright reports it. */
export const RAN_ANNOTATION = 'oms-ran';

/** Annotation type of a time a test held its worker's other creates back (JSON `{ from, to }`, epoch ms: harness/requests/created-orders.ts withoutOtherCreates). */
export const HELD_CREATES_ANNOTATION = 'oms-held-creates';

/** Annotation type of when a quiet test's views began, nothing of the run writing from then (JSON `{ from }`, epoch ms: harness/schedule/scheduler.ts). */
export const QUIET_ANNOTATION = 'oms-quiet';
