import type { FullConfig } from '@playwright/test';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import { behavioursFromEnvironment } from '../reference/behaviours';
import { startReferenceServer, type RunningReference } from '../reference/server';
import { preflight, PreflightError } from './preflight';
import { registerSettingsSecrets, redact } from './http/redaction';
import { ConfigurationError, readSettings } from './settings';
import { forgetRun } from './run-knowledge';
import { clientCredentials, fetchToken } from './http/token';

/** Exit code of a configuration or preflight problem (documented in the README). */
export const CONFIGURATION_EXIT_CODE = 2;

/**
 * Runs once before the workers: starts the embedded reference server when OMS_BASE_URL is unset,
 * obtains the token from POST /token when asked to, and checks that the target answers. What it
 * resolves goes to the workers through the same environment variables the user would set.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  let server: RunningReference | undefined;
  try {
    const settings = readSettings();
    registerSettingsSecrets(settings);
    let baseUrl = settings.baseUrl;
    if (!baseUrl) {
      server = await startReferenceServer({ behaviours: behavioursFromEnvironment(process.env) });
      baseUrl = server.url;
      process.env.OMS_BASE_URL = baseUrl;
      // Both accounts sign in through POST /token, as a real client would, unless told otherwise.
      const [a, b] = DEVELOPMENT_ACCOUNTS;
      if (!settings.token && !settings.clientId) {
        settings.clientId = process.env.OMS_CLIENT_ID = a.client.id;
        settings.clientSecret = process.env.OMS_CLIENT_SECRET = a.client.secret;
      }
      if (!settings.tokenB && !settings.clientIdB) {
        settings.clientIdB = process.env.OMS_CLIENT_ID_B = b.client.id;
        settings.clientSecretB = process.env.OMS_CLIENT_SECRET_B = b.client.secret;
      }
      console.log(`oms-conformance: no OMS_BASE_URL given, testing the embedded reference server at ${baseUrl}`);
    } else if (!settings.token && !settings.clientId) {
      throw new ConfigurationError(
        'OMS_TOKEN is not set: give the bearer token of account A (or OMS_CLIENT_ID and OMS_CLIENT_SECRET to obtain one from POST /token).',
      );
    }
    for (const account of ['A', 'B'] as const) {
      const credentials = clientCredentials(settings, account);
      if (!credentials) continue;
      const issued = await fetchToken(baseUrl, credentials, settings.tokenAuth, settings.requestTimeoutMs).catch((error: Error) => {
        throw new PreflightError(error.message);
      });
      // Workers and the report learn which way worked; workers start with this token and renew it themselves.
      if (!settings.tokenAuth) console.log(`oms-conformance: POST /token accepted the client credentials with --token-auth ${issued.auth}`);
      settings.tokenAuth = issued.auth;
      process.env.OMS_TOKEN_AUTH = issued.auth;
      process.env[account === 'A' ? 'OMS_TOKEN' : 'OMS_TOKEN_B'] = issued.accessToken;
    }
    await preflight(baseUrl, process.env.OMS_TOKEN as string, 'OMS_TOKEN', settings.requestTimeoutMs, settings.maxResponseBytes);
    if (process.env.OMS_TOKEN_B) await preflight(baseUrl, process.env.OMS_TOKEN_B, 'OMS_TOKEN_B', settings.requestTimeoutMs, settings.maxResponseBytes);
  } catch (error) {
    if (error instanceof ConfigurationError || error instanceof PreflightError) {
      await server?.close();
      console.error(`\noms-conformance: ${redact(error.message)}\n`);
      process.exit(CONFIGURATION_EXIT_CODE);
    }
    throw error;
  }
  return async () => {
    forgetRun(process.env.OMS_RUN_ID ?? `pid-${process.pid}`);
    await server?.close();
  };
}
