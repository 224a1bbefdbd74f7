import { redact } from './redaction';
import { visible } from './safe-text';

/**
 * The exit codes the README, cli/README.md and --help document, one per outcome of a run:
 * 0 conformant (also when incomplete: the verdict line says why it is no certification), 1 not conformant
 * (a gating requirement failed; or a command found a problem), 2 configuration error or not this interface
 * (no test ran), 3 inconclusive (the server left a gating requirement without evidence), 130 interrupted
 * (Ctrl-C or a global timeout before the end; the code a shell gives a process stopped by Ctrl-C).
 * `oms-conformance proxy` alone: 4 service unreachable (no request the client sent through it got an answer
 * from the --base-url service, so nothing was judged).
 */
export const EXIT_CODE = { conformant: 0, violations: 1, configuration: 2, inconclusive: 3, serviceUnreachable: 4, interrupted: 130 } as const;

/** The exit code of each verdict of a run (reporter/report.ts), before an expectations file excuses known failures. */
export const VERDICT_EXIT_CODE = {
  conformant: EXIT_CODE.conformant,
  'not-conformant': EXIT_CODE.violations,
  inconclusive: EXIT_CODE.inconclusive,
  interrupted: EXIT_CODE.interrupted,
} as const;

/**
 * Makes `code` this process's exit code. Playwright's runner ends with process.exit(0, 1 or 130) after
 * the reporters are done, whatever they would say: Node reads process.exitCode again after the 'exit'
 * listeners ran, so the one set here is the code the process ends with (`npx playwright test` included).
 */
export function endWithExitCode(code: number): void {
  process.exitCode = code;
  process.removeListener('exit', keepExitCode);
  exitCodeToKeep = code;
  process.on('exit', keepExitCode);
}

let exitCodeToKeep = 0;

function keepExitCode(): void {
  process.exitCode = exitCodeToKeep;
}

/**
 * A problem the user must fix before any test can run: a setting, an option, the preflight (including a
 * target that is not this interface), an expectations file or a signing key. It ends the run with one
 * line naming what to fix, and exit code 2.
 */
export class ConfigurationError extends Error {}

/** The one line a configuration problem is shown as (secrets redacted, server text made visible); undefined for any other error, which is a bug. */
export function configurationMessage(error: unknown): string | undefined {
  return error instanceof ConfigurationError ? `oms-conformance: ${visible(redact(error.message))}` : undefined;
}

/** In Playwright's runner (config, global setup, reporter): a configuration problem ends the run here; anything else is thrown on. */
export function exitOnConfigurationError(error: unknown): never {
  const message = configurationMessage(error);
  if (message === undefined) throw error;
  console.error(`\n${message}\n`);
  process.exit(EXIT_CODE.configuration);
}
