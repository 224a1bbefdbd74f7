import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { catalogue, requirement } from '../requirements/catalogue';
import { readSettings } from '../config/settings';
import { FAULTS } from './reference/faults';
import { GENERATED_FAULTS, type GeneratedFault } from './reference/faults/generated';
import { unrelatedFailures } from './reference/faults/kit';
import { failedRequirements, PROJECT_ROOT, runSuite } from './support/run-suite';

/**
 * The systematic fault space (selftest/reference/faults/generated.ts) against the suite. Each generated fault runs
 * the tests of the requirement it violates (every response they receive is checked too) under the
 * profile of its level, and must be killed by that requirement and by no unrelated one.
 * npm test runs one fault per family; OMS_EFFORT=thorough runs them all. Survivors are written to
 * test-results/fault-space/survivors.md (and .json) and printed, so a hole shows the day it opens.
 */
const THOROUGH = readSettings({ ...process.env, OMS_BASE_URL: undefined }).effort === 'thorough';
const SELECTED = THOROUGH ? GENERATED_FAULTS : GENERATED_FAULTS.filter((f, i) => GENERATED_FAULTS.findIndex((g) => g.family === f.family) === i);
const REPORT_DIR = join(PROJECT_ROOT, 'test-results', 'fault-space');
// Shared by the workers of one run (a failed test restarts its worker), like the matrix's.
const OUTCOMES_DIR = join(tmpdir(), `oms-fault-space-${process.ppid}`);

interface Outcome {
  id: string;
  family: string;
  level: string;
  declared: string[];
  failed: string[];
  killed: boolean;
  unrelated: string[];
  /** Why the suite wrote no report (a run that never started is no kill). */
  noReport?: string;
}

test.describe('fault space definitions', () => {
  test('every MUST and SHOULD requirement with a test has a fault that violates it', () => {
    const declared = new Set([...FAULTS, ...GENERATED_FAULTS].flatMap((f) => f.catches));
    const uncovered = [...catalogue().values()].filter((r) => (r.level === 'MUST' || r.level === 'SHOULD') && !r.not_tested && !declared.has(r.id)).map((r) => `${r.id} (${r.level})`);
    expect(uncovered, 'requirements no fault (hand-written or generated) violates: add one to selftest/reference/faults').toEqual([]);
  });

  test('generated faults have unique ids, declare catalogue requirements at their level, and cover every family', () => {
    const ids = GENERATED_FAULTS.map((f) => f.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(ids.filter((id) => FAULTS.some((f) => f.id === id))).toEqual([]);
    for (const fault of GENERATED_FAULTS) {
      for (const id of [...fault.catches, ...fault.collateral.map((c) => c.requirement)]) requirement(id);
      expect(fault.catches.map((id) => requirement(id).level), fault.id).toContain(fault.level);
    }
    const families = [
      'field-dropped',
      'field-wrong-type',
      'field-null',
      'field-wrong-format',
      'assigned-taken-on-create',
      'assigned-changed-on-update',
      'bound-not-enforced',
      'near-miss-token',
      'non-json-body',
      'envelope-field',
      'promised-field-dropped',
      'repeated-items-merged',
      'write-after-delete',
      'body-label',
      'odd-id',
      'long-text',
      'path-spelling',
      'timestamp-without-offset',
    ];
    expect(families.filter((family) => !GENERATED_FAULTS.some((f) => f.family === family))).toEqual([]);
  });
});

test.describe('fault space', () => {
  test.describe.configure({ mode: 'default' });

  for (const fault of SELECTED) {
    test(`kills ${fault.id} by ${fault.catches.join(', ')} (${fault.family})`, async () => {
      const outcome = await run(fault);
      mkdirSync(OUTCOMES_DIR, { recursive: true });
      writeFileSync(join(OUTCOMES_DIR, `${fault.id}.json`), JSON.stringify(outcome));
      const problems = [
        outcome.noReport ? `the suite wrote no report: ${outcome.noReport}` : '',
        outcome.killed || outcome.noReport ? '' : `survived: expected ${fault.catches.join(', ')} to fail under the ${profileOf(fault)} profile; failed were ${outcome.failed.join(', ') || 'none'}`,
        outcome.unrelated.length ? `also failed, unrelated to the defect: ${outcome.unrelated.join(', ')} (a false alarm of the suite, or collateral to declare with its reason)` : '',
      ].filter(Boolean);
      expect(problems, `${fault.id}: ${fault.description}`).toEqual([]);
    });
  }

  test.afterAll(() => {
    const outcomes = readOutcomes().filter((o) => SELECTED.some((f) => f.id === o.id));
    mkdirSync(REPORT_DIR, { recursive: true });
    const survivors = outcomes.filter((o) => !o.killed || o.unrelated.length);
    writeFileSync(join(REPORT_DIR, 'survivors.json'), JSON.stringify({ ran: outcomes.length, of: GENERATED_FAULTS.length, survivors }, null, 2));
    const lines = [
      `# Fault space: ${outcomes.length} of ${GENERATED_FAULTS.length} generated faults run (${THOROUGH ? 'thorough' : 'one per family; OMS_EFFORT=thorough runs all'})`,
      '',
      survivors.length === 0 ? 'Every fault run was killed by the requirement it violates, and by no unrelated one.' : '| fault | family | should have failed | failed instead |\n|---|---|---|---|',
      ...survivors.map((o) => `| ${o.id} | ${o.family} | ${o.declared.join(', ')}${o.killed ? ' (killed)' : ''} | ${o.noReport ? `no report: ${o.noReport}` : o.killed ? `unrelated: ${o.unrelated.join(', ')}` : o.failed.join(', ') || 'nothing'} |`),
    ];
    writeFileSync(join(REPORT_DIR, 'survivors.md'), `${lines.join('\n')}\n`);
    console.log(`\n${lines.join('\n')}\n(written to ${join(REPORT_DIR, 'survivors.md')})`);
  });
});

function readOutcomes(): Outcome[] {
  try {
    return readdirSync(OUTCOMES_DIR).map((file) => JSON.parse(readFileSync(join(OUTCOMES_DIR, file), 'utf8')) as Outcome);
  } catch {
    return [];
  }
}

function profileOf(fault: GeneratedFault): 'core' | 'strict' {
  return fault.level === 'MUST' ? 'core' : 'strict';
}

async function run(fault: GeneratedFault): Promise<Outcome> {
  const grep = fault.catches.map((id) => `@${id}(?![0-9])`).join('|');
  const suite = await runSuite({ OMS_FAULT: fault.id, OMS_PROFILE: profileOf(fault) }, ['--output', join(REPORT_DIR, 'runs', fault.id), '--grep', grep]);
  rmSync(suite.reportDir, { recursive: true, force: true });
  const failed = failedRequirements(suite.report).map((r) => r.id);
  const gating = profileOf(fault) === 'core' ? ['MUST'] : ['MUST', 'SHOULD'];
  const killed = suite.report?.verdict === 'not-conformant' && fault.catches.every((id) => failed.includes(id)) && fault.catches.some((id) => gating.includes(requirement(id).level));
  const unrelated = unrelatedFailures(fault, failed);
  const noReport = suite.report ? undefined : suite.output.replace(/\x1b\[[0-9;]*m/g, '').trim().split('\n').slice(-3).join(' / ');
  return { id: fault.id, family: fault.family, level: fault.level, declared: fault.catches, failed, killed, unrelated, noReport };
}
