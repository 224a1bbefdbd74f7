import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { computeCoverage } from '../requirements/coverage';
import { catalogue } from '../requirements/catalogue';

// The document the catalogue quotes, kept in the repository so a clone anywhere can check it;
// the shared original is beside the checkout in this workplace and in CI.
const SPEC = join(__dirname, '..', 'requirements', 'order-management-interface.md');
const SHARED_SPEC = join(__dirname, '..', '..', 'shared', 'spec', 'order-management-interface.md');

function normalise(text: string): string {
  return text.replace(/[`*|]/g, ' ').replace(/\s+/g, ' ').trim();
}

test('every MUST and SHOULD requirement has a test, and every test names a requirement', () => {
  const { untested, unlinked } = computeCoverage();
  expect(untested, 'requirements without a test (add a test with verifies(), or a not_tested reason)').toEqual([]);
  expect(unlinked, 'tests without a requirement (add verifies(…) to them)').toEqual([]);
});

test('every catalogue entry quotes the interface document word for word', () => {
  const spec = normalise(readFileSync(SPEC, 'utf8'));
  const misquoted = [...catalogue().values()]
    .flatMap((r) => r.quote.split(' ... ').map((fragment) => ({ id: r.id, fragment: normalise(fragment) })))
    .filter(({ fragment }) => !spec.includes(fragment))
    .map(({ id, fragment }) => `${id}: "${fragment}"`);
  expect(misquoted, 'quotes not found in requirements/order-management-interface.md').toEqual([]);
});

test('every section of the document that states something is in the catalogue', () => {
  const spec = readFileSync(SPEC, 'utf8');
  const sections = [...spec.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\./gm)].map((m) => m[1]);
  const cited = new Set([...catalogue().values()].map((r) => r.section));
  // Section 2 and 4 are headings whose content lives in their subsections.
  const missing = sections.filter((s) => !cited.has(s) && ![...cited].some((c) => c.startsWith(`${s}.`)));
  expect(missing, 'sections with no catalogue entry').toEqual([]);
});

test('the document kept in requirements/ is the shared interface document', () => {
  test.skip(!existsSync(SHARED_SPEC), `no shared/ beside this checkout (${SHARED_SPEC}): nothing to compare with`);
  expect(readFileSync(SPEC, 'utf8'), 'requirements/order-management-interface.md differs from shared/spec: copy the new document and review the catalogue against it').toBe(readFileSync(SHARED_SPEC, 'utf8'));
});
