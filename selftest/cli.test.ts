import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { Ledger, ledgerFile, readLedger } from '../harness/http/ledger';
import type { Behaviour } from '../reference/app';
import type { ApiRequest } from '../reference/http';
import { OPTIONS } from '../cli/options';
import { DEV_TOKEN_A, PROJECT_ROOT, readReport, requestLog, runCli, startServer, temporaryDirectory } from './support/cli';

test.describe('the oms-conformance command line', () => {
  test('--version prints the suite version; --help lists every option and the exit codes', async () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
    expect(pkg.bin['oms-conformance']).toBe('cli/oms-conformance.js');
    const version = await runCli(['--version']);
    expect([version.exitCode, version.stdout]).toEqual([0, `oms-conformance ${pkg.version}\n`]);
    const help = await runCli(['--help']);
    expect(help.exitCode).toBe(0);
    for (const option of OPTIONS.filter((o) => o.commands.includes('run'))) expect(help.stdout).toContain(`--${option.name}`);
    expect(help.stdout).toMatch(/Exit codes \(config\/exit-codes\.ts\):\n {4}0 {2}conformant.*\n {4}1 {2}not conformant.*\n {4}2 {2}configuration error, or not this interface.*\n {4}3 {2}inconclusive.*\n {4}4 {2}proxy only: none of the requests.*\n {2}130 {2}interrupted/);
  });

  const mistakes: Array<[string[], string]> = [
    [['--bogus'], 'unknown option --bogus for run'],
    [['--all-runs'], 'unknown option --all-runs for run (it belongs to: cleanup)'],
    [['--profile', 'gold'], '--profile (OMS_PROFILE) must be one of core, strict, got "gold"'],
    [['--effort=lots'], '--effort (OMS_EFFORT) must be one of quick, thorough, got "lots"'],
    [['--seed', 'abc'], '--seed (OMS_SEED) must be an integer, or random, got "abc"'],
    [['--base-url', 'ftp://example.com'], '--base-url (OMS_BASE_URL) must start with http:// or https://'],
    [['--workers', '0'], '--workers (OMS_WORKERS) must be a positive integer, got "0"'],
    [['--request-timeout', '0'], '--request-timeout (OMS_REQUEST_TIMEOUT_MS) must be a whole number of milliseconds from 1000 to 600000, got "0"'],
    [['--request-timeout=-1'], '--request-timeout (OMS_REQUEST_TIMEOUT_MS) must be a whole number of milliseconds from 1000 to 600000, got "-1"'],
    [['--request-timeout', '100'], '--request-timeout (OMS_REQUEST_TIMEOUT_MS) must be a whole number of milliseconds from 1000 to 600000, got "100"'],
    [['--max-response-bytes', '0'], '--max-response-bytes (OMS_MAX_RESPONSE_BYTES) must be a whole number of bytes from 1048576 to 1073741824, got "0"'],
    [['--max-rps=-1'], '--max-rps (OMS_MAX_RPS) must be a whole number of requests per second from 1 to 100000, got "-1"'],
    [['verify', 'report.json', '--pub', 'k.pub', '--integrity-only'], 'give --pub KEY.pub (integrity and origin) or --integrity-only, not both'],
    [['--shard', '3/2', '--seed', '1'], '--shard must be I/N with 1 <= I <= N, got "3/2"'],
    [['--shard', '1/2', '--explore'], '--shard needs --seed when exploring'],
    [['--grep', '(unclosed'], '--grep is not a regular expression'],
    [['--out'], '--out needs a value (DIR)'],
    [['--read-only=yes'], '--read-only takes no value'],
    [['--token', 'a', '--token-file', 'b'], 'give --token or --token-file, not both'],
    [['--token-file', '/nonexistent/token'], '--token-file /nonexistent/token: cannot read it (ENOENT)'],
    [['--expect', '/nonexistent/known.yaml'], 'cannot read the expectations file /nonexistent/known.yaml: ENOENT'],
    [['--client-id', 'only-the-id'], '--client-id (OMS_CLIENT_ID) and --client-secret go together'],
    [['--profile', 'core', 'report.json'], 'unexpected argument "report.json"'],
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['merge'], 'merge needs the --out directories of the shards'],
    [['cleanup'], 'cleanup needs exactly one of --run-id ID and --all-runs'],
    [['verify'], 'verify needs one report'],
  ];
  for (const [args, message] of mistakes) {
    test(`oms-conformance ${args.join(' ')}: one line, exit 2`, async () => {
      const run = await runCli(args);
      expect(run.exitCode, run.stdout + run.stderr).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    });
  }

  test('an unreachable server is a preflight error: one message, exit 2, no report', async () => {
    const work = temporaryDirectory();
    const run = await runCli(['--base-url', 'http://127.0.0.1:9', '--out', 'report'], { cwd: work, env: { OMS_TOKEN: 'some-token' } });
    expect(run.exitCode, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toContain('--base-url http://127.0.0.1:9 cannot be reached');
    expect(existsSync(join(work, 'report', 'report.json'))).toBe(false);
  });

  test('a message names a setting as it was given: --token as --token, OMS_TOKEN as OMS_TOKEN', async () => {
    const server = await startServer([]);
    try {
      const asOption = await runCli(['--base-url', server.url, '--token', 'wrong-token-1', '--out', 'report']);
      expect(asOption.exitCode, asOption.stdout + asOption.stderr).toBe(2);
      expect(asOption.stderr).toContain('Give a valid access token with --token (or --token-file) of account A, or --client-id and --client-secret.');
      expect(asOption.stderr).not.toContain('OMS_TOKEN');
      const asVariable = await runCli(['--base-url', server.url, '--out', 'report'], { env: { OMS_TOKEN: 'wrong-token-1' } });
      expect(asVariable.exitCode, asVariable.stdout + asVariable.stderr).toBe(2);
      expect(asVariable.stderr).toContain('Give a valid access token with OMS_TOKEN of account A');
    } finally {
      await server.close();
    }
  });

  test('--read-only sends only GET requests and reports what needs writes as skipped, with the reason', async () => {
    const log = requestLog();
    const server = await startServer([log]);
    try {
      const work = temporaryDirectory();
      const run = await runCli(['--read-only', '--base-url', server.url, '--grep', '@ORD-CREATE-00[12]|@ORD-GET-001|@ORD-LIST-00[12]', '--out', 'report'], {
        cwd: work,
        env: { OMS_TOKEN: DEV_TOKEN_A },
      });
      expect(run.exitCode, run.stdout + run.stderr).toBe(0);
      const report = readReport(join(work, 'report'));
      expect(report.readOnly).toBe(true);
      for (const id of ['ORD-CREATE-001', 'ORD-CREATE-002', 'ORD-GET-001']) {
        const r = report.requirements.find((x) => x.id === id)!;
        expect([r.id, r.status, r.skipReasons.join(' | ')]).toEqual([id, 'skipped', expect.stringMatching(/^read-only mode \(--read-only\): this check needs to /)]);
      }
      expect(log.requests.length).toBeGreaterThan(0);
      expect(log.requests.filter((request) => !request.startsWith('GET '))).toEqual([]);
      expect(readFileSync(join(work, 'report', 'report.md'), 'utf8')).toContain('· **read-only**');
    } finally {
      await server.close();
    }
  });
});

/** Deletes fail while failing is true: what a crashed or broken run leaves behind. */
function brokenDeletes(): Behaviour & { failing: boolean } {
  const behaviour = {
    name: 'selftest-deletes-fail',
    failing: true,
    intercept(request: ApiRequest) {
      return behaviour.failing && request.method === 'DELETE' ? { status: 500, body: { success: false, meta: { status: 500, code: 'broken', message: 'deletes are broken' } } } : undefined;
    },
  };
  return behaviour;
}

test('the ledger records every order a run creates; cleanup deletes exactly those, and only those', async () => {
  const deletes = brokenDeletes();
  const server = await startServer([deletes]);
  const work = temporaryDirectory();
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${DEV_TOKEN_A}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const exists = async (id: string) => (await call('GET', `/orders/${encodeURIComponent(id)}`)).status === 200;
  const order = { customer: { name: 'Not created by the suite' }, items: [{ name: 'Mug', quantity: 1, price: 3 }], currency: 'EUR', price: 3 };
  try {
    const run = await runCli(['--base-url', server.url, '--grep', '@ORD-CREATE-002', '--grep-invert', 'generated', '--out', 'report', '--run-id', 'crashed-run'], {
      cwd: work,
      env: { OMS_TOKEN: DEV_TOKEN_A },
    });
    expect(run.exitCode, run.stdout + run.stderr).not.toBe(2);
    expect(run.stdout).toContain('delete them with: npm run -s oms-conformance -- cleanup --run-id crashed-run');

    const ledger = readLedger(ledgerFile(join(work, '.oms-ledger'), 'crashed-run'));
    const entries = ledger.filter((entry) => entry.event === 'created');
    expect(entries.length).toBeGreaterThan(0);
    // Each create is in the ledger before it is sent (with the marker of an example body), and its outcome after.
    expect(ledger.filter((entry) => entry.event === 'creating').length).toBe(ledger.filter((entry) => entry.event === 'created' || entry.event === 'answered').length);
    for (const entry of entries) {
      const marker = entry.marker === undefined ? {} : { marker: expect.stringMatching(/oms-conformance-[0-9a-f]{8}$/) };
      expect(entry).toEqual({ event: 'created', runId: 'crashed-run', orderId: expect.any(String), account: 'A', at: expect.any(String), baseUrl: server.url, ...marker });
      expect(Number.isNaN(Date.parse(entry.at))).toBe(false);
      expect(await exists(entry.orderId)).toBe(true);
    }
    const unrelated = ((await (await call('POST', '/orders', order)).json()) as { id: string }).id;
    const otherRun = ((await (await call('POST', '/orders', order)).json()) as { id: string }).id;
    new Ledger(ledgerFile(join(work, '.oms-ledger'), 'other-run'), 'other-run', server.url).created(otherRun, 'A');
    deletes.failing = false;

    const cleanup = await runCli(['cleanup', '--run-id', 'crashed-run', '--base-url', server.url], { cwd: work, env: { OMS_TOKEN: DEV_TOKEN_A } });
    expect(cleanup.exitCode, cleanup.stdout + cleanup.stderr).toBe(0);
    expect(cleanup.stdout).toContain(`${entries.length} of ${entries.length} order(s) gone`);
    for (const entry of entries) expect(await exists(entry.orderId), entry.orderId).toBe(false);
    expect([await exists(unrelated), await exists(otherRun)]).toEqual([true, true]);
    expect(cleanup.stdout + cleanup.stderr).not.toContain(DEV_TOKEN_A);

    const again = await runCli(['cleanup', '--run-id', 'crashed-run'], { cwd: work, env: { OMS_TOKEN: DEV_TOKEN_A } });
    expect([again.exitCode, again.stdout]).toEqual([0, expect.stringContaining('nothing to delete for run crashed-run (all its orders are deleted)')]);

    const all = await runCli(['cleanup', '--all-runs', '--base-url', server.url], { cwd: work, env: { OMS_TOKEN: DEV_TOKEN_A } });
    expect(all.exitCode, all.stdout + all.stderr).toBe(0);
    expect(all.stdout).toContain('1 of 1 order(s) gone');
    expect([await exists(unrelated), await exists(otherRun)]).toEqual([true, false]);
  } finally {
    await server.close();
  }
});

test('an expectations file naming an unknown requirement is refused before the run', async () => {
  const work = temporaryDirectory();
  writeFileSync(join(work, 'known.yaml'), 'ORD-NOPE-001: no such requirement\n');
  const run = await runCli(['--expect', 'known.yaml'], { cwd: work });
  expect(run.exitCode).toBe(2);
  expect(run.stderr.trim()).toMatch(/^oms-conformance: the expectations file \S*known\.yaml names ORD-NOPE-001, which is not in the requirement catalogue$/);
});

test('the example CI workflow starts a server, runs the tool in shards, merges and uploads the report', () => {
  const workflow = parse(readFileSync(join(PROJECT_ROOT, '.github', 'workflows', 'conformance.yml'), 'utf8')) as {
    jobs: Record<string, { steps: Array<{ name?: string; run?: string; uses?: string; with?: Record<string, string> }> }>;
  };
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const runs = steps.map((step) => step.run ?? '').join('\n');
  expect(runs).toContain('npm run reference');
  expect(runs).toMatch(/npx oms-conformance --shard \$\{\{ matrix.shard \}\}\/2 --seed/);
  expect(runs).toContain('npx oms-conformance merge shard-1 shard-2 --out conformance-report');
  expect(runs).toContain('npx oms-conformance cleanup --run-id');
  expect(steps.some((step) => step.uses?.startsWith('actions/upload-artifact') && step.with?.path === 'conformance-report')).toBe(true);
  expect(runs).not.toMatch(/--token[ =]/);
});
