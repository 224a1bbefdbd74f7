import type { TestDetails } from '@playwright/test';
import { requirement } from '../../requirements/catalogue';
import { ALONE_TAG, VIEW_TAG } from '../../config/phases';
import { currentTest } from './current-test';

export const REQUIREMENT_ANNOTATION = 'requirement';

/**
 * Ties a test to the catalogue: test('…', verifies('ORD-LIST-003'), async (…) => …).
 * Expands into a tag per id and level (for --grep) and an annotation per id (for the reporter).
 * An unknown id throws while the tests load.
 */
export function verifies(...ids: string[]): TestDetails {
  if (ids.length === 0) throw new Error('verifies() needs at least one requirement id');
  const requirements = ids.map(requirement);
  return {
    tag: [...new Set(requirements.flatMap((r) => [`@${r.id}`, `@${r.level}`]))],
    annotation: requirements.map((r) => ({
      type: REQUIREMENT_ANNOTATION,
      description: `${r.id} (${r.level}, section ${r.section}): ${r.statement}`,
    })),
  };
}

/**
 * Runs the test in the run's phase of tests that run alone (config/phases.ts), no other test of the run
 * beside it: test('…', runsAlone(verifies('ORD-LIST-007')), …).
 */
export function runsAlone(details: TestDetails): TestDetails {
  return tagged(details, ALONE_TAG);
}

/**
 * Runs the test in the run's phase of list views (config/phases.ts), beside other views but while no test of
 * the run writes; it may write nothing itself: test('…', readsViews(verifies('ORD-LIST-003')), …).
 */
export function readsViews(details: TestDetails): TestDetails {
  return tagged(details, VIEW_TAG);
}

function tagged(details: TestDetails, tag: string): TestDetails {
  return { ...details, tag: [...[details.tag ?? []].flat(), tag] };
}

/**
 * Throws (a defect of the suite, not of the server) when the test running now does not run alone: `what`
 * rests on no other test of the run meeting it. Outside a test (a benchmark, a unit test) nothing to hold.
 */
export function mustRunAlone(what: string): void {
  mustRunIn(what, [ALONE_TAG], 'runsAlone(verifies(…)) so it runs in the phase where no other test of the run runs');
}

/** Throws, as mustRunAlone, unless the test running now reads views while no test of the run writes (alone, or in the views phase). */
export function mustReadUndisturbed(what: string): void {
  mustRunIn(what, [VIEW_TAG, ALONE_TAG], 'readsViews(verifies(…)) so it runs in the phase where no test of the run writes');
}

function mustRunIn(what: string, tags: string[], advice: string): void {
  const info = currentTest();
  if (info && !tags.some((tag) => info.tags.includes(tag))) {
    throw new Error(`${what} in a test that runs beside the run's other tests: declare it with ${advice} (config/phases.ts)`);
  }
}

export const OBSERVATION_ANNOTATION = 'observed';

/** Annotation type of the number of requests a test sent (its description), retries included. */
export const REQUESTS_ANNOTATION = 'oms-requests';

/** Annotation type of the longest chain of dependent requests in a test (its description): its floor is that many round trips. */
export const CHAIN_ANNOTATION = 'oms-chain';
