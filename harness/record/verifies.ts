import type { TestDetails } from '@playwright/test';
import { requirement } from '../../requirements/catalogue';
import { ALONE_TAG } from '../../config/phases';
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
 * writing meanwhile: test('…', runsAlone(verifies('ORD-LIST-003')), …).
 */
export function runsAlone(details: TestDetails): TestDetails {
  return { ...details, tag: [...[details.tag ?? []].flat(), ALONE_TAG] };
}

/**
 * Throws (a defect of the suite, not of the server) when the test running now does not run alone: `what`
 * rests on no other write of the run meeting it. Outside a test (a benchmark, a unit test) nothing to hold.
 */
export function mustRunAlone(what: string): void {
  const info = currentTest();
  if (info && !info.tags.includes(ALONE_TAG)) {
    throw new Error(`${what} in a test that runs beside the run's other tests: declare it with runsAlone(verifies(…)) so it runs in the phase where no other test of the run writes (config/phases.ts)`);
  }
}

export const OBSERVATION_ANNOTATION = 'observed';

/** Annotation type of the number of requests a test sent (its description), retries included. */
export const REQUESTS_ANNOTATION = 'oms-requests';

/** Annotation type of the longest chain of dependent requests in a test (its description): its floor is that many round trips. */
export const CHAIN_ANNOTATION = 'oms-chain';
