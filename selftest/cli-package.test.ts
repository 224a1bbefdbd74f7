import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, expect, test } from '@playwright/test';
import { behavioursFromEnvironment } from './reference/behaviours';
import { behaviourTarget, CHROMIUM, PROJECT_ROOT, readReport, runCli, startServer, temporaryDirectory } from './support/cli';
import { clientCalls, endsWithin, isListening, startProxy, stopIfRunning, type StartedProxy } from './support/proxy';

const exec = promisify(execFile);

/** The packed tarball installed into an empty vendor's folder, once for the tests that use it (an install takes a while). */
interface Installed {
  work: string;
  tarball: string;
  app: string;
  bin: string;
}

test.describe('the packed package, installed in an empty folder', () => {
  test.describe.configure({ mode: 'serial' });
  let installed: Installed;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    const work = temporaryDirectory('oms-pack-');
    await exec('npm', ['pack', '--silent', '--pack-destination', work], { cwd: PROJECT_ROOT });
    const [tarball] = readdirSync(work).filter((name) => name.endsWith('.tgz'));
    const app = join(work, 'app');
    await exec('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), '{ "name": "vendor-ci", "private": true }\n');
    try {
      await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--silent', join(work, tarball)], { cwd: app, timeout: 240_000 });
    } catch (error) {
      const text = String((error as { stderr?: string }).stderr ?? error);
      test.skip(/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT/.test(text), `npm install needs the registry or its cache: ${text.split('\n')[0]}`);
      throw error;
    }
    installed = { work, tarball, app, bin: join(app, 'node_modules', '.bin', 'oms-conformance') };
  });

  test('npm pack ships what the command needs, and the installed package runs the suite from node_modules', async () => {
    const { stdout: listing } = await exec('tar', ['-tzf', join(installed.work, installed.tarball)]);
    const files = listing.split('\n').map((line) => line.replace(/^package\//, ''));
    for (const needed of ['cli/oms-conformance.js', 'cli/merge.config.ts', 'reporter/report.schema.json', 'reporter/README.md', 'playwright.config.ts', 'openapi.yaml', 'requirements/catalogue.yaml', 'harness/http/ledger.ts', 'config/settings-table.ts', 'docs/certify.md']) {
      expect(files, needed).toContain(needed);
    }
    expect(files.some((file) => file.startsWith('tests/') && file.endsWith('.spec.ts'))).toBe(true);
    expect(files.filter((file) => file.startsWith('selftest/') || file.startsWith('.ci/') || file.startsWith('node_modules/'))).toEqual([]);

    const run = await runCli(['--grep', '@ORD-CREATE-002', '--out', 'report'], { cwd: installed.app, bin: installed.bin });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(readReport(join(installed.app, 'report')).verdict).toBe('conformant');
  });

  test('the replay line a failure prints, run as printed in the vendor\'s folder, fails the same requirement again', async () => {
    const target = await behaviourTarget({ OMS_FAULT: 'list-mid-pages-slip' });
    try {
      // Account A's credentials as options, the secret in a file; account B's id in the environment, its secret typed on the command line.
      const { OMS_CLIENT_ID: clientId, OMS_CLIENT_SECRET: clientSecret, OMS_CLIENT_SECRET_B: clientSecretB, ...env } = target.env;
      const secretFile = join(installed.work, 'client-secret.txt');
      writeFileSync(secretFile, `${clientSecret}\n`);
      const credentials = ['--client-id', clientId, '--client-secret-file', secretFile, '--client-secret-b', clientSecretB];
      const guard = '--client-secret-b "${OMS_CLIENT_SECRET_B:?set OMS_CLIENT_SECRET_B to the value you gave as --client-secret-b}"';
      const run = await runCli([...target.args, ...credentials, '--seed', '20261121', '--grep', '@ORD-LIST-006', '--out', 'report'], { cwd: installed.app, bin: installed.bin, env });
      expect(run.exitCode, run.stdout + run.stderr).toBe(1);
      const hints = [...run.stdout.matchAll(/^ +Replay: +(.+)$/gm)].map((match) => match[1]);
      expect(hints.length, run.stdout).toBeGreaterThan(0);
      const [hint] = hints;
      expect(run.stdout).toContain(`Run the failed requirements again: npx oms-conformance replay 'report/report.json' --base-url '${target.server.url}' --client-id '${clientId}' --client-secret-file '${secretFile}' ${guard}`);
      expect(hint.replace(guard, 'GUARD')).toMatch(/^npx oms-conformance --base-url '[^']+' --client-id '[^']+' --client-secret-file '[^']+' GUARD --seed 20261121 --path '[\d:@]+' --test tests\/\S+\.spec\.ts:\d+ --out replay-report$/);
      expect(run.stdout + run.stderr).not.toContain(clientSecret);
      expect(run.stdout + run.stderr).not.toContain(clientSecretB);
      // Every output carries the same command: the report's replay field, its HTML and Markdown renderings.
      const failed = readReport(join(installed.app, 'report')).requirements.find((r) => r.id === 'ORD-LIST-006');
      expect(failed?.status).toBe('failed');
      expect(failed?.findings.map((f) => (f as { replay?: { command: string } }).replay?.command)).toContain(hint);

      // As a vendor runs it: bash, in the folder, the credentials in the environment as they were, and the secret typed before as the hint asks for it.
      const again = await exec('bash', ['-c', hint], { cwd: installed.app, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, OMS_CLIENT_SECRET_B: clientSecretB }, timeout: 300_000 }).then(
        () => ({ code: 0, output: '' }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code, output: `${error.stdout}${error.stderr}` }),
      );
      expect(again.code, again.output).toBe(1);
      expect(again.output).not.toContain('No tests found');
      const replayed = readReport(join(installed.app, 'replay-report'));
      expect(replayed.requirements.find((r) => r.id === 'ORD-LIST-006')?.status, again.output).toBe('failed');
    } finally {
      await target.server.close();
    }
  });

  test("the installed package's report of a failing run renders in the browser: the verdict in one line, the failure, the field at fault marked", async () => {
    test.skip(!existsSync(CHROMIUM.executablePath as string), `no browser at ${CHROMIUM.executablePath}`);
    const target = await behaviourTarget({ OMS_FAULT: 'format-customer-email-as-string' });
    try {
      const run = await runCli([...target.args, '--grep', '@ORD-FORM-001', '--out', 'email-report'], { cwd: installed.app, bin: installed.bin, env: target.env });
      expect(run.exitCode, run.stdout + run.stderr).toBe(1);
      const browser = await chromium.launch(CHROMIUM);
      try {
        const page = await browser.newPage();
        await page.goto(pathToFileURL(join(installed.app, 'email-report', 'index.html')).href);
        await expect(page.locator('h1')).toHaveText(/^OMS conformance \(core\): NOT CONFORMANT · \d+ of \d+ gating requirements passed · incomplete, not a certification$/);
        const failure = page.locator('details.failure[data-id="ORD-FORM-001"]');
        await expect(failure).toBeVisible();
        const mark = failure.locator('mark.at-fault').first();
        await mark.scrollIntoViewIfNeeded();
        await expect(mark).toBeInViewport();
        await expect(mark).toContainText('"email": "');
        await expect(failure.locator('pre.at-fault').first()).toHaveText('/customer/email');
      } finally {
        await browser.close();
      }
    } finally {
      await target.server.close();
    }
  });

  test('the installed proxy finds a fault in the traffic of a client that is not the suite', async () => {
    const server = await startServer(behavioursFromEnvironment({ OMS_FAULT: 'create-sorts-items-by-name' }));
    try {
      const proxy = startProxy(server, ['--requests', '3'], installed.bin);
      expect(await clientCalls(await proxy.address)).toEqual([200, 201, 200]);
      const run = await proxy.done;
      expect(run.exitCode, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toMatch(/^FAIL ORD-CREATE-004 /m);
    } finally {
      await server.close();
    }
  });

  test('`npx oms-conformance proxy` stopped with SIGTERM to npm, as a script or a CI timeout stops it: the report written, nothing left listening or running', async () => {
    const server = await startServer([]);
    let proxy: StartedProxy | undefined;
    try {
      // npm runs the bin through `sh -c` and forwards SIGTERM to that shell only: the proxy must see its launcher go.
      proxy = startProxy(server, [], installed.bin, { command: 'npx', args: ['--no-install', 'oms-conformance'], cwd: installed.app });
      const [address, pid] = await Promise.all([proxy.address, proxy.pid]);
      expect(await clientCalls(address)).toEqual([200, 201, 200]);
      proxy.signal('SIGTERM');
      expect(await endsWithin(pid, 15_000), `the proxy (process ${pid}) still runs after npm was stopped`).toBe(true);
      const run = await proxy.done;
      expect(run.stdout).toContain('NO VIOLATION SEEN');
      expect(await isListening(address)).toBe(false);
      const report = JSON.parse(readFileSync(join(proxy.out, 'traffic-report.json'), 'utf8')) as { entries: number };
      expect(report.entries).toBe(3);
    } finally {
      // A proxy this test failed to see end is ended here, by its id.
      if (proxy) stopIfRunning(await proxy.pid.catch(() => 0));
      await server.close();
    }
  });
});

test('npm pack ships the product apart from its proof: no fault, variant, knob or hostile module, and no code that reads their variables', async () => {
  const { stdout } = await exec('npm', ['pack', '--dry-run', '--json', '--silent'], { cwd: PROJECT_ROOT });
  const files = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0].files.map((file) => file.path);
  expect(files).toContain('reference/server.ts');
  const proof = files.filter((file) => /^selftest\/|(^|\/)(faults|variants|hostile)\/|knobs|behaviours/.test(file));
  expect(proof, 'modules of the self-proof in the published package (package.json "files")').toEqual([]);
  const code = files.filter((file) => /\.(ts|js)$/.test(file));
  const readers = code.filter((file) => /OMS_(FAULT|VARIANT|HOSTILE|KNOBS)\b/.test(readFileSync(join(PROJECT_ROOT, file), 'utf8')));
  expect(readers, 'shipped code that names a behaviour variable of the self-proof').toEqual([]);
});
