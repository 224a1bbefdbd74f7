import type { FullConfig } from '@playwright/test';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import { behavioursFromEnvironment } from '../reference/behaviours';
import { startReferenceServer, type RunningReference } from '../reference/server';
import { preflight, PreflightError } from './preflight';
import { registerSecret, registerSettingsSecrets, redact } from './redaction';
import { ConfigurationError, readSettings } from './settings';
import { forgetRun } from './run-knowledge';
import { fetchToken } from './token';

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
      if (!settings.token && !settings.clientId) {
        // Account A signs in through POST /token, as a real client would; B uses its development token.
        const [a, b] = DEVELOPMENT_ACCOUNTS;
        settings.clientId = process.env.OMS_CLIENT_ID = a.client.id;
        settings.clientSecret = process.env.OMS_CLIENT_SECRET = a.client.secret;
        process.env.OMS_TOKEN_B ??= b.developmentToken;
      }
      console.log(`oms-conformance: no OMS_BASE_URL given, testing the embedded reference server at ${baseUrl}`);
    } else if (!settings.token && !settings.clientId) {
      throw new ConfigurationError(
        'OMS_TOKEN is not set: give the bearer token of account A (or OMS_CLIENT_ID and OMS_CLIENT_SECRET to obtain one from POST /token).',
      );
    }
    if (settings.clientId && settings.clientSecret) {
      const token = await fetchToken(baseUrl, settings.clientId, settings.clientSecret, settings.requestTimeoutMs).catch((error: Error) => {
        throw new PreflightError(error.message);
      });
      registerSecret(token, '$OMS_TOKEN');
      process.env.OMS_TOKEN = token;
    }
    await preflight(baseUrl, process.env.OMS_TOKEN as string, 'OMS_TOKEN', settings.requestTimeoutMs);
    if (process.env.OMS_TOKEN_B) await preflight(baseUrl, process.env.OMS_TOKEN_B, 'OMS_TOKEN_B', settings.requestTimeoutMs);
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
