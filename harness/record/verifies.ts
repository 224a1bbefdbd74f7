import type { TestDetails } from '@playwright/test';
import { requirement } from '../../requirements/catalogue';
import { ALONE_TAG, kindOf, QUIET_TAG, type TestKind } from '../../config/phases';
import { currentTest } from './current-test';
import { REQUIREMENT_ANNOTATION } from './annotations';

export { CHAIN_ANNOTATION, OBSERVATION_ANNOTATION, RAN_ANNOTATION, REQUESTS_ANNOTATION, REQUIREMENT_ANNOTATION } from './annotations';


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
 * Runs the test beside no other test of the run (config/phases.ts): a write that nothing of the run may meet,
 * such as a write to an order just deleted: test('…', runsAlone(verifies('ORD-DELETE-005')), …).
 */
export function runsAlone(details: TestDetails): TestDetails {
  return { ...details, tag: [...[details.tag ?? []].flat(), ALONE_TAG] };
}

/**
 * Runs the test while no test of the run writes, beside other tests that only read (config/phases.ts): a list
 * view read twice for a stable account: test('…', whileNothingWrites(verifies('ORD-LIST-003')), …).
 */
export function whileNothingWrites(details: TestDetails): TestDetails {
  return { ...details, tag: [...[details.tag ?? []].flat(), QUIET_TAG] };
}

/**
 * Throws (a defect of the suite, not of the server) when the test running now may meet what `what` rests on
 * not meeting: a write of the run (`quiet`: declare the test whileNothingWrites or runsAlone) or any other test
 * of the run (`alone`: runsAlone). Outside a test (a benchmark, a unit test) nothing to hold.
 */
export function mustRunApart(what: string, needs: Exclude<TestKind, 'together'>): void {
  const info = currentTest();
  if (!info) return;
  const kind = kindOf(info.tags);
  if (kind === 'alone' || kind === needs) return;
  const declare = needs === 'alone' ? 'runsAlone(verifies(…))' : 'whileNothingWrites(verifies(…)) (or runsAlone, if it writes)';
  throw new Error(`${what} in a test that runs beside the run's other tests: declare it with ${declare} so no other test of the run meets it (config/phases.ts)`);
}
