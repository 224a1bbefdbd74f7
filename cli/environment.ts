import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readSettings, SettingError, writeSettings, type Settings } from '../config/settings';
import { SETTINGS, type SettingName } from '../config/settings-table';
import { OPTIONS, UsageError, type OptionSpec } from './options';

/**
 * The child's environment: the caller's, with each given option written to its setting's variable.
 * Secrets given as options (or files) reach Playwright this way, never through its argv.
 */
export function environmentFrom(options: Map<string, string | true>, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  const setBy = new Map<string, string>();
  const given: Record<string, string[]> = {};
  for (const spec of OPTIONS) {
    const value = options.get(spec.name);
    if (value === undefined || !spec.setting) continue;
    const earlier = setBy.get(spec.setting);
    if (earlier) throw new UsageError(`give --${earlier} or --${spec.name}, not both`);
    setBy.set(spec.setting, spec.name);
    given[spec.setting] = givenWords(spec, value);
    const variable = SETTINGS[spec.setting].variable;
    if (value === true) writeSettings({ [spec.setting]: true } as Partial<Settings>, env);
    else if (spec.fromFile) env[variable] = readValueFile(value, spec.name);
    else if (spec.path && !SETTINGS[spec.setting].value.words?.includes(value.toLowerCase())) env[variable] = resolve(value);
    else env[variable] = value;
  }
  // Messages name each setting as it was given (config/settings.ts settingName): these by their option.
  writeSettings({ givenAsOptions: given }, env);
  return env;
}

/** An option as given, to name it and repeat it: a file by its absolute path, a secret's value never. */
function givenWords(spec: OptionSpec, value: string | true): string[] {
  const option = `--${spec.name}`;
  if (value === true || (SETTINGS[spec.setting as SettingName].secret && !spec.fromFile)) return [option];
  return [option, spec.fromFile || spec.path ? resolve(value) : value];
}

function readValueFile(path: string, option: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new UsageError(`--${option} ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (!text) throw new UsageError(`--${option} ${path}: the file is empty`);
  return text;
}

/**
 * The settings, checked; the one line a bad value gets names the option when the value came from one
 * ("--profile (OMS_PROFILE) must be one of core, strict ...").
 */
export function checkedSettings(env: NodeJS.ProcessEnv, options: Map<string, string | true>): Settings {
  try {
    return readSettings(env);
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    const option = OPTIONS.find((o) => o.setting === error.setting && options.has(o.name));
    if (!option) throw error;
    throw new UsageError(`--${option.name} (${SETTINGS[error.setting].variable}) ${error.problem}`);
  }
}
