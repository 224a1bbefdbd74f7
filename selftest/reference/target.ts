import { readSettings, type Settings } from '../../config/settings';
import type { WorkerTarget } from '../../harness/fixtures';
import { clientCredentials, fetchToken } from '../../harness/http/token';
import { DEVELOPMENT_ACCOUNTS } from '../../reference/accounts';
import { startReferenceServer } from '../../reference/server';
import { behavioursFromEnvironment } from './behaviours';
import { judgeOutsideTests } from '../../harness/record/outside-tests';
import type { Exchange } from '../../contract/exchange';
import { preflight } from '../../harness/setup/preflight';

/**
 * A project's server under test, started in each of its workers (the suite's `target` option): the reference
 * server with the behaviours these variables name (OMS_FAULT, OMS_VARIANT, OMS_KNOBS …), signed in to as the
 * development accounts through POST /token, first token included, as the suite's global setup signs in to its
 * embedded server. `runId`: the run's own id, so no project reads another's run files (ledger, violations
 * known); they outlive a worker (a worker started after a crash goes on with them), and go with
 * the whole Playwright run. `ledgerDir`: where the project's ledger goes, when not the run's; `settings`: the
 * project's own, as a user would set them for that server.
 */
export function referenceTarget(
  variables: Record<string, string>,
  runId: string,
  options: { ledgerDir?: string; settings?: Partial<Settings> } = {},
): { start(): Promise<WorkerTarget> } {
  const { ledgerDir } = options;
  return {
    start: async () => {
      const server = await startReferenceServer({ behaviours: behavioursFromEnvironment(variables) });
      const [a, b] = DEVELOPMENT_ACCOUNTS;
      const settings: Partial<Settings> = { baseUrl: server.url, clientId: a.client.id, clientSecret: a.client.secret, clientIdB: b.client.id, clientSecretB: b.client.secret, runId, ...(ledgerDir && { ledgerDir }), ...options.settings };
      const { requestTimeoutMs } = readSettings();
      const target = { ...readSettings(), ...settings };
      for (const account of ['A', 'B'] as const) {
        // Judged as the suite's global setup judges its sign-in, in the project's own run.
        const signIn = (exchange: Exchange) => judgeOutsideTests(`the sign-in of account ${account} before the tests (POST /token)`, exchange, runId);
        const issued = await fetchToken(server.url, clientCredentials(target, account)!, target.tokenAuth, requestTimeoutMs, signIn);
        Object.assign(settings, { tokenAuth: issued.auth, ...(account === 'A' ? { token: issued.accessToken } : { tokenB: issued.accessToken }) });
        target.tokenAuth = issued.auth;
      }
      // The suite's preflight, as its global setup makes it before the tests (its answers judged in the project's run).
      for (const token of [settings.token, settings.tokenB]) await preflight(server.url, token as string, token === settings.token ? 'A' : 'B', requestTimeoutMs, target.maxResponseBytes, runId);
      return { settings, close: () => server.close() };
    },
  };
}
