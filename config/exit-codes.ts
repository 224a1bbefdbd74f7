import { redact } from '../harness/http/redaction';

/** The exit codes the README documents. */
export const EXIT_CODE = { conformant: 0, violations: 1, configuration: 2 } as const;

/**
 * A problem the user must fix before any test can run: a setting, an option, the preflight, an
 * expectations file or a signing key. It ends the run with one line naming what to fix, and exit code 2.
 */
export class ConfigurationError extends Error {}

/** The one line a configuration problem is shown as (secrets redacted); undefined for any other error, which is a bug. */
export function configurationMessage(error: unknown): string | undefined {
  return error instanceof ConfigurationError ? `oms-conformance: ${redact(error.message)}` : undefined;
}

/** In Playwright's runner (config, global setup, reporter): a configuration problem ends the run here; anything else is thrown on. */
export function exitOnConfigurationError(error: unknown): never {
  const message = configurationMessage(error);
  if (message === undefined) throw error;
  console.error(`\n${message}\n`);
  process.exit(EXIT_CODE.configuration);
}
