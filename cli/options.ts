import { helpDefault } from '../config/docs';
import { ConfigurationError } from '../config/exit-codes';
import { SETTING_NAMES, SETTINGS, type Command, type SettingName } from '../config/settings-table';

/**
 * The command line, as one table: each option's name, its value, the setting it sets (config/settings-table.ts,
 * where the options of settings come from) and its help line. The parser and the help text both come from this table.
 */
export interface OptionSpec {
  name: string;
  /** Placeholder of the value in the help; absent for a switch. */
  value?: string;
  /** The setting the option sets; the child process gets it through its environment variable, never its argv. */
  setting?: SettingName;
  /** The value is a file whose content (trimmed) is the setting's value: keeps secrets out of argv. */
  fromFile?: boolean;
  /** The value is a path, made absolute before it is passed on. */
  path?: boolean;
  help: string;
  commands: readonly Command[];
}

/** An option per setting that has one, and for a secret a second one that reads it from a file. */
function settingOptions(): OptionSpec[] {
  return SETTING_NAMES.flatMap((setting): OptionSpec[] => {
    const { flag, value, secret } = SETTINGS[setting];
    if (!flag) return [];
    const { name, commands, help } = flag;
    const option: OptionSpec = { name, value: value.placeholder, setting, path: value.isPath, help: `${help}${helpDefault(setting)}`, commands };
    if (!secret) return [option];
    return [
      { ...option, help: `${option.help}; prefer --${name}-file or ${SETTINGS[setting].variable}: argv is visible to other users` },
      { name: `${name}-file`, value: 'FILE', setting, fromFile: true, help: `read --${name} from FILE`, commands },
    ];
  });
}

/** Options of the commands themselves: they select, repeat or act on something, and set no setting. */
const COMMAND_OPTIONS: OptionSpec[] = [
  { name: 'grep', value: 'REGEXP', help: 'run only the tests whose title or tags match (e.g. @ORD-LIST-003, @MUST); the report says it is partial', commands: ['run'] },
  { name: 'grep-invert', value: 'REGEXP', help: 'skip the tests whose title or tags match; the report says it is partial', commands: ['run'] },
  {
    name: 'test',
    value: 'FILE:LINE',
    help: "run only the suite's test at FILE:LINE (with --seed and --path: the one counterexample a failure's replay line names); the report says it is partial",
    commands: ['run'],
  },
  { name: 'shard', value: 'I/N', help: 'run shard I of N and write a blob report for `merge` (exploring needs --seed, the same on every shard)', commands: ['run'] },
  { name: 'times', value: 'N', help: 'replay: run the failed requirements N times (default 1), to tell FIXED from FLAKY', commands: ['replay'] },
  { name: 'prune', value: 'REPORT.json', help: 'expectations: list the entries that pass in this report, or have expired', commands: ['expectations'] },
  { name: 'all-runs', help: 'cleanup: every run that has a ledger', commands: ['cleanup'] },
  { name: 'dry-run', help: 'cleanup: list what would be deleted, delete nothing', commands: ['cleanup'] },
  { name: 'pub', value: 'KEY.pub', path: true, help: 'verify: the Ed25519 public key the report must be signed with', commands: ['verify'] },
  { name: 'fail-on-observed', help: 'diff: exit 1 also when an observed behaviour changed', commands: ['diff'] },
  { name: 'json', value: 'FILE', path: true, help: 'diff, judge: also write the result as JSON to FILE', commands: ['diff', 'judge'] },
  {
    name: 'integrity-only',
    help: 'verify without --pub: check only that the other files match the hashes report.json records (report.json itself can then be edited unnoticed)',
    commands: ['verify'],
  },
  { name: 'port', value: 'N', help: 'proxy: the local port it listens on, 127.0.0.1 only (default: a free one, printed)', commands: ['proxy'] },
  { name: 'requests', value: 'N', help: 'proxy: stop after N exchanges and write the report', commands: ['proxy'] },
  { name: 'duration', value: 'SECONDS', help: 'proxy: stop after SECONDS and write the report', commands: ['proxy'] },
  { name: 'help', help: 'show this help', commands: ['run', 'merge', 'cleanup', 'verify', 'keygen', 'expectations', 'replay', 'diff', 'judge', 'proxy'] },
  { name: 'version', help: 'print the suite version', commands: ['run'] },
];

export const OPTIONS: OptionSpec[] = [...settingOptions(), ...COMMAND_OPTIONS];

/** A mistake on the command line: one line, exit code 2. */
export class UsageError extends ConfigurationError {}

export interface Parsed {
  options: Map<string, string | true>;
  positionals: string[];
}

export function parseOptions(command: Command, argv: string[]): Parsed {
  const options = new Map<string, string | true>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const [flag, inline] = arg.startsWith('--') ? splitOnce(arg.slice(2), '=') : [arg === '-h' ? 'help' : arg.slice(1), undefined];
    const spec = OPTIONS.find((o) => o.name === flag);
    if (!spec || !spec.commands.includes(command)) {
      const other = spec ? ` (it belongs to: ${spec.commands.join(', ')})` : '';
      throw new UsageError(`unknown option ${arg.split('=')[0]} for ${command}${other}; see oms-conformance ${command === 'run' ? '' : `${command} `}--help`);
    }
    if (options.has(spec.name)) throw new UsageError(`--${spec.name} is given twice`);
    if (!spec.value) {
      if (inline !== undefined) throw new UsageError(`--${spec.name} takes no value`);
      options.set(spec.name, true);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`--${spec.name} needs a value (${spec.value})`);
    options.set(spec.name, value);
  }
  return { options, positionals };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

export function optionHelp(command: Command): string {
  const rows = OPTIONS.filter((o) => o.commands.includes(command)).map((o) => {
    const left = `  --${o.name}${o.value ? ` ${o.value}` : ''}`;
    return `${left.padEnd(34)} ${o.help}${o.setting ? ` [${SETTINGS[o.setting].variable}]` : ''}`;
  });
  return rows.join('\n');
}
