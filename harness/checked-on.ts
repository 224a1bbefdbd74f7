import { test } from '@playwright/test';
import { responseRequirements } from '../checks/body';
import type { Exchange } from './http/exchange';
import { REQUIREMENT_ANNOTATION } from './verifies';

/**
 * Annotation type "checked-on", description "ORD-X <operationId>/<kind>" (kind 2xx, 4xx, 5xx): a
 * requirement held to a response of an operation. Recorded for the checks every response gets and for
 * the requirements the test verifies; requirements/coverage.ts builds the statement x operation x
 * response matrix from them and compares it with the catalogue's applies_to.
 */
export const CHECKED_ON_ANNOTATION = 'checked-on';

export function responseKind(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

export function recordCheckedOn(exchange: Exchange): void {
  if (!exchange.operationId || exchange.status === 429) return;
  const info = test.info();
  const verified = info.annotations.filter((a) => a.type === REQUIREMENT_ANNOTATION).map((a) => (a.description ?? '').split(' ')[0]);
  const seen = new Set(info.annotations.filter((a) => a.type === CHECKED_ON_ANNOTATION).map((a) => a.description));
  for (const id of new Set([...verified, ...responseRequirements(exchange)])) {
    const description = `${id} ${exchange.operationId}/${responseKind(exchange.status)}`;
    if (!seen.has(description)) info.annotations.push({ type: CHECKED_ON_ANNOTATION, description });
  }
}
