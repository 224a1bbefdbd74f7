import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from '@playwright/test';
import { optionHelp } from '../cli/options';
import { currentReadmeTable, README, readmeSettingsTable } from '../config/docs';
import { ConfigurationError, configurationMessage } from '../config/exit-codes';
import { readSettings, SettingError, writeSettings, type Settings } from '../config/settings';
import { SETTING_NAMES, SETTINGS } from '../config/settings-table';
import { fixRunSeed, runSeed, suiteVersionSeed } from '../config/seed';

const ROOT = join(__dirname, '..');

test("README.md's Configuration table is the one config/settings-table.ts gives", () => {
  expect(currentReadmeTable(readFileSync(README, 'utf8')), 'README.md differs from config/settings-table.ts: run `npm run docs:settings` to rewrite its table').toBe(
    readmeSettingsTable(),
  );
});

test('--help shows every option of a setting with its variable', () => {
  const help = (['run', 'merge', 'cleanup', 'replay', 'expectations'] as const).map(optionHelp).join('\n');
  for (const name of SETTING_NAMES) {
    const { flag, variable } = SETTINGS[name];
    if (flag) expect(help, variable).toMatch(new RegExp(`--${flag.name} .*\\[${variable}\\]`));
  }
});

test('nothing set: every setting has its default', () => {
  const settings = readSettings({});
  for (const name of SETTING_NAMES) expect(settings[name], name).toBe(SETTINGS[name].default);
});

test('a value written for another process reads back the same', () => {
  const values: Partial<Settings> = { baseUrl: 'https://oms.example.com/api', profile: 'strict', seed: -42, readOnly: true, workers: 3, runId: 'run-1.a_b' };
  expect(readSettings(writeSettings(values, {}))).toMatchObject(values);
});

test('the seed is the suite version\'s unless one is given, and a new one only when the run explores', () => {
  const fromVersion = { seed: suiteVersionSeed(), from: 'suite-version' };
  expect(runSeed(readSettings({}))).toEqual(fromVersion);
  expect(runSeed(readSettings({})), 'the same on every run').toEqual(fromVersion);
  expect(suiteVersionSeed({ name: 'oms-conformance', version: '0.1.0' }), 'another release draws other inputs').not.toBe(suiteVersionSeed({ name: 'oms-conformance', version: '0.2.0' }));
  expect(runSeed(readSettings({ OMS_SEED: '42' }))).toEqual({ seed: 42, from: 'given' });
  expect(runSeed(readSettings({ OMS_SEED: '7', OMS_EFFORT: 'thorough', OMS_EXPLORE: '1' })), 'a seed given wins').toEqual({ seed: 7, from: 'given' });
  for (const env of [{ OMS_SEED: 'random' }, { OMS_EXPLORE: '1' }, { OMS_EFFORT: 'thorough' }]) {
    expect(runSeed(readSettings(env)).from, JSON.stringify(env)).toBe('drawn');
  }
  // Drawn once in the runner: its workers and reporter read that seed, not draws of their own.
  const env: NodeJS.ProcessEnv = { OMS_EXPLORE: '1' };
  const fixed = fixRunSeed(readSettings(env), env);
  expect(runSeed(readSettings(env))).toEqual(fixed);
});

test('a wrong value is one configuration error that names the variable and says what is wrong', () => {
  const wrong: Array<[NodeJS.ProcessEnv, string]> = [
    [{ OMS_PROFILE: 'gold' }, 'OMS_PROFILE must be one of core, strict, got "gold"'],
    [{ OMS_SEED: '1.5' }, 'OMS_SEED must be an integer, or random, got "1.5"'],
    [{ OMS_WORKERS: '0' }, 'OMS_WORKERS must be a positive integer, got "0"'],
    [{ OMS_BASE_URL: 'oms.example.com' }, 'OMS_BASE_URL is not a URL: "oms.example.com"'],
    [{ OMS_BASE_URL: 'ftp://oms.example.com' }, 'OMS_BASE_URL must start with http:// or https://'],
    [{ OMS_READ_ONLY: 'ture' }, 'OMS_READ_ONLY must be 1 to switch it on'],
    [{ OMS_RUN_ID: '../x' }, 'OMS_RUN_ID may hold only letters, digits'],
    [{ OMS_CLIENT_SECRET_B: 'only-the-secret' }, 'OMS_CLIENT_ID_B and OMS_CLIENT_SECRET_B go together'],
    // Values that cannot work are refused before the run, naming the range, instead of failing later as the server's fault.
    [{ OMS_REQUEST_TIMEOUT_MS: '0' }, 'OMS_REQUEST_TIMEOUT_MS must be a whole number of milliseconds from 1000 to 600000, got "0"'],
    [{ OMS_REQUEST_TIMEOUT_MS: '-1' }, 'OMS_REQUEST_TIMEOUT_MS must be a whole number of milliseconds from 1000 to 600000, got "-1"'],
    [{ OMS_REQUEST_TIMEOUT_MS: '100' }, 'OMS_REQUEST_TIMEOUT_MS must be a whole number of milliseconds from 1000 to 600000, got "100"'],
    [{ OMS_REQUEST_TIMEOUT_MS: '1e4' }, 'OMS_REQUEST_TIMEOUT_MS must be a whole number of milliseconds from 1000 to 600000, got "1e4"'],
    [{ OMS_MAX_RESPONSE_BYTES: '0' }, 'OMS_MAX_RESPONSE_BYTES must be a whole number of bytes from 1048576 to 1073741824, got "0"'],
    [{ OMS_MAX_RPS: '-1' }, 'OMS_MAX_RPS must be a whole number of requests per second from 1 to 100000, got "-1"'],
    [{ OMS_MAX_RPS: '0' }, 'OMS_MAX_RPS must be a whole number of requests per second from 1 to 100000, got "0"'],
  ];
  for (const [env, message] of wrong) {
    const error = (() => {
      try {
        readSettings(env);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error, message).toBeInstanceOf(SettingError);
    expect((error as SettingError).message).toContain(message);
  }
});

test('the ends of each range are accepted', () => {
  expect(readSettings({ OMS_REQUEST_TIMEOUT_MS: '1000', OMS_MAX_RESPONSE_BYTES: '1048576', OMS_MAX_RPS: '1' })).toMatchObject({ requestTimeoutMs: 1000, maxResponseBytes: 1048576, maxRps: 1 });
  expect(readSettings({ OMS_REQUEST_TIMEOUT_MS: '600000', OMS_MAX_RESPONSE_BYTES: '1073741824', OMS_MAX_RPS: '100000' })).toMatchObject({ requestTimeoutMs: 600000, maxResponseBytes: 1073741824, maxRps: 100000 });
});

test('blank means unset; tokens and secrets are taken as given, other text trimmed', () => {
  const settings = readSettings({ OMS_PROFILE: '  ', OMS_BASE_URL: ' https://oms.example.com/api/ ', OMS_TOKEN: ' tok en ' });
  expect([settings.profile, settings.baseUrl, settings.token]).toEqual(['core', 'https://oms.example.com/api', ' tok en ']);
});

test('only a configuration error is shown as the one line of exit code 2', () => {
  expect(configurationMessage(new ConfigurationError('OMS_TOKEN is not set'))).toBe('oms-conformance: OMS_TOKEN is not set');
  expect(configurationMessage(new Error('a bug'))).toBeUndefined();
});

test('OMS_* variables are read only in config/ (the reference server and the self-tests configure themselves)', () => {
  const readers = sourceFiles(ROOT)
    .filter((file) => !/^(config|reference|selftest)\//.test(file))
    .filter((file) => /\benv\.OMS_|\benv\[\s*['"`]OMS_/.test(readFileSync(join(ROOT, file), 'utf8')));
  expect(readers, 'read settings through config/settings.ts (readSettings, readSetting), not from the environment').toEqual([]);
});

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || ['node_modules', 'test-results', 'conformance-report'].includes(entry.name)) return [];
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) ? [relative(ROOT, path)] : [];
  });
}
