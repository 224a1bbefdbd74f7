import { INSTALLED_FROM_NPM } from '../config/package-root';
import { optionGiven, readSetting } from '../config/settings';
import { shellWord } from './http/shell';

export interface ReplayTarget {
  seed: number;
  /** OMS_PATH as a failure prints it. */
  path: string;
  /** file:line of the test, relative to the suite's root. */
  location: string;
}

/**
 * The command that replays one generated counterexample, for the place the run was started from: installed
 * from npm, `npx oms-conformance --seed … --path … --test …` (`npx playwright test` finds no test there: no
 * Playwright config, and node_modules skipped); in a checkout, Playwright itself. The base URL goes with it
 * when it was given as an option (a variable is still in the user's environment); the report goes to
 * replay-report, so the report of the run stays as it is.
 */
export function replayCommand({ seed, path, location }: ReplayTarget): string {
  const target = optionGiven('baseUrl') ? readSetting('baseUrl') : undefined;
  if (INSTALLED_FROM_NPM) {
    return [suiteCommand('').trimEnd(), ...(target ? ['--base-url', shellWord(target)] : []), '--seed', String(seed), '--path', shellWord(path), '--test', location, '--out replay-report'].join(' ');
  }
  return `${target ? `OMS_BASE_URL=${shellWord(target)} ` : ''}OMS_SEED=${seed} OMS_PATH=${shellWord(path)} npx playwright test ${location}`;
}

/** The suite's command with these arguments, as it runs here: `npx oms-conformance …` installed, the package script in a checkout. */
export function suiteCommand(args: string): string {
  return INSTALLED_FROM_NPM ? `npx oms-conformance ${args}` : `npm run -s oms-conformance -- ${args}`;
}
