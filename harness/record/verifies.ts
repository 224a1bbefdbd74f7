import type { TestDetails } from '@playwright/test';
import { requirement } from '../../requirements/catalogue';
import { ALONE_TAG, kindOf, NO_OTHER_CREATES_TAG, QUIET_TAG } from '../../config/phases';
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
 * Reads its views while no test of the run writes, beside other tests that only read (config/phases.ts): a list view
 * read twice for a stable account: test('…', whileNothingWrites(verifies('ORD-LIST-003')), …). What it writes
 * first, it writes beside the others; its first view waits for the quiet (harness/schedule/scheduler.ts).
 */
export function whileNothingWrites(details: TestDetails): TestDetails {
  return { ...details, tag: [...[details.tag ?? []].flat(), QUIET_TAG] };
}

/**
 * Runs beside the others, holding its worker's creates back while what it does must meet none (config/phases.ts): a
 * write to an order just deleted, orders made one after another: test('…', whileNoOtherTestCreates(verifies('ORD-DELETE-005')), …).
 * A run of several workers runs it in its second phase, where no other worker creates.
 */
export function whileNoOtherTestCreates(details: TestDetails): TestDetails {
  return { ...details, tag: [...[details.tag ?? []].flat(), NO_OTHER_CREATES_TAG] };
}

/** What a test needs kept from it, as mustRunApart asks: no write of the run during its views, no other create during its window, nothing beside it. */
export type Apart = 'quiet' | 'no-other-creates' | 'alone';

const DECLARED: Record<Apart, { tag: string; declare: string }> = {
  quiet: { tag: QUIET_TAG, declare: 'whileNothingWrites(verifies(…))' },
  'no-other-creates': { tag: NO_OTHER_CREATES_TAG, declare: 'whileNoOtherTestCreates(verifies(…))' },
  alone: { tag: ALONE_TAG, declare: 'runsAlone(verifies(…))' },
};

/**
 * Throws (a defect of the suite, not of the server) when the test running now may meet what `what` rests on not
 * meeting: declared so, or alone. Outside a test (a benchmark, a unit test) nothing to hold.
 */
export function mustRunApart(what: string, needs: Apart): void {
  const info = currentTest();
  if (!info) return;
  if (kindOf(info.tags) === 'alone' || info.tags.includes(DECLARED[needs].tag)) return;
  throw new Error(`${what} in a test that runs beside the run's other tests: declare it with ${DECLARED[needs].declare} so no other test of the run meets it (config/phases.ts)`);
}
