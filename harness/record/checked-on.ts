import { currentTest, type TestRecord } from './current-test';
import type { Exchange } from '../../contract/exchange';
import type { Judged } from '../../checks/check';

/**
 * Annotation type "checked-on", description "ORD-X <operationId>/<kind>" (kind 2xx, 4xx, 5xx): a check
 * of a requirement ran on a response of an operation. Recorded only where a check judged that response:
 * the checks every response gets (checks/body.ts responseRequirements, recorded by the api) and each
 * judgement, which names the responses it judged (unless(…, on) in checks/check.ts, recorded by judged() in harness/record/findings.ts). A response a
 * test only passed through (a setup request) counts for nothing. cli/coverage.ts builds the
 * statement x operation x response matrix from these and compares it with the catalogue's applies_to.
 */
export const CHECKED_ON_ANNOTATION = 'checked-on';

export function responseKind(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

const recordedByTest = new WeakMap<TestRecord, Set<string>>();

/** Records that a check of the requirement ran on these responses; outside a test (a benchmark) there is nothing to record. */
export function recordCheckedOn(requirementId: string, on: Judged): void {
  const responses = (Array.isArray(on) ? on : [on]) as (Exchange | undefined)[];
  const cells = responses
    .filter((exchange): exchange is Exchange => exchange !== undefined && exchange.operationId !== undefined && exchange.status !== 429)
    .map((exchange) => `${requirementId} ${exchange.operationId}/${responseKind(exchange.status)}`);
  if (cells.length === 0) return;
  const info = currentTest();
  if (!info) return;
  const recorded = recordedByTest.get(info) ?? new Set<string>();
  recordedByTest.set(info, recorded);
  for (const description of cells) {
    if (recorded.has(description)) continue;
    recorded.add(description);
    info.annotations.push({ type: CHECKED_ON_ANNOTATION, description });
  }
}
