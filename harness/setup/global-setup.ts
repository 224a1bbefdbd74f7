import type { FullConfig } from '@playwright/test';
import { exitOnConfigurationError } from '../../config/exit-codes';
import { checkAccountA, commandCredentials, readSetting, readSettings, registerSettingsSecrets, settingName, settingWithValue, writeSettings, type Settings } from '../../config/settings';
import { DEVELOPMENT_ACCOUNTS } from '../../reference/accounts';
import { startReferenceServer, type RunningReference } from '../../reference/server';
import { certificateAdvice, preflight, PreflightError } from './preflight';
import { forgetRun } from '../record/run-knowledge';
import { clientCredentials, fetchToken } from '../http/token';
import { judgeOutsideTests } from '../record/outside-tests';
import type { Exchange } from '../../contract/exchange';
import { measureRoundTrip } from '../http/round-trip';
import { newRunId } from '../http/ledger';

/**
 * Runs once before the workers: starts the embedded reference server when OMS_BASE_URL is unset,
 * obtains the token from POST /token when asked to, and checks that the target answers. What it
 * resolves goes to the workers through the same environment variables the user would set.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  let server: RunningReference | undefined;
  try {
    const settings = readSettings();
    // The environment as the user gave it, before the run adds what it resolves: printed commands get credentials only from there.
    const asGiven = { ...process.env };
    registerSettingsSecrets(settings);
    checkAccountA(settings);
    if (!settings.baseUrl) {
      server = await startReferenceServer();
      // Both accounts sign in through POST /token, as a real client would, unless told otherwise.
      const [a, b] = DEVELOPMENT_ACCOUNTS;
      handToWorkers(settings, {
        baseUrl: server.url,
        ...(!settings.token && !settings.clientId && { clientId: a.client.id, clientSecret: a.client.secret }),
        ...(!settings.tokenB && !settings.clientIdB && { clientIdB: b.client.id, clientSecretB: b.client.secret }),
      });
      // Notes go to stderr: stdout is a machine reporter's (--reporter=json) when a user picks one.
      console.error(`oms-conformance: no ${settingName('baseUrl')} given, testing the embedded reference server at ${server.url}`);
    }
    const baseUrl = settings.baseUrl as string;
    // Across a network every round trip of the start-up is paid before the first test: the probe and the sign-ins go
    // out side by side, then the preflights.
    const [roundTripMs, tokens] = await Promise.all([
      server ? undefined : probedRoundTrip(settings),
      Promise.all(
        (['A', 'B'] as const).map(async (account) => {
          const credentials = clientCredentials(settings, account);
          if (!credentials) return undefined;
          const signIn = (exchange: Exchange) => judgeOutsideTests(`the sign-in of account ${account} before the tests (POST /token)`, exchange);
          const issued = await fetchToken(baseUrl, credentials, settings.tokenAuth, settings.requestTimeoutMs, signIn).catch((error: Error) => {
            throw new PreflightError(`${error.message}${certificateAdvice(error)}`);
          });
          return { account, issued };
        }),
      ),
    ]);
    if (roundTripMs !== undefined) handToWorkers(settings, { roundTripMs });
    for (const signedIn of tokens) {
      if (!signedIn) continue;
      const { account, issued } = signedIn;
      if (!settings.tokenAuth && account === 'A') console.error(`oms-conformance: POST /token accepted the client credentials with ${settingWithValue('tokenAuth', issued.auth)}`);
      handToWorkers(settings, { tokenAuth: issued.auth, ...(account === 'A' ? { token: issued.accessToken } : { tokenB: issued.accessToken }) });
    }
    handToWorkers(settings, { commandCredentials: commandCredentials(settings.tokenAuth, asGiven) });
    const [note] = await Promise.all([
      preflight(baseUrl, settings.token as string, 'A', settings.requestTimeoutMs, settings.maxResponseBytes),
      settings.tokenB ? preflight(baseUrl, settings.tokenB, 'B', settings.requestTimeoutMs, settings.maxResponseBytes) : undefined,
    ]);
    if (note) console.error(`oms-conformance: ${note}`);
  } catch (error) {
    await server?.close();
    exitOnConfigurationError(error);
  }
  return async () => {
    const runId = readSetting('runId') ?? `pid-${process.pid}`;
    forgetRun(runId);
    await server?.close();
  };
}

/**
 * The round trip to a server elsewhere, which sizes what the workers send at once (config/network.ts); undefined for the
 * embedded server (in this process: nothing between to measure) or where the settings already fix it. The probe's
 * answers are the run's like any other, judged outside the tests under the run id fixed now (the reporter keeps it).
 */
async function probedRoundTrip(settings: Settings): Promise<number | undefined> {
  if (!settings.baseUrl || settings.roundTripMs !== undefined || settings.concurrency !== undefined) return undefined;
  if (!settings.runId) handToWorkers(settings, { runId: newRunId() });
  return measureRoundTrip(settings.baseUrl, (exchange) => judgeOutsideTests('the round-trip probe before the tests (GET /orders?limit=1 without credentials)', exchange));
}

/** What the setup resolved, in its own settings and, for the workers, in the variables the user would set. */
function handToWorkers(settings: Settings, resolved: Partial<Settings>): void {
  Object.assign(settings, resolved);
  writeSettings(resolved);
}
