import { INSTALLED_FROM_NPM } from '../config/package-root';
import { optionWords, readSetting } from '../config/settings';
import type { SettingName } from '../config/settings-table';
import { shellWord } from './http/shell';

export interface ReplayTarget {
  seed: number;
  /** OMS_PATH as a failure prints it. */
  path: string;
  /** file:line of the test, relative to the suite's root. */
  location: string;
}

/** The settings that say which server and account a replay talks to: repeated when they were given as options. */
const TARGET_SETTINGS: SettingName[] = ['baseUrl', 'token', 'clientId', 'clientSecret', 'tokenB', 'clientIdB', 'clientSecretB', 'tokenAuth'];

/**
 * The command that replays one generated counterexample, for the place the run was started from: installed
 * from npm, `npx oms-conformance … --seed … --path … --test …` (`npx playwright test` finds no test there: no
 * Playwright config, and node_modules skipped), with the target's options as they were given (a variable is
 * still in the user's environment; a secret typed on the command line is not repeated), the report to
 * replay-report so the run's own stays as it is; in a checkout, Playwright itself.
 */
export function replayCommand({ seed, path, location }: ReplayTarget): string {
  if (INSTALLED_FROM_NPM) {
    const target = TARGET_SETTINGS.flatMap((name) => optionWords(name) ?? []).map((word) => (word.startsWith('--') ? word : shellWord(word)));
    return suiteCommand([...target, '--seed', String(seed), '--path', shellWord(path), '--test', location, '--out replay-report'].join(' '));
  }
  const baseUrl = optionWords('baseUrl') && readSetting('baseUrl');
  return `${baseUrl ? `OMS_BASE_URL=${shellWord(baseUrl)} ` : ''}OMS_SEED=${seed} OMS_PATH=${shellWord(path)} npx playwright test ${location}`;
}

/** The suite's command with these arguments, as it runs here: `npx oms-conformance …` installed, the package script in a checkout. */
export function suiteCommand(args: string): string {
  return INSTALLED_FROM_NPM ? `npx oms-conformance ${args}` : `npm run -s oms-conformance -- ${args}`;
}
