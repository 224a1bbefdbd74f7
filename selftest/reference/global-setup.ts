import type { FullConfig } from '@playwright/test';
import { ConfigurationError, exitOnConfigurationError } from '../../config/exit-codes';
import { readSettings, writeSettings } from '../../config/settings';
import { SETTINGS } from '../../config/settings-table';
import { DEVELOPMENT_ACCOUNTS } from '../../reference/accounts';
import { startReferenceServer } from '../../reference/server';
import { behavioursFromEnvironment, BEHAVIOUR_VARIABLES } from './behaviours';

/**
 * The self-proof's global setup, run before the suite's own (selftest/reference/playwright.config.ts): starts
 * the reference server with the behaviours OMS_FAULT, OMS_VARIANT, OMS_HOSTILE and OMS_KNOBS name and hands its
 * address and the development accounts' client credentials to the suite, as a user would give a server's.
 * With none named it does nothing, and the suite starts its clean embedded server itself.
 */
export default async function proofGlobalSetup(_config: FullConfig): Promise<(() => Promise<void>) | undefined> {
  try {
    const behaviours = behavioursFromEnvironment(process.env);
    if (behaviours.length === 0) return undefined;
    const settings = readSettings();
    if (settings.baseUrl) {
      throw new ConfigurationError(`${BEHAVIOUR_VARIABLES.join(', ')} switch behaviours of the reference server on: unset ${SETTINGS.baseUrl.variable} to test it`);
    }
    const server = await startReferenceServer({ behaviours });
    const [a, b] = DEVELOPMENT_ACCOUNTS;
    writeSettings({
      baseUrl: server.url,
      ...(!settings.token && !settings.clientId && { clientId: a.client.id, clientSecret: a.client.secret }),
      ...(!settings.tokenB && !settings.clientIdB && { clientIdB: b.client.id, clientSecretB: b.client.secret }),
    });
    // Notes go to stderr, as the suite's own.
    console.error(`oms-conformance: testing the reference server with ${behaviours.map((behaviour) => behaviour.name).join(', ')} at ${server.url}`);
    return () => server.close();
  } catch (error) {
    exitOnConfigurationError(error);
  }
}
