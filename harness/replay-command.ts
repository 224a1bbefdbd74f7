import { INSTALLED_FROM_NPM } from '../config/package-root';
import { optionWords, readSetting, secretTypedAs } from '../config/settings';
import { SETTINGS, type SettingName } from '../config/settings-table';
import { secretExpansion, shellWord } from './http/shell';

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
 * still in the user's environment), the report to replay-report so the run's own stays as it is; in a
 * checkout, Playwright itself, the options given as their variables. A secret typed on the command line is
 * never printed: the hint reads it from its variable, and the shell stops before sending anything, saying
 * which variable to set and to what, where it is not set (secretWord).
 */
export function replayCommand({ seed, path, location }: ReplayTarget): string {
  if (INSTALLED_FROM_NPM) {
    return suiteCommand([...targetArguments(), '--seed', String(seed), '--path', shellWord(path), '--test', location, '--out replay-report'].join(' '));
  }
  const target = TARGET_SETTINGS.flatMap((name) => {
    const { variable } = SETTINGS[name];
    const typedAs = secretTypedAs(name);
    if (typedAs) return [`${variable}=${secretWord(name, typedAs)}`];
    const words = optionWords(name);
    if (!words) return [];
    // A value read from a file (--token-file) is read again from that file, never printed.
    if (words[0].endsWith('-file')) return [`${variable}="${secretExpansion({ file: words[1] })}"`];
    return [`${variable}=${shellWord(name === 'baseUrl' ? (readSetting('baseUrl') ?? words[1]) : words[1])}`];
  });
  return `${target.map((word) => `${word} `).join('')}OMS_SEED=${seed} OMS_PATH=${shellWord(path)} npx playwright test ${location}`;
}

/** The server and account options of the run, as the command was given them, for a command that talks to the same target (a secret typed on the command line by secretWord). */
export function targetArguments(): string[] {
  return TARGET_SETTINGS.flatMap((name) => {
    const typedAs = secretTypedAs(name);
    if (typedAs) return [typedAs, secretWord(name, typedAs)];
    return (optionWords(name) ?? []).map((word) => (word.startsWith('--') ? word : shellWord(word)));
  });
}

/**
 * A secret typed on the command line, as a hint repeats it: its variable, which the shell expands, or, unset,
 * stops at with a message naming the option it stands for (`${OMS_TOKEN:?…}`, POSIX sh, bash and zsh alike).
 */
export function secretWord(name: SettingName, typedAs: string): string {
  return `"${secretExpansion({ variable: SETTINGS[name].variable, typedAs })}"`;
}

/** The suite's command with these arguments, as it runs here: `npx oms-conformance …` installed, the package script in a checkout. */
export function suiteCommand(args: string): string {
  return INSTALLED_FROM_NPM ? `npx oms-conformance ${args}` : `npm run -s oms-conformance -- ${args}`;
}
