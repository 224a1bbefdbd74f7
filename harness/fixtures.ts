import { _baseTest as base } from '@playwright/test';
import { OmsApi, type AccountName } from './api';
import { orderRequestLine } from './http/order-path';
import { OmsClient } from './http/client';
import { recordOf } from './findings';
import { REQUESTS_ANNOTATION } from './verifies';
import { recordViolated } from './run-knowledge';
import { RequestGate } from './http/gate';
import { defaultConcurrency } from '../config/network';
import { CreatedOrders } from './created-orders';
import { currentRunId, readSettings, registerSettingsSecrets, type Settings } from '../config/settings';
import { INCONCLUSIVE, serverWentSilent } from './http/silence';
import { clientCredentials, fetchToken, TokenSource } from './http/token';

interface Accounts {
  A: OmsApi;
  B?: OmsApi;
}

interface WorkerFixtures {
  /** The settings, read once (global setup has already resolved the base URL and token). */
  settings: Settings;
  accounts: Accounts;
}

interface TestFixtures {
  /** Counts the requests each test sends, as an annotation (REQUESTS_ANNOTATION) for the progress line and the report. */
  requestCount: void;
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
export const test = base.extend<TestFixtures, WorkerFixtures>({
  settings: [
    async ({}, use) => {
      const settings = readSettings();
      registerSettingsSecrets(settings);
      await use(settings);
    },
    { scope: 'worker' },
  ],

  accounts: [
    async ({ settings }, use, workerInfo) => {
      // One gate for both accounts: the worker's requests in flight, its share of OMS_MAX_RPS, and 429 pauses.
      const gate = new RequestGate({
        maxInFlight: settings.concurrency ?? defaultConcurrency(settings.roundTripMs),
        requestsPerSecond: settings.maxRps ? settings.maxRps / Math.max(1, workerInfo.config.workers) : undefined,
      });
      const created = new CreatedOrders();
      const baseUrl = settings.baseUrl as string;
      const open = (name: AccountName, token: string | undefined) => {
        const credentials = clientCredentials(settings, name);
        // A token from POST /token: the global setup's first, then this worker's own, renewed before expiry and after a 401.
        const tokens = credentials && new TokenSource(() => fetchToken(baseUrl, credentials, settings.tokenAuth, settings.requestTimeoutMs), token);
        const client = new OmsClient({
          baseUrl,
          token: token ?? '',
          timeoutMs: settings.requestTimeoutMs,
          maxResponseBytes: settings.maxResponseBytes,
          currentToken: tokens && (() => tokens.current()),
          renewToken: tokens && (async (refused) => (await tokens.renew(refused)).accessToken),
          gate,
        });
        return new OmsApi(name, client, created, { readOnly: settings.readOnly, listSettleMs: settings.listSettleMs });
      };
      const accounts: Accounts = {
        A: open('A', settings.token),
        B: settings.tokenB || settings.clientIdB ? open('B', settings.tokenB) : undefined,
      };
      await use(accounts);
      await deleteLeftovers(accounts, created, gate.maxInFlight);
      accounts.A.client.close();
      accounts.B?.client.close();
    },
    { scope: 'worker' },
  ],

  /**
   * Playwright starts a new worker process after every failed test: against a faulty server that was
   * most of a failing run (format-text-plain: 123 new workers, 248 s against 31 s). A test that failed
   * only by findings (each error one attached finding) left the worker sound, so it is marked an
   * expected failure, which keeps the worker; the reporter still reads its failure and findings. Any
   * other error (a crash, a timeout) restarts the worker and is printed as before.
   */
  keepWorkerAfterFindings: [
    async ({}, use, testInfo) => {
      await use();
      const findings = testInfo.attachments.flatMap((attachment) => recordOf(attachment) ?? []);
      // Later generated tests of this run, in any worker, need not shrink a counterexample of these again.
      recordViolated(findings.map((finding) => finding.requirementId));
      if (testInfo.status === 'failed' && findings.length > 0 && testInfo.errors.length <= findings.length) {
        testInfo.fail(true, `${findings.length} finding(s): requirements violated, see the conformance report`);
      }
    },
    // 'self': no step of its own (see below).
    { auto: true, box: 'self' },
  ],

  requestCount: [
    async ({ accounts }, use, testInfo) => {
      const sent = () => accounts.A.client.requestsSent + (accounts.B?.client.requestsSent ?? 0);
      const before = sent();
      await use();
      testInfo.annotations.push({ type: REQUESTS_ANNOTATION, description: String(sent() - before) });
    },
    { auto: true, box: 'self' },
  ],

  // Test fixtures are no steps of their own ('self'): each would be two (setup, teardown), each two messages to the runner, in every test.
  api: [
    async ({ accounts }, use, testInfo) => {
      const silence = serverWentSilent(currentRunId());
      // Called only to skip: testInfo.skip captures a source-mapped stack even when its condition is false.
      if (silence) testInfo.skip(true, `${INCONCLUSIVE}${silence}`);
      await use(accounts.A);
    },
    { box: 'self' },
  ],

  apiB: [
    async ({ accounts }, use, testInfo) => {
      if (!accounts.B) testInfo.skip(true, 'OMS_TOKEN_B (or OMS_CLIENT_ID_B and OMS_CLIENT_SECRET_B) is not set: isolation between accounts needs a second account');
      await use(accounts.B as OmsApi);
    },
    { box: 'self' },
  ],
});

/** Deletes every order this worker created and did not delete, even after failures; reports what it could not. */
async function deleteLeftovers(accounts: Accounts, created: CreatedOrders, inFlight: number): Promise<void> {
  const failed: string[] = [];
  // A silent server would cost a timeout per order: the ledger keeps them for `oms-conformance cleanup`.
  if (serverWentSilent(currentRunId())) return;
  const queue = created.remaining();
  const deleteNext = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [id, owner] = next;
      const api = owner === 'A' ? accounts.A : accounts.B;
      if (!api) continue;
      try {
        // Outside any test: an id that cannot be a path was already reported when it was created, and is skipped here.
        const exchange = await api.client.send(orderRequestLine('deleteOrder', id));
        if (exchange.status >= 300 && exchange.status !== 404 && exchange.status !== 410) failed.push(`${id} (${exchange.status})`);
        else created.forget(id);
      } catch (error) {
        failed.push(`${id} (${(error as Error).message})`);
      }
    }
  };
  // As many at a time as the worker's concurrency: against a remote server the round trips overlap (the gate's caps and 429 pauses still hold).
  await Promise.all(Array.from({ length: inFlight }, deleteNext));
  if (failed.length) {
    console.warn(`oms-conformance: could not delete ${failed.length} order(s) it created: ${failed.join(', ')}`);
  }
}

export { expect } from './findings';
