import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from '@playwright/test';
import { SUITE_CODE_FOLDERS } from '../reporter/run-info';
import { computeCoverage } from '../cli/coverage';
import { catalogue } from '../requirements/catalogue';
import { CHECKS_README, JUDGED_ID, judgements, readmeWithIndex } from '../requirements/judged-by';

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

/** The TypeScript files under a folder of the project, as paths relative to its root. */
function sourcesUnder(folder: string): string[] {
  const root = join(__dirname, '..');
  const directory = join(root, folder);
  if (!existsSync(directory)) return [];
  return (readdirSync(directory, { recursive: true }) as string[]).filter((file) => file.endsWith('.ts')).map((file) => relative(root, join(directory, file)));
}

test('every tested MUST and SHOULD requirement is judged by a named check under checks/', () => {
  const judged = new Set(judgements().map((j) => j.id));
  const unjudged = [...catalogue().values()]
    .filter((r) => (r.level === 'MUST' || r.level === 'SHOULD') && !r.not_tested && !judged.has(r.id))
    .map((r) => `${r.id} (${r.level}): ${r.statement}`);
  expect(unjudged, "tested requirements no unless('ORD-…', …) under checks/ judges (add a named check to the file of its family)").toEqual([]);
  expect([...judged].filter((id) => !catalogue().has(id)), 'ids judged under checks/ that the catalogue does not have').toEqual([]);
});

test('no judgement outside checks/: tests and generators call named checks', () => {
  const literal = new RegExp(JUDGED_ID.source);
  const code = [...SUITE_CODE_FOLDERS, 'cli', 'bench'].filter((folder) => folder !== 'checks').flatMap(sourcesUnder);
  const judging = code.filter((file) => literal.test(readFileSync(join(__dirname, '..', file), 'utf8')));
  expect(judging, "files outside checks/ with unless('ORD-…'): move the judgement to a named check under checks/").toEqual([]);
  const inline = ['tests', 'generators'].flatMap(sourcesUnder).filter((file) => /\bunless\(/.test(readFileSync(join(__dirname, '..', file), 'utf8')));
  expect(inline, 'tests and generators that call unless(): call a named check of checks/ instead').toEqual([]);
});

test('checks/README.md indexes where each requirement is judged, up to date', () => {
  expect(readFileSync(CHECKS_README, 'utf8'), 'checks/README.md is out of date: run npx tsx requirements/judged-by.ts --write').toBe(readmeWithIndex());
});
