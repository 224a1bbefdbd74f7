import { _baseTest as base, type FullConfig, type TestInfo } from '@playwright/test';
import { OmsApi } from './requests/api';
import { currentRunId, readSettings, registerSettingsSecrets, settingName, writeSettings, type AccountName, type Settings } from '../config/settings';
import { orderRequestLine } from '../contract/order-path';
import { OmsClient } from './http/client';
import { recordOf } from './record/findings';
import { recordViolated } from './record/run-knowledge';
import { RequestGate } from './http/gate';
import { RunPace } from './http/pace';
import { acrossNetwork, defaultConcurrency } from '../config/network';
import { judgeOutsideTests, noteCleanedUp } from './record/outside-tests';
import { CreatedOrders } from './requests/created-orders';
import { serverWentSilent } from './http/silence';
import { skipTest, type Skip } from './record/skips';
import { quoted, visible } from '../config/safe-text';
import { redact } from '../config/redaction';
import { clientCredentials, fetchToken, TokenSource } from './http/token';
import type { Exchange } from '../contract/exchange';
import { accountApi } from './requests/pipeline';
import { declaringTests, type TestBody } from './schedule/declarations';
import { readPlan } from './schedule/plan';
import { currentScheduler, scheduleWith, Scheduler } from './schedule/scheduler';
import { runInRecord, liveRecord } from './record/current-test';
import { deferredRecord, replayRecord, settledBody } from './record/deferred';

interface Accounts {
  A: OmsApi;
  B?: OmsApi;
  /** The worker's one gate, both accounts' requests through it. */
  gate: RequestGate;
}


/**
 * A server under test that a project starts in each of its workers, instead of the one the settings name: the
 * settings that point the worker at it (its address, credentials, the run id of its own) and how to stop it.
 * The self-proof's matrix gives each project a reference server with other behaviours, all in one Playwright run.
 */
export interface WorkerTarget {
  settings: Partial<Settings>;
  close(): Promise<void>;
}

export interface WorkerOptions {
  /**
   * Starts this worker's server under test; unset, the settings' (OMS_BASE_URL, or the embedded server the global
   * setup started). An object, not a function: Playwright takes a function given in `use` for a fixture of its own.
   */
  target: { start(): Promise<WorkerTarget> } | undefined;
  /**
   * This worker runs the phase of tests that run alone (config/phases.ts), no other worker of the run beside
   * it: it has the run's whole share of requests in flight and of OMS_MAX_RPS.
   */
  runsAlone: boolean;
  /**
   * The project's tests all run in this one worker (config/phases.ts): it may run their bodies before Playwright
   * reaches them, many at once (harness/schedule/scheduler.ts). Off, each test runs when Playwright reaches it.
   */
  soleWorker: boolean;
}

interface WorkerFixtures extends WorkerOptions {
  /** The settings, read once (global setup has already resolved the base URL and token, or the worker's target gave them). */
  settings: Settings;
  accounts: Accounts;
  /** Runs the worker's test bodies, ahead of Playwright where it knows them (auto). */
  scheduling: void;
}

interface TestFixtures {
  /** Keeps the worker after a test that failed only by findings (see below). */
  keepWorkerAfterFindings: void;
  /** Account A (OMS_TOKEN). */
  api: OmsApi;
  /** Account B (OMS_TOKEN_B); a test asking for it is skipped, with the reason, when it is not set. */
  apiB: OmsApi;
}

/**
 * Built on Playwright's bare test type (`_baseTest`, typed in @playwright/test), not on `test`: `test`
 * brings the browser fixtures, and every test would set up and tear down ~30 of them (context options,
 * trace recording), each a step with a captured, source-mapped stack: 1.4 CPU-s of a worker's 5.6 in a
 * quick run, for fixtures no test here uses.
 */
const playwrightTest = base.extend<TestFixtures, WorkerFixtures>({
  target: [undefined, { scope: 'worker', option: true }],
  runsAlone: [false, { scope: 'worker', option: true }],
  soleWorker: [false, { scope: 'worker', option: true }],

  settings: [
    async ({ target, runsAlone }, use, workerInfo) => {
      const started = await target?.start();
      // In the variables a user would set: the whole worker reads its settings there (a worker serves one project).
      if (started) writeSettings(started.settings);
      const settings = readSettings();
      // Requests in flight, resolved once for the gate and the generated runs: the run's share of this worker; a worker
      // alone in the run has every worker's share.
      const workers = runsAlone ? 1 : Math.max(1, workerInfo.config.workers);
      settings.concurrency = settings.concurrency === undefined ? Math.ceil(defaultConcurrency(settings.roundTripMs) / workers) : settings.concurrency * (runsAlone ? Math.max(1, workerInfo.config.workers) : 1);
      registerSettingsSecrets(settings);
      await use(settings);
      await started?.close();
    },
    { scope: 'worker' },
  ],

  accounts: [
    async ({ settings, runsAlone }, use, workerInfo) => {
      const workers = runsAlone ? 1 : Math.max(1, workerInfo.config.workers);
      // One gate for both accounts: the worker's requests in flight, its share of OMS_MAX_RPS, and the run's 429 pace.
      const pace = new RunPace(currentRunId(), workers);
      const gate = new RequestGate({
        maxInFlight: settings.concurrency as number,
        requestsPerSecond: settings.maxRps ? settings.maxRps / workers : undefined,
        pace,
        retryForMs: RATE_LIMIT_RETRY_TIMEOUTS * settings.requestTimeoutMs,
        rank: () => currentScheduler()?.rank() ?? 0,
        onPause: (ms) => currentScheduler()?.holdRunning(ms),
      });
      const created = new CreatedOrders();
      const baseUrl = settings.baseUrl as string;
      const open = (name: AccountName, token: string | undefined) => {
        const credentials = clientCredentials(settings, name);
        // A token from POST /token: the global setup's first, then this worker's own, renewed before expiry and after a 401.
        // Each answer of a renewal is judged as every answer of the run is, whichever test's request needed it.
        const renewal = (exchange: Exchange) => judgeOutsideTests(`a token renewal of account ${name} (POST /token, by the suite's client)`, exchange);
        const tokens = credentials && new TokenSource(() => fetchToken(baseUrl, credentials, settings.tokenAuth, settings.requestTimeoutMs, renewal), token);
        const client = new OmsClient({
          baseUrl,
          token: token ?? '',
          timeoutMs: settings.requestTimeoutMs,
          maxResponseBytes: settings.maxResponseBytes,
          currentToken: tokens && (() => tokens.current()),
          renewToken: tokens && (async (refused) => (await tokens.renew(refused)).accessToken),
        });
        return { client, api: accountApi(name, { client, gate, created }, { readOnly: settings.readOnly, listSettleMs: settings.listSettleMs }) };
      };
      const A = open('A', settings.token);
      const B = settings.tokenB || settings.clientIdB ? open('B', settings.tokenB) : undefined;
      const accounts: Accounts = { gate, A: A.api, B: B?.api };
      await use(accounts);
      await deleteLeftovers(accounts, created, gate.maxInFlight);
      A.client.close();
      B?.client.close();
      noteCleanedUp();
    },
    { scope: 'worker' },
  ],

  scheduling: [
    async ({ settings, accounts, soleWorker }, use, workerInfo) => {
      // A worker that is not its project's only one cannot know which of the project's tests it will get.
      const plan = soleWorker && workerInfo.project.repeatEach <= 1 ? readPlan(workerInfo.project.name) : undefined;
      const scheduler = new Scheduler(plan ?? [], {
        fixtures: () => fixturesAhead(settings, accounts),
        // On the same machine the CPU is the limit, and tests one at a time keep a faulty server's effects on the
        // account (an order it deletes or mixes up) within the test that met them, as they always were there.
        testsAhead: plan && acrossNetwork(settings.roundTripMs) ? Math.max(MIN_TESTS_AHEAD, 2 * (settings.concurrency as number)) : 1,
      });
      scheduleWith(scheduler);
      await use();
      scheduler.close();
      scheduleWith(undefined);
    },
    { scope: 'worker', auto: true },
  ],

  /**
   * Playwright starts a new worker process after every failed test (its maintainers declined an option
   * to keep it: microsoft/playwright#32803): against a faulty server that was most of a failing run. A
   * test that failed only by findings (each error one attached finding) left the worker sound, so it is
   * marked an expected failure, which keeps the worker. Only the conformance reporter reads such a test as
   * the failure it is (from its findings): any other reporter (list, json, junit, html, blob for merging)
   * would show it as passed. So the mark is made only when the conformance reporter is the run's one
   * observer (a --reporter or --add-reporter given on Playwright's command line reaches the worker's
   * config too); otherwise the test fails as it is, and the run pays for the new workers.
   */
  keepWorkerAfterFindings: [
    async ({}, use, testInfo) => {
      await use();
      const findings = testInfo.attachments.flatMap((attachment) => recordOf(attachment) ?? []);
      // Later generated tests of this run, in any worker, need not shrink a counterexample of these again.
      recordViolated(findings.map((finding) => finding.requirementId));
      if (testInfo.status === 'failed' && findings.length > 0 && testInfo.errors.length <= findings.length && onlyConformanceReporter(testInfo.config)) {
        testInfo.fail(true, `${findings.length} finding(s): requirements violated, see the conformance report`);
      }
    },
    // 'self': no step of its own (see below).
    { auto: true, box: 'self' },
  ],

  // Test fixtures are no steps of their own ('self'): each would be two (setup, teardown), each two messages to the runner, in every test.
  api: [
    async ({ accounts }, use, testInfo) => {
      const silence = serverWentSilent(currentRunId());
      // Called only to skip: testInfo.skip captures a source-mapped stack even when its condition is false.
      if (silence) skipTest({ kind: 'server', reason: silence }, liveRecord(testInfo));
      await use(accounts.A);
    },
    { box: 'self' },
  ],

  apiB: [
    async ({ accounts }, use, testInfo) => {
      if (!accounts.B) {
        skipTest(secondAccountMissing(), liveRecord(testInfo));
      }
      await use(accounts.B as OmsApi);
    },
    { box: 'self' },
  ],
});

/**
 * True when the conformance reporter is the only reporter that sees test outcomes ('null' sees none):
 * then marking a test that failed by findings as an expected failure misleads no one.
 */
export function onlyConformanceReporter(config: Pick<FullConfig, 'reporter'>): boolean {
  return config.reporter.every(([name]) => name === 'null' || /(^|[\\/])conformance-reporter(\.[cm]?[jt]s)?$/.test(name));
}

/** Deletes every order this worker created and did not delete, even after failures; reports what it could not. */
async function deleteLeftovers(accounts: Accounts, created: CreatedOrders, inFlight: number): Promise<void> {
  const failed: string[] = [];
  // A silent server would cost a timeout per order: the ledger keeps them for `oms-conformance cleanup`.
  if (serverWentSilent(currentRunId())) return;
  // A test stopped by an interruption leaves its requests running: the orders its creates make are deleted too.
  await created.settled();
  const queue = created.remaining();
  const deleteNext = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [id, owner] = next;
      const api = owner === 'A' ? accounts.A : accounts.B;
      if (!api) continue;
      try {
        // Outside any test: an id that cannot be a path was already reported when it was created, and is skipped here.
        // Through the pipeline like every request (the gate, the ledger), judged outside any test.
        const exchange = await api.send(orderRequestLine('deleteOrder', id), `the worker's cleanup: DELETE of an order the run created (account ${owner})`);
        if (exchange.status >= 300 && exchange.status !== 404 && exchange.status !== 410) failed.push(`${quoted(redact(id))} (${exchange.status})`);
      } catch (error) {
        failed.push(`${quoted(redact(id))} (${visible(redact((error as Error).message))})`);
      }
    }
  };
  // As many at a time as the worker's concurrency: against a remote server the round trips overlap (the gate's caps and 429 pauses still hold).
  await Promise.all(Array.from({ length: inFlight }, deleteNext));
  if (failed.length) {
    // One line whatever the ids hold (each quoted and made visible): a server's id cannot forge a line of the suite's output.
    console.warn(`oms-conformance: could not delete ${failed.length} order(s) it created: ${failed.join(', ')}`);
  }
}

export { expect } from './record/findings';

/** The skip of a test that needs account B where none is set. */
function secondAccountMissing(): Skip {
  const secondAccount = `${settingName('tokenB')} (or ${settingName('clientIdB')} and ${settingName('clientSecretB')})`;
  return { kind: 'configuration', reason: `${secondAccount} is not set: isolation between accounts needs a second account`, settings: [secondAccount] };
}

/** How long one request is retried while the server answers 429, in request timeouts (OMS_REQUEST_TIMEOUT_MS). */
const RATE_LIMIT_RETRY_TIMEOUTS = 4;

/** Bodies a scheduler with a plan runs at once, at the least (a worker of few requests in flight still overlaps its tests' round trips). */
const MIN_TESTS_AHEAD = 8;

/**
 * The fixtures a body run ahead of its test gets, as Playwright would give them: `api` skips the test once the server
 * went silent, `apiB` without a second account, each in the body's own record.
 */
function fixturesAhead(settings: Settings, accounts: Accounts): Record<string, unknown> {
  return {
    settings,
    accounts,
    get api() {
      const silence = serverWentSilent(currentRunId());
      if (silence) skipTest({ kind: 'server', reason: silence });
      return accounts.A;
    },
    get apiB() {
      if (!accounts.B) skipTest(secondAccountMissing());
      return accounts.B;
    },
  };
}

/** The suite's test(): Playwright's, each body run by the worker's scheduler (harness/schedule/scheduler.ts). */
export const test = declaringTests(playwrightTest, (body, fixtures, testInfo) => currentScheduler()?.take(body, fixtures, testInfo) ?? runHere(body, fixtures, testInfo));

/** A body run where no scheduler is (a worker fixture of its own never set up): in its test, through a record as the scheduler runs it. */
async function runHere(body: TestBody, fixtures: Record<string, unknown>, info: TestInfo): Promise<void> {
  const record = deferredRecord(info);
  const outcome = await settledBody(() => runInRecord(record, async () => body(fixtures, info)));
  replayRecord(record, outcome, info);
}
