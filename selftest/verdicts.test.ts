import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from '@playwright/test';
import { EXIT_CODE } from '../config/exit-codes';
import type { Cut } from '../harness/record/cuts';
import { onlyConformanceReporter } from '../harness/fixtures';
import { inFlight, ledgerFile, leftovers, readLedger } from '../harness/http/ledger';
import type { Skip } from '../harness/record/skips';
import type { Behaviour } from '../reference/app';
import { behavioursFromEnvironment } from './reference/behaviours';
import type { ApiReply, ApiRequest } from '../reference/http';
import { Expectations } from '../reporter/expectations';
import { summaryLines } from '../reporter/terminal';
import { buildReport, type Collected, type ConformanceReport, type RequirementResult } from '../reporter/report';
import type { RunInfo } from '../config/run-info';
import { catalogue, gatingLevels } from '../requirements/catalogue';
import { DEV_TOKEN_A, PROJECT_ROOT, readReport, runCli, schemaProblems, spawnCli, startServer, temporaryDirectory } from './support/cli';
import { runSuite, type SuiteRun } from './support/run-suite';

// Issue 22: every outcome of a run says only what the run established, with its own exit code:
// conformant (complete, or incomplete with the settings that would complete it), not conformant,
// inconclusive because of the server, interrupted, not this interface (exit 2).

const RUN: RunInfo = { runId: 'r', target: { baseUrl: null, embedded: true }, profile: 'core', effort: 'quick', seed: 1, seedFrom: 'given', readOnly: false, grep: null, shard: null, mergedShards: null };
const SUITE = { name: 'oms-conformance', version: '0', openapiSha256: '0'.repeat(64), catalogueSha256: '0'.repeat(64), codeSha256: '0'.repeat(64) };

/** Every requirement of the catalogue judged as a conformant server's run judges it, then `change` applied. */
function collected(change: (results: Map<string, RequirementResult>, run: Collected) => void = () => undefined): Collected {
  const results = new Map<string, RequirementResult>();
  for (const r of catalogue().values()) {
    const status = r.not_tested ? 'not-testable' : r.level === 'OBSERVED' ? 'observed' : 'passed';
    results.set(r.id, { id: r.id, section: r.section, level: r.level, statement: r.statement, status, tests: ['t'], skipReasons: [], skips: [], observed: [], evidence: [], findings: [], occurrences: 0, checkedOn: [], gating: false });
  }
  const run: Collected = {
    tests: { passed: 1, failed: 0, skipped: 0, interrupted: 0 },
    requirements: [],
    unattributedFailures: [],
    rateLimitRetries: 0,
    interrupted: false,
    cuts: [],
    generated: [],
    requests: 0,
    startedAt: new Date(0),
    finishedAt: new Date(1000),
  };
  change(results, run);
  run.requirements = [...results.values()];
  return run;
}

function skipped(results: Map<string, RequirementResult>, id: string, skip: Skip): void {
  Object.assign(results.get(id) as RequirementResult, { status: 'skipped', skipReasons: [skip.reason], skips: [skip] });
}

function failed(results: Map<string, RequirementResult>, id: string): void {
  Object.assign(results.get(id) as RequirementResult, { status: 'failed', occurrences: 1 });
}

const CUT: Cut = { unit: 'generated runs', made: 2, planned: 8, requests: 1500, cause: 'budget', reason: 'budget of 1500 requests reached', belowFloor: true };

test.describe('one verdict model, each outcome with its exit code', () => {
  const cases: Array<{ name: string; change?: Parameters<typeof collected>[0]; expect: [ConformanceReport['verdict'], number, boolean]; line: RegExp; expectations?: Expectations }> = [
    { name: 'every gating requirement passed: conformant, complete', expect: ['conformant', 0, true], line: /^OMS conformance \(core\): CONFORMANT · \d+ of \d+ gating requirements passed · complete$/ },
    {
      name: 'no client credentials for POST /token: conformant but incomplete because of configuration, naming the settings',
      change: (r) => skipped(r, 'ORD-AUTH-005', { kind: 'configuration', reason: 'OMS_CLIENT_ID is not set', settings: ['OMS_CLIENT_ID and OMS_CLIENT_SECRET'] }),
      expect: ['conformant', 0, false],
      line: /^OMS conformance \(core\): CONFORMANT · \d+ of \d+ gating requirements passed · incomplete, not a certification\n {2}configuration: 1 gating requirement\(s\) skipped because of the configuration: ORD-AUTH-005 .*set OMS_CLIENT_ID and OMS_CLIENT_SECRET to complete it$/,
    },
    {
      name: 'a generated test cut below its floor by the budget: incomplete because of configuration, naming OMS_EFFORT',
      change: (_r, run) => run.cuts.push({ ...CUT, test: 'paging', requirements: ['ORD-LIST-006'] }),
      expect: ['conformant', 0, false],
      line: /^OMS conformance \(core\): CONFORMANT · [^\n]* · incomplete, not a certification\n {2}configuration: paging was cut short at 2 of 8 generated runs .*ORD-LIST-006 not checked by it; OMS_EFFORT=thorough would complete it/,
    },
    { name: 'a MUST failed: not conformant', change: (r) => failed(r, 'ORD-LIST-006'), expect: ['not-conformant', 1, true], line: /NOT CONFORMANT · \d+ of \d+ gating requirements passed · complete$/ },
    {
      name: 'the account never held still (stableView): inconclusive because of the server',
      change: (r) => skipped(r, 'ORD-LIST-003', { kind: 'server', reason: 'the account changed during every attempt to read it' }),
      expect: ['inconclusive', 3, false],
      line: /INCONCLUSIVE · [^\n]* · incomplete, not a certification\n {2}server: 1 gating requirement\(s\) left without evidence by the server: ORD-LIST-003 \(the account changed/,
    },
    {
      name: 'a MUST blocked by a SHOULD that failed (not gating in core): inconclusive, naming what blocked it',
      change: (r) => {
        failed(r, 'ORD-AUTH-006');
        skipped(r, 'ORD-GET-001', { kind: 'blocked', blockedBy: 'ORD-AUTH-006', reason: 'blocked by ORD-AUTH-006' });
      },
      expect: ['inconclusive', 3, false],
      line: /INCONCLUSIVE · [^\n]*\n {2}[^:\n]+: 1 gating requirement\(s\) blocked: .*ORD-GET-001 \(the tests that check them stopped at the failure of ORD-AUTH-006\)/,
    },
    {
      name: 'a generated test cut below its floor by the server: inconclusive',
      change: (_r, run) => run.cuts.push({ ...CUT, cause: 'server', reason: 'the server stopped answering', test: 'paging', requirements: ['ORD-LIST-006'] }),
      expect: ['inconclusive', 3, false],
      line: /INCONCLUSIVE/,
    },
    { name: 'the run stopped at a silent server: inconclusive', change: (_r, run) => (run.stopReasons = ['run stopped: the server stopped answering']), expect: ['inconclusive', 3, false], line: /INCONCLUSIVE · [^\n]*\n {2}[^:\n]+: run stopped/ },
    { name: 'Ctrl-C with nothing failed: interrupted, exit 130', change: (_r, run) => (run.interrupted = true), expect: ['interrupted', 130, false], line: /INTERRUPTED · [^\n]*\n {2}[^:\n]+: the run was interrupted/ },
    {
      name: 'Ctrl-C after a MUST failed in a finished test: not conformant, the violation stands',
      change: (r, run) => {
        run.interrupted = true;
        failed(r, 'ORD-LIST-006');
      },
      expect: ['not-conformant', 1, false],
      line: /NOT CONFORMANT/,
    },
    {
      name: 'a SHOULD the expectations file knows blocks a MUST: inconclusive, yet exit 0 (the gate excuses what a known failure blocks)',
      change: (r) => {
        failed(r, 'ORD-AUTH-006');
        skipped(r, 'ORD-GET-001', { kind: 'blocked', blockedBy: 'ORD-AUTH-006', reason: 'blocked by ORD-AUTH-006' });
      },
      expectations: new Expectations([['ORD-AUTH-006', 'known (ticket 2)']]),
      expect: ['inconclusive', 0, false],
      line: /INCONCLUSIVE · [^\n]*\n {2}known failures: ORD-AUTH-006, listed in known.yaml\n/,
    },
    {
      name: 'a MUST failed that the expectations file knows: not conformant, yet exit 0',
      change: (r) => failed(r, 'ORD-LIST-006'),
      expectations: new Expectations([['ORD-LIST-006', 'known (ticket 1)']]),
      expect: ['not-conformant', 0, true],
      line: /NOT CONFORMANT · \d+ of \d+ gating requirements passed · complete\n {2}known failures: ORD-LIST-006, listed in known.yaml$/,
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const report = buildReport(collected(c.change), SUITE, RUN, c.expectations && { file: 'known.yaml', known: c.expectations });
      expect([report.verdict, report.exitCode, report.complete]).toEqual(c.expect);
      expect(report.gate.passed).toBe(report.exitCode === 0);
      // The terminal's verdict: its one headline line and the reasons below it, each once.
      const lines = summaryLines(report);
      const verdict = lines.slice(lines.findIndex((line) => line.startsWith('OMS conformance ('))).join('\n');
      expect(verdict).toMatch(c.line);
      expect(lines.filter((line) => line.startsWith('OMS conformance ('))).toHaveLength(1);
      // Never the wording: a reason that reads like another cause changes nothing.
      if (report.verdict === 'conformant') expect(report.gaps.every((gap) => gap.cause !== 'server')).toBe(true);
    });
  }

  test('a skip reason worded like the server\'s weighs by its kind, not its text', () => {
    const report = buildReport(
      collected((r) => skipped(r, 'ORD-AUTH-005', { kind: 'configuration', reason: 'inconclusive: the server stopped answering', settings: ['OMS_CLIENT_ID'] })),
      SUITE,
      RUN,
      undefined,
    );
    expect([report.verdict, report.exitCode]).toEqual(['conformant', 0]);
  });

  test('exit codes live in config/exit-codes.ts, one per outcome', () => {
    expect(EXIT_CODE).toEqual({ conformant: 0, violations: 1, configuration: 2, inconclusive: 3, serviceUnreachable: 4, interrupted: 130 });
    expect(gatingLevels('core')).toEqual(['MUST']);
  });
});

/** Holds the `count`-th order request (POST /token aside) for `holdMs`; `reached` resolves when it arrives. */
function holdRequest(count: number, holdMs: number, which: (request: ApiRequest) => boolean = () => true): { behaviour: Behaviour; reached: Promise<void> } {
  let seen = 0;
  let reach: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return {
    reached,
    behaviour: {
      name: 'selftest-hold-request',
      intercept: async (request) => {
        if (request.path === '/token' || !which(request) || ++seen !== count) return undefined;
        reach();
        await sleep(holdMs);
        return undefined;
      },
    },
  };
}

test('1. Ctrl-C mid-run: INTERRUPTED with exit 130, no requirement failed, and the run still deletes what it created', async () => {
  const hold = holdRequest(8, 4000);
  const server = await startServer([hold.behaviour]);
  const work = temporaryDirectory('oms-interrupt-');
  try {
    const run = spawnCli(['--base-url', server.url, '--grep', '@ORD-AUTH-001', '--out', 'report', '--run-id', 'interrupted-run'], {
      cwd: work,
      // A round trip as across a network: creates are made ahead (harness/order-pool.ts), so some are in flight, or waiting to be sent, at the interruption.
      env: { OMS_TOKEN: DEV_TOKEN_A, OMS_ROUND_TRIP_MS: '50' },
    });
    await hold.reached;
    run.signal('SIGINT');
    const { exitCode, stdout, stderr } = await run.done;
    const output = stdout + stderr;
    expect(exitCode, output.slice(-3000)).toBe(EXIT_CODE.interrupted);
    const report = readReport(join(work, 'report'));
    expect(schemaProblems(report)).toEqual([]);
    expect([report.verdict, report.exitCode, report.interrupted, report.complete]).toEqual(['interrupted', 130, true, false]);
    expect(report.requirements.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual([]);
    expect(report.unattributedFailures).toEqual([]);
    expect(report.tests.interrupted).toBeGreaterThan(0);
    expect(output).toMatch(/^OMS conformance \(core\): INTERRUPTED/m);
    expect(output).not.toMatch(/FAIL ORD-|test interrupted/);
    // Cleanup ran: the worker's teardown waited for creates in flight and deleted every order the run made.
    const ledger = readLedger(ledgerFile(join(work, '.oms-ledger'), 'interrupted-run'));
    expect(ledger.some((entry) => entry.event === 'created')).toBe(true);
    expect([leftovers(ledger), inFlight(ledger)]).toEqual([[], []]);
  } finally {
    await server.close();
  }
});

test('2. a JSON service that is not this interface stops at the preflight: exit 2, one message, no test and no order request', async () => {
  const seen: string[] = [];
  const server = await startServer([
    // The requests of the run, the round-trip probe's (sent without credentials, harness/http/round-trip.ts) aside.
    { name: 'selftest-log', rewriteRequest: (request) => (request.headers.authorization && seen.push(`${request.method} ${request.path}`), request) },
    // What the issue met: a service answering 200 {"status":"ok"} on every path (selftest/reference/hostile not-this-interface).
    { name: 'selftest-health-endpoint', intercept: (request) => (request.path === '/token' ? undefined : { status: 200, body: { status: 'ok' } }) },
  ]);
  try {
    const run = await runSuite({ OMS_BASE_URL: server.url, OMS_TOKEN: DEV_TOKEN_A });
    expect(run.exitCode, run.output).toBe(EXIT_CODE.configuration);
    const lines = run.output.split('\n').filter((line) => line.startsWith('oms-conformance:'));
    expect(lines).toEqual([expect.stringContaining('does not look like the Order Management Service: GET /orders?limit=1 answered 200 with JSON that has none of the list\'s fields')]);
    expect(run.report).toBeUndefined();
    expect(seen).toEqual(['GET /orders']);
  } finally {
    await server.close();
  }
});

test('2. a create that answers no id: what depends on it is blocked by ORD-CREATE-003, never passed, and no request carries a missing id', async () => {
  const seen: string[] = [];
  // The requests of the run, the round-trip probe's (sent without credentials, harness/http/round-trip.ts) aside.
  const log: Behaviour = { name: 'selftest-log', rewriteRequest: (request) => (request.headers.authorization && seen.push(`${request.method} ${request.path}`), request) };
  const server = await startServer([log, ...behavioursFromEnvironment({ OMS_FAULT: 'generated-order-id-dropped' })]);
  let run: SuiteRun;
  try {
    run = await runSuite({ OMS_BASE_URL: server.url, OMS_TOKEN: DEV_TOKEN_A }, ['--grep', 'creates, gets, lists, updates and deletes an order']);
  } finally {
    await server.close();
  }
  expect(run.exitCode, run.output.slice(-3000)).toBe(EXIT_CODE.violations);
  const report = run.report as ConformanceReport;
  const byId = (id: string) => report.requirements.find((r) => r.id === id) as RequirementResult;
  expect(byId('ORD-CREATE-003').status).toBe('failed');
  for (const id of ['ORD-GET-001', 'ORD-UPDATE-001', 'ORD-DELETE-001', 'ORD-LIST-001']) {
    expect([id, byId(id).status, byId(id).skips]).toEqual([id, 'skipped', [{ kind: 'blocked', blockedBy: 'ORD-CREATE-003', reason: expect.stringContaining('blocked by ORD-CREATE-003') }]]);
  }
  expect(report.gaps.find((gap) => gap.cause === 'blocked')?.what).toContain('stopped at the failure of ORD-CREATE-003');
  expect(run.output).not.toContain('/orders/undefined');
  // The preflight, the lifecycle's create, and nothing sent to an order it has no id of.
  expect(seen).toEqual(['GET /orders', 'POST /orders']);
});

test.describe('3. cuts are listed in every output and weigh in the verdict', () => {
  const fixture = join(PROJECT_ROOT, 'selftest', 'fixtures', 'cuts', 'playwright.config.ts');

  for (const [cause, verdict, exitCode] of [
    ['budget', 'conformant', 0],
    ['server', 'inconclusive', 3],
  ] as const) {
    test(`a cut below the floor (cause ${cause}): ${verdict}, exit ${exitCode}, listed in report.json, report.md, index.html and the terminal`, async () => {
      const cut: Cut = { ...CUT, cause, reason: cause === 'budget' ? CUT.reason : 'rate limits outlasted the retries' };
      const run = await runSuite({ SELFTEST_CUT: JSON.stringify(cut) }, ['--config', fixture]);
      const report = run.report as ConformanceReport;
      expect([run.exitCode, report.verdict, report.exitCode], run.output.slice(-3000)).toEqual([exitCode, verdict, exitCode]);
      expect(schemaProblems(report)).toEqual([]);
      expect(report.cuts).toEqual([{ ...cut, test: 'cut.spec.ts › a generated test that judges ORD-LIST-006 and is cut', requirements: ['ORD-LIST-006'] }]);
      // The cut test judged ORD-LIST-006, but too little to pass it; the other test passes what it judged in full.
      expect(report.requirements.find((r) => r.id === 'ORD-LIST-006')).toMatchObject({ status: 'skipped', skips: [{ kind: cause === 'budget' ? 'configuration' : 'server' }] });
      expect(report.requirements.find((r) => r.id === 'ORD-GET-001')?.status).toBe('passed');
      const gap = report.gaps.find((g) => g.requirements.includes('ORD-LIST-006'));
      expect(gap).toMatchObject({ cause: cause === 'budget' ? 'configuration' : 'server', settings: cause === 'budget' ? ['OMS_EFFORT=thorough'] : [] });
      expect(run.output).toContain('Cut short:\n  cut.spec.ts › a generated test that judges ORD-LIST-006 and is cut: 2 of 8 generated runs');
      expect(readFileSync(join(run.reportDir, 'report.md'), 'utf8')).toContain('### Cut short');
      expect(readFileSync(join(run.reportDir, 'index.html'), 'utf8')).toContain(`<section id="cuts"><h2>Cut short</h2><ul><li data-cause="${cause}">`);
    });
  }
});

test('4. a check the account never held still for: INCONCLUSIVE with exit 3, never CONFORMANT', async () => {
  const run = await runSuite({ OMS_HOSTILE: 'restless-account' }, ['--grep', 'answers the first page when no page is given']);
  const report = run.report as ConformanceReport;
  expect([run.exitCode, report.verdict, report.exitCode], run.output.slice(-3000)).toEqual([3, 'inconclusive', 3]);
  expect(report.requirements.find((r) => r.id === 'ORD-LIST-003')).toMatchObject({ status: 'skipped', skips: [{ kind: 'server', reason: expect.stringContaining('the account changed during every attempt') }] });
  expect(run.output).toMatch(/^OMS conformance \(core\): INCONCLUSIVE · [^\n]*\n {2}server: 1 gating requirement\(s\) left without evidence by the server: ORD-LIST-003/m);
});

test.describe('5. a stock reporter shows a failure as a failure', () => {
  test('npx playwright test --reporter=json against a faulty server counts the failing tests as unexpected', async () => {
    const out = temporaryDirectory('oms-json-');
    const file = join(out, 'results.json');
    const run = await runSuite({ OMS_FAULT: 'list-page-three-overlap', PLAYWRIGHT_JSON_OUTPUT_NAME: file }, ['--reporter=json', '--grep', 'numbers pages from 1, without gap or overlap']);
    expect(run.exitCode, run.output.slice(-2000)).toBe(1);
    const results = JSON.parse(readFileSync(file, 'utf8')) as { stats: { expected: number; unexpected: number } };
    expect(results.stats).toMatchObject({ expected: 0, unexpected: 2 });
  });

  test('the worker keeps a test that failed by findings as an expected failure only when no other reporter sees it', () => {
    const conformance = join(PROJECT_ROOT, 'reporter', 'conformance-reporter.ts');
    expect(onlyConformanceReporter({ reporter: [[conformance]] })).toBe(true);
    expect(onlyConformanceReporter({ reporter: [['null'], [conformance]] })).toBe(true);
    for (const stock of ['list', 'dot', 'line', 'json', 'junit', 'html', 'blob', 'github', './my-reporter.ts']) {
      expect(onlyConformanceReporter({ reporter: [[stock], [conformance]] }), stock).toBe(false);
    }
  });
});

/** Holds the answer to the `count`-th create after the order is stored: the client never learns its id. */
function holdCreateAnswer(count: number): { behaviour: Behaviour; held: Promise<string> } {
  let creates = 0;
  let hold: (id: string) => void = () => undefined;
  const held = new Promise<string>((resolve) => (hold = resolve));
  return {
    held,
    behaviour: {
      name: 'selftest-hold-create-answer',
      rewriteReply: async (request: ApiRequest, reply: ApiReply) => {
        if (request.method !== 'POST' || request.path !== '/orders' || reply.status >= 300 || ++creates !== count) return reply;
        hold((reply.body as { id: string }).id);
        await sleep(30_000);
        return reply;
      },
    },
  };
}

test('11. killed while a create was in flight: cleanup --run-id deletes that order too, found by its marker, and nothing else', async () => {
  const hold = holdCreateAnswer(3);
  const server = await startServer([hold.behaviour]);
  const work = temporaryDirectory('oms-killed-');
  const call = async (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, { method, headers: { Authorization: `Bearer ${DEV_TOKEN_A}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  try {
    // Another client's order whose name differs from a marker only in its suffix: it must survive.
    const unrelated = ((await (await call('POST', '/orders', { customer: { name: 'Ada oms-conformance-not-ours' }, items: [{ name: 'Mug', quantity: 1, price: 3 }], currency: 'EUR', price: 3 })).json()) as { id: string }).id;
    // One worker: the held create is then the only one in flight when the run is killed (with two, the other
    // worker's next create may be on its way too, depending on how fast each started).
    const run = spawnCli(['--base-url', server.url, '--grep', '@ORD-CREATE-00[12]', '--grep-invert', 'generated|model-based|coverage', '--out', 'report', '--run-id', 'killed-run', '--workers', '1'], {
      cwd: work,
      // One create in flight at the kill, the held one: one worker, none made ahead (a loaded machine's loopback can measure as a network's round trip).
      env: { OMS_TOKEN: DEV_TOKEN_A, OMS_WORKERS: '1', OMS_ROUND_TRIP_MS: '0' },
    });
    const inFlightId = await hold.held;
    run.signal('SIGKILL');
    await run.done;
    const ledger = readLedger(ledgerFile(join(work, '.oms-ledger'), 'killed-run'));
    const recorded = leftovers(ledger).map((entry) => entry.orderId);
    expect(recorded).not.toContain(inFlightId);
    expect(inFlight(ledger).map((entry) => entry.marker)).toEqual([expect.stringMatching(/oms-conformance-[0-9a-f]{8}$/)]);

    const cleanup = await runCli(['cleanup', '--run-id', 'killed-run', '--base-url', server.url], { cwd: work, env: { OMS_TOKEN: DEV_TOKEN_A } });
    expect(cleanup.exitCode, cleanup.stdout + cleanup.stderr).toBe(0);
    const all = recorded.length + 1;
    expect(cleanup.stdout).toContain(`${all} of ${all} order(s) gone`);
    for (const id of [...recorded, inFlightId]) expect((await call('GET', `/orders/${encodeURIComponent(id)}`)).status, id).toBe(404);
    expect((await call('GET', `/orders/${unrelated}`)).status).toBe(200);
    expect(inFlight(readLedger(ledgerFile(join(work, '.oms-ledger'), 'killed-run')))).toEqual([]);
    expect(existsSync(join(work, 'report', 'report.json'))).toBe(false);
  } finally {
    await server.close();
  }
});
