import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigurationError, readSettings, type Settings } from '../harness/settings';
import { OPTIONS, UsageError } from './options';

/**
 * The child's environment: the caller's, with each given option written to its OMS_* variable.
 * Secrets given as options (or files) reach Playwright this way, never through its argv.
 */
export function environmentFrom(options: Map<string, string | true>, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  const setBy = new Map<string, string>();
  for (const spec of OPTIONS) {
    const value = options.get(spec.name);
    if (value === undefined || !spec.env) continue;
    const earlier = setBy.get(spec.env);
    if (earlier) throw new UsageError(`give --${earlier} or --${spec.name}, not both`);
    setBy.set(spec.env, spec.name);
    if (value === true) env[spec.env] = '1';
    else if (spec.fromFile) env[spec.env] = readValueFile(value, spec.name);
    else if (spec.path) env[spec.env] = resolve(value);
    else env[spec.env] = value;
  }
  return env;
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
 * The configuration contract's own checks; the one line a bad value gets names the option when the
 * value came from one ("--profile (OMS_PROFILE) must be one of core, strict ...").
 */
export function checkedSettings(env: NodeJS.ProcessEnv, options: Map<string, string | true>): Settings {
  try {
    return readSettings(env);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    const message = error.message.replace(/^(OMS_[A-Z_]+)/, (variable) => {
      const spec = OPTIONS.find((o) => o.env === variable && options.has(o.name));
      return spec ? `--${spec.name} (${variable})` : variable;
    });
    throw new UsageError(message);
  }
}
