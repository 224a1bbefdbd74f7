import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { visible } from '../config/safe-text';
import { githubAnnotations } from '../reporter/github';
import type { ConformanceReport } from '../reporter/report';
import { DEV_TOKEN_A, forbiddenInsteadOfUnauthorized, listMetaStatusOffByOne, PROJECT_ROOT, readReport, runCli, startServer, temporaryDirectory } from './support/cli';

/** GitHub's runner: a workflow command is a line that starts with "::"; its message is unescaped this way. */
const commandLines = (output: string) => output.split('\n').filter((line) => line.startsWith('::'));
const unescapeData = (text: string) => text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');

test('in a simulated Actions job, the run writes the job summary and one ::error per failed requirement', async () => {
  const server = await startServer([listMetaStatusOffByOne, forbiddenInsteadOfUnauthorized]);
  try {
    const work = temporaryDirectory();
    const summary = join(work, 'step-summary.md');
    writeFileSync(summary, '# earlier step\n');
    const run = await runCli(['--base-url', server.url, '--grep', '@ORD-GEN-002(?![\\w-])|@ORD-GET-004(?![\\w-])|GET /orders refuses no Authorization header', '--out', 'report', '--workers', '1'], {
      cwd: work,
      env: { OMS_TOKEN: DEV_TOKEN_A, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const report = readReport(join(work, 'report'));
    const failed = report.requirements.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed).toEqual(['ORD-GEN-002', 'ORD-AUTH-006']);
    const written = readFileSync(summary, 'utf8');
    // Appended, never overwritten: earlier steps keep their part of the summary.
    expect(written.startsWith('# earlier step\n')).toBe(true);
    expect(written).toContain('OMS conformance (core): NOT CONFORMANT');
    expect(written).toMatch(/\| MUST \| .* \|/);
    expect(written).toContain('- **ORD-GEN-002** (MUST');
    // The SHOULD failure does not gate core: the terminal says "warn", and so does GitHub.
    expect(run.stdout).toMatch(/^warn ORD-AUTH-006 \(SHOULD/m);
    expect(commandLines(run.stdout)).toEqual([
      expect.stringMatching(/^::error title=ORD-GEN-002 \(MUST%2C failed\)::.*Expected .*/),
      expect.stringMatching(/^::warning title=ORD-AUTH-006 \(SHOULD%2C failed \(not gating\)\)::/),
    ]);
  } finally {
    await server.close();
  }
});

test('a failure that does not fail the run is a ::warning, not an ::error: a SHOULD in core, a known failure', () => {
  const base = { section: '5', statement: 's', status: 'failed', findings: [] };
  const report = {
    shard: null,
    requirements: [
      { ...base, id: 'ORD-AUTH-006', level: 'SHOULD', gating: false },
      { ...base, id: 'ORD-GEN-002', level: 'MUST', gating: true, knownFailure: { reason: 'ticket 1', outcome: 'still-failing' } },
      { ...base, id: 'ORD-GET-001', level: 'MUST', gating: true },
    ],
  } as unknown as ConformanceReport;
  expect(githubAnnotations(report).map((line) => line.slice(0, line.indexOf('::', 2)))).toEqual([
    '::error title=ORD-GET-001 (MUST%2C failed)',
    '::warning title=ORD-AUTH-006 (SHOULD%2C failed (not gating))',
    '::warning title=ORD-GEN-002 (MUST%2C known failure)',
  ]);
});

test('server text cannot end an annotation early or start a second workflow command', () => {
  const hostile = 'x\n::error title=forged::injected\r\n::stop-commands::abc 100% %0A done';
  const requirement = {
    id: 'ORD-GEN-002',
    section: '4',
    level: 'MUST',
    statement: 'meta.status equals the HTTP status',
    status: 'failed',
    gating: true,
    findings: [{ test: 't', message: 'm', expected: 'meta.status 200', received: hostile }],
  };
  const report = { shard: null, requirements: [requirement, { ...requirement, id: 'ORD-GET-004', findings: [] }] } as unknown as ConformanceReport;
  const output = githubAnnotations(report).join('\n');
  expect(commandLines(output)).toHaveLength(2);
  const [first] = commandLines(output);
  // Properties end at the first "::" after the command; the rest is the message, which unescapes to the server's text
  // in the one form of every channel: on one line, its line breaks written \n (GitHub shows %0A as a line break).
  const message = first.slice(first.indexOf('::', 2) + 2);
  expect(first.slice(0, first.indexOf('::', 2))).toBe('::error title=ORD-GEN-002 (MUST%2C failed)');
  expect(unescapeData(message)).toContain(`received ${visible(hostile)}.`);
  expect(unescapeData(message)).not.toMatch(/[\r\n]/);
});

test('action.yml is a composite action with the documented inputs and outputs; secrets go through the environment; it sets up no Node.js of its own for the job; the example workflow uses it', () => {
  const action = parse(readFileSync(join(PROJECT_ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, unknown>;
    outputs: Record<string, unknown>;
    runs: { using: string; steps: Array<{ id?: string; uses?: string; run?: string; env?: Record<string, string> }> };
  };
  expect(action.runs.using).toBe('composite');
  for (const input of ['base-url', 'token', 'client-id', 'client-secret', 'token-b', 'client-id-b', 'client-secret-b', 'profile', 'effort', 'workers', 'seed', 'read-only', 'har', 'sign-key', 'request-timeout', 'timeout-minutes']) {
    expect(Object.keys(action.inputs)).toContain(input);
  }
  expect(Object.keys(action.outputs).sort()).toEqual(['exit-code', 'report-dir', 'run-id', 'score', 'verdict']);
  // Only the cache and the upload are other repositories' actions: no setup-node, which would change Node.js for the rest of the job.
  expect(action.runs.steps.flatMap((step) => (step.uses ? [step.uses.split('@')[0]] : []))).toEqual(['actions/cache', 'actions/upload-artifact']);
  const suite = action.runs.steps.find((step) => step.id === 'run');
  expect(suite?.run).toContain('node "$GITHUB_ACTION_PATH/cli/oms-conformance.js"');
  expect(suite?.env).toMatchObject({ OMS_TOKEN: '${{ inputs.token }}', OMS_CLIENT_SECRET: '${{ inputs.client-secret }}', OMS_CLIENT_SECRET_B: '${{ inputs.client-secret-b }}', SIGN_KEY_PEM: '${{ inputs.sign-key }}' });
  for (const step of action.runs.steps) expect(step.run ?? '', 'a secret never on a command line').not.toMatch(/\$\{\{\s*inputs\.(token|client-secret|sign-key)/);
  const workflow = parse(readFileSync(join(PROJECT_ROOT, '.github', 'workflows', 'conformance.yml'), 'utf8')) as { jobs: Record<string, { steps: Array<{ uses?: string; with?: Record<string, string> }> }> };
  const uses = Object.values(workflow.jobs).flatMap((job) => job.steps).find((step) => step.uses === './');
  expect(uses?.with).toMatchObject({ 'base-url': 'http://127.0.0.1:8080', profile: 'strict' });
});
