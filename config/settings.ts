import type { CommandCredentials, SecretSource, TokenSource } from './command-credentials';
import { registerSecret } from './redaction';
import { ConfigurationError } from './exit-codes';
import { SETTING_NAMES, SETTINGS, type SettingName, type SettingSpec } from './settings-table';
import { InvalidValue } from './values';

type Table = typeof SETTINGS;

/** The accounts a run works in: A (OMS_TOKEN), and B (OMS_TOKEN_B) for the isolation checks. */
export type AccountName = 'A' | 'B';

/** The suite's settings, typed from the table (config/settings-table.ts): read here, passed down everywhere else. */
export type Settings = { [K in SettingName]: ReturnType<Table[K]['value']['parse']> | Table[K]['default'] };

/** A setting whose value is wrong: the message names its variable; `setting` and `problem` let the command line name its option instead. */
export class SettingError extends ConfigurationError {
  constructor(
    readonly setting: SettingName,
    readonly problem: string,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    super(`${settingName(setting, env)} ${problem}`);
  }
}

/** One setting, checked: its default when the variable is unset or blank. */
export function readSetting<K extends SettingName>(name: K, env: NodeJS.ProcessEnv = process.env): Settings[K] {
  const spec = SETTINGS[name] as SettingSpec<Settings[K]>;
  const raw = env[spec.variable] ?? '';
  if (!raw.trim()) return spec.default as Settings[K];
  try {
    return spec.value.parse(spec.value.verbatim ? raw : raw.trim());
  } catch (error) {
    if (error instanceof InvalidValue) throw new SettingError(name, error.message, env);
    throw error;
  }
}

/** Every setting, checked one by one and then together (a client id needs its secret). */
export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const settings = Object.fromEntries(SETTING_NAMES.map((name) => [name, readSetting(name, env)])) as Settings;
  for (const name of SETTING_NAMES) {
    const partner = SETTINGS[name].goesWith as SettingName | undefined;
    if (partner && (settings[name] === undefined) !== (settings[partner] === undefined)) {
      throw new SettingError(name, `and ${settingName(partner, env)} go together: set both, or neither`, env);
    }
  }
  return settings;
}

/**
 * Writes settings into an environment (this process's by default, which Playwright's workers inherit), as
 * the variables a user would set: how the runner hands on what it resolved, and the command its options.
 */
export function writeSettings(values: Partial<Settings>, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  for (const [name, value] of Object.entries(values) as Array<[SettingName, unknown]>) {
    const spec = SETTINGS[name] as SettingSpec<unknown>;
    if (value === undefined) delete env[spec.variable];
    else env[spec.variable] = spec.value.format(value);
  }
  return env;
}

/**
 * A worker's run id: OMS_RUN_ID, which the conformance reporter sets before the workers start, or without
 * that reporter the runner's pid (the worker's parent). The ledger and the run's shared files are keyed by it.
 */
export function currentRunId(env: NodeJS.ProcessEnv = process.env): string {
  return readSetting('runId', env) ?? `pid-${process.ppid}`;
}

/** Registers the value of every secret setting for redaction, shown as its variable ($OMS_TOKEN …). */
export function registerSettingsSecrets(settings: Partial<Settings>): void {
  for (const name of SETTING_NAMES) {
    if (SETTINGS[name].secret) registerSecret(settings[name] as string | undefined, `$${SETTINGS[name].variable}`);
  }
}

/** Against the user's own server, account A needs a token, or client credentials to obtain one. */
export function checkAccountA(settings: Settings): void {
  if (!settings.baseUrl || settings.token || settings.clientId) return;
  throw new SettingError('token', `is not set: give the bearer token of account A (or ${settingName('clientId')} and ${settingName('clientSecret')} to obtain one from POST /token).`);
}

/**
 * A setting named as the user gave it: its option (`--token-file`) when the command took it from one, its
 * variable (OMS_TOKEN) when the environment held it. On the command line a setting not given at all is named
 * by its option. Every message that tells the user which setting to fix names it through this.
 */
export function settingName(name: SettingName, env: NodeJS.ProcessEnv = process.env): string {
  const { variable, flag } = SETTINGS[name];
  const options = givenAsOptions(env);
  const option = options?.[name]?.[0] ?? (options && flag && !env[variable]?.trim() ? `--${flag.name}` : undefined);
  return option ?? variable;
}

/** A setting with its value, as the user gave it: `--base-url URL`, or `OMS_BASE_URL=URL`. */
export function settingWithValue(name: SettingName, value: string, env: NodeJS.ProcessEnv = process.env): string {
  const given = settingName(name, env);
  return given.startsWith('--') ? `${given} ${value}` : `${given}=${value}`;
}

/**
 * The words that give a setting again as the command was given it (`--base-url URL`, `--token-file PATH`), or
 * undefined when it came from the environment, or as a secret on the command line (never recorded).
 */
export function optionWords(name: SettingName, env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  const words = givenAsOptions(env)?.[name];
  return words && (words.length > 1 || !SETTINGS[name].value.placeholder) ? words : undefined;
}

/** The option a secret was typed as on the command line (`--token`), its value not recorded; undefined for any other way it came. */
export function secretTypedAs(name: SettingName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const words = givenAsOptions(env)?.[name];
  return SETTINGS[name].secret && words?.length === 1 && SETTINGS[name].value.placeholder ? words[0] : undefined;
}

/** Where a printed command reads a secret setting back, as the user gave it: a file, a variable they set, or one to set to what they typed; undefined when not given. */
export function secretSource(name: SettingName, env: NodeJS.ProcessEnv = process.env): SecretSource | undefined {
  const { variable } = SETTINGS[name];
  const typedAs = secretTypedAs(name, env);
  if (typedAs) return { variable, typedAs };
  const words = optionWords(name, env);
  if (words?.[0].endsWith('-file')) return { file: words[1] };
  return env[variable]?.trim() ? { variable } : undefined;
}

/**
 * How a printed command gets each account's token, from the settings as the user gave them (read before the
 * run adds its own: a token it obtained, the embedded server's accounts): with client credentials, a sign-in
 * the way `auth` says the server took them; else the token's own source.
 */
export function commandCredentials(auth: Settings['tokenAuth'], env: NodeJS.ProcessEnv = process.env): CommandCredentials {
  const baseUrl = readSetting('baseUrl', env);
  const sourceOf = (token: SettingName, clientId: SettingName, clientSecret: SettingName): TokenSource | undefined => {
    const id = readSetting(clientId, env) as string | undefined;
    const secret = secretSource(clientSecret, env);
    if (baseUrl && id && secret) return { signIn: { baseUrl, clientId: id, clientSecret: secret, auth: auth ?? 'form' } };
    const given = secretSource(token, env);
    return given && { token: given };
  };
  const a = sourceOf('token', 'clientId', 'clientSecret');
  const b = sourceOf('tokenB', 'clientIdB', 'clientSecretB');
  return { ...(a && { A: a }), ...(b && { B: b }) };
}

/** The record the command leaves of the options it was given (OMS_GIVEN_AS_OPTIONS); none outside the command, or when unreadable. */
function givenAsOptions(env: NodeJS.ProcessEnv): Record<string, string[]> | undefined {
  const raw = env[SETTINGS.givenAsOptions.variable];
  if (!raw?.trim()) return undefined;
  try {
    // Read past readSetting: its error's message is named through here.
    return SETTINGS.givenAsOptions.value.parse(raw) ?? undefined;
  } catch {
    return undefined;
  }
}
