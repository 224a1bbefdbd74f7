import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTING_NAMES, SETTINGS, type SettingName, type SettingSpec } from './settings-table';

/**
 * What the settings table tells people: the README's Configuration table and the defaults --help shows.
 * `npm run docs:settings` rewrites the README's table; selftest/settings.test.ts fails when it differs.
 */

export const README = join(__dirname, '..', 'README.md');

function spec(name: SettingName): SettingSpec<unknown> {
  return SETTINGS[name] as SettingSpec<unknown>;
}

/** A default worth showing: false (a switch left off) is as good as unset. */
function shownDefault(name: SettingName): string | undefined {
  const { value, default: fallback } = spec(name);
  return fallback === undefined || fallback === false ? undefined : value.format(fallback);
}

/** The default for --help, as " (default 15000)" or " (default: the embedded reference server)"; empty when unset means off. */
export function helpDefault(name: SettingName): string {
  const shown = shownDefault(name);
  const note = spec(name).defaultNote;
  if (shown !== undefined) return ` (default ${shown}${note ? `, ${note}` : ''})`;
  return note ? ` (default: ${note})` : '';
}

function readmeDefault(name: SettingName): string {
  const shown = shownDefault(name);
  const note = spec(name).defaultNote;
  if (shown !== undefined) return `\`${shown}\`${note ? ` (${note})` : ''}`;
  return note ? `unset: ${note}` : 'unset';
}

function readmeFlag(name: SettingName): string {
  const { flag, secret } = spec(name);
  if (!flag) return '';
  return [flag.name, ...(secret ? [`${flag.name}-file`] : [])].map((option) => `\`--${option}\``).join(', ');
}

/** The README's Configuration table: every setting a user sets, in the table's order. */
export function readmeSettingsTable(): string {
  const rows = SETTING_NAMES.filter((name) => !spec(name).internal).map(
    (name) => `| \`${spec(name).variable}\` | ${readmeFlag(name)} | ${spec(name).meaning} | ${readmeDefault(name)} |`,
  );
  return ['| Variable | Option | Meaning | Default |', '|---|---|---|---|', ...rows].join('\n');
}

const SECTION = '### Configuration';

/** Where the table stands in the README: the first block of table lines after the Configuration heading. */
export function settingsTableIn(readme: string): { start: number; end: number } {
  const lines = readme.split('\n');
  const heading = lines.indexOf(SECTION);
  if (heading < 0) throw new Error(`README.md has no "${SECTION}" heading`);
  const start = lines.findIndex((line, index) => index > heading && line.startsWith('|'));
  if (start < 0) throw new Error(`README.md has no table under "${SECTION}"`);
  let end = start;
  while (lines[end]?.startsWith('|')) end++;
  return { start, end };
}

export function currentReadmeTable(readme: string): string {
  const { start, end } = settingsTableIn(readme);
  return readme.split('\n').slice(start, end).join('\n');
}

/** The README with its Configuration table made anew from the settings table. */
export function withSettingsTable(readme: string): string {
  const { start, end } = settingsTableIn(readme);
  const lines = readme.split('\n');
  return [...lines.slice(0, start), readmeSettingsTable(), ...lines.slice(end)].join('\n');
}

if (require.main === module) {
  const before = readFileSync(README, 'utf8');
  const after = withSettingsTable(before);
  if (after !== before) writeFileSync(README, after);
  console.log(after === before ? 'README.md: the Configuration table is up to date' : 'README.md: the Configuration table was rewritten from config/settings-table.ts');
}
