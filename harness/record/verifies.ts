import type { TestDetails } from '@playwright/test';
import { requirement } from '../../requirements/catalogue';

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

export const OBSERVATION_ANNOTATION = 'observed';

/** Annotation type of the number of requests a test sent (its description), retries included. */
export const REQUESTS_ANNOTATION = 'oms-requests';
