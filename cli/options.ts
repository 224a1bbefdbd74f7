/**
 * The command line, as one table: each option's name, its value, the OMS_* variable it sets (the
 * configuration contract, harness/settings.ts and reporter/settings.ts) and its help line.
 * The parser and the help text both come from this table.
 */
export type Command = 'run' | 'merge' | 'cleanup' | 'verify' | 'keygen' | 'expectations' | 'replay';

export interface OptionSpec {
  name: string;
  /** Placeholder of the value in the help; absent for a switch. */
  value?: string;
  /** The variable the option sets; the child process gets it through its environment, never its argv. */
  env?: string;
  /** The value is a file whose content (trimmed) is the variable's value: keeps secrets out of argv. */
  fromFile?: boolean;
  /** The value is a path, made absolute before it is passed on. */
  path?: boolean;
  help: string;
  commands: Command[];
}

const TARGET: Command[] = ['run', 'cleanup', 'replay'];

export const OPTIONS: OptionSpec[] = [
  { name: 'base-url', value: 'URL', env: 'OMS_BASE_URL', help: 'server under test (default: the embedded reference server)', commands: TARGET },
  { name: 'token', value: 'TOKEN', env: 'OMS_TOKEN', help: 'bearer token of account A (prefer --token-file or OMS_TOKEN: argv is visible to other users)', commands: TARGET },
  { name: 'token-file', value: 'FILE', env: 'OMS_TOKEN', fromFile: true, help: 'read the token of account A from FILE', commands: TARGET },
  { name: 'token-b', value: 'TOKEN', env: 'OMS_TOKEN_B', help: 'bearer token of a second account B (isolation checks)', commands: TARGET },
  { name: 'token-b-file', value: 'FILE', env: 'OMS_TOKEN_B', fromFile: true, help: 'read the token of account B from FILE', commands: TARGET },
  { name: 'client-id', value: 'ID', env: 'OMS_CLIENT_ID', help: 'obtain the token from POST /token with this client id ...', commands: TARGET },
  { name: 'client-secret', value: 'SECRET', env: 'OMS_CLIENT_SECRET', help: '... and this client secret', commands: TARGET },
  { name: 'client-secret-file', value: 'FILE', env: 'OMS_CLIENT_SECRET', fromFile: true, help: 'read the client secret from FILE', commands: TARGET },
  { name: 'client-id-b', value: 'ID', env: 'OMS_CLIENT_ID_B', help: 'obtain account B\'s token from POST /token with this client id ...', commands: TARGET },
  { name: 'client-secret-b', value: 'SECRET', env: 'OMS_CLIENT_SECRET_B', help: '... and this client secret', commands: TARGET },
  { name: 'client-secret-b-file', value: 'FILE', env: 'OMS_CLIENT_SECRET_B', fromFile: true, help: 'read account B\'s client secret from FILE', commands: TARGET },
  { name: 'token-auth', value: 'form|json|basic', env: 'OMS_TOKEN_AUTH', help: 'how POST /token gets the client credentials (default: tries form, then json, then HTTP basic)', commands: TARGET },
  { name: 'profile', value: 'core|strict', env: 'OMS_PROFILE', help: 'core: MUST requirements gate (default); strict: MUST and SHOULD', commands: ['run'] },
  { name: 'effort', value: 'quick|thorough', env: 'OMS_EFFORT', help: 'how many generated cases the property tests run (default quick)', commands: ['run'] },
  { name: 'seed', value: 'N', env: 'OMS_SEED', help: 'seed of the generated tests; a run is replayed by its seed (default: a new one, printed in the report)', commands: ['run'] },
  { name: 'read-only', env: 'OMS_READ_ONLY', help: 'send only requests that change nothing; checks that need writes are skipped', commands: ['run'] },
  { name: 'grep', value: 'REGEXP', help: 'run only the tests whose title or tags match (e.g. @ORD-LIST-003, @MUST); the report says it is partial', commands: ['run'] },
  { name: 'grep-invert', value: 'REGEXP', help: 'skip the tests whose title or tags match; the report says it is partial', commands: ['run'] },
  { name: 'shard', value: 'I/N', help: 'run shard I of N and write a blob report for `merge` (needs --seed, the same on every shard)', commands: ['run'] },
  { name: 'workers', value: 'N', env: 'OMS_WORKERS', help: 'parallel workers (default 2)', commands: ['run', 'replay'] },
  { name: 'max-rps', value: 'N', env: 'OMS_MAX_RPS', help: 'at most N requests per second, across all workers', commands: ['run'] },
  { name: 'request-timeout', value: 'MS', env: 'OMS_REQUEST_TIMEOUT_MS', help: 'total deadline of one response, body included (default 15000)', commands: TARGET },
  { name: 'max-response-bytes', value: 'N', env: 'OMS_MAX_RESPONSE_BYTES', help: 'largest response body read, after decoding (default 10485760)', commands: TARGET },
  { name: 'out', value: 'DIR', env: 'OMS_REPORT_DIR', path: true, help: 'report directory (default conformance-report)', commands: ['run', 'merge'] },
  { name: 'expect', value: 'FILE', env: 'OMS_EXPECT', path: true, help: 'expectations file: requirement ids the server is known to fail, with reasons (and until dates)', commands: ['run', 'merge', 'expectations'] },
  { name: 'times', value: 'N', help: 'replay: run the failed requirements N times (default 1), to tell FIXED from FLAKY', commands: ['replay'] },
  { name: 'prune', value: 'REPORT.json', help: 'expectations: list the entries that pass in this report, or have expired', commands: ['expectations'] },
  { name: 'har', env: 'OMS_HAR', help: 'also write the exchanges of the failures as HAR 1.2 (failures.har), secrets redacted', commands: ['run', 'merge'] },
  { name: 'sign-key', value: 'KEY.pem', env: 'OMS_SIGN_KEY', path: true, help: 'sign report.json with this Ed25519 private key (see keygen)', commands: ['run', 'merge'] },
  { name: 'run-id', value: 'ID', env: 'OMS_RUN_ID', help: 'run id (default: a new one); cleanup: the run whose orders to delete', commands: ['run', 'cleanup'] },
  { name: 'all-runs', help: 'cleanup: every run that has a ledger', commands: ['cleanup'] },
  { name: 'ledger', value: 'DIR', env: 'OMS_LEDGER_DIR', path: true, help: 'where the ledgers of created orders are kept (default .oms-ledger)', commands: ['run', 'cleanup'] },
  { name: 'dry-run', help: 'cleanup: list what would be deleted, delete nothing', commands: ['cleanup'] },
  { name: 'pub', value: 'KEY.pub', path: true, help: 'verify: the Ed25519 public key the report must be signed with', commands: ['verify'] },
  { name: 'help', help: 'show this help', commands: ['run', 'merge', 'cleanup', 'verify', 'keygen', 'expectations', 'replay'] },
  { name: 'version', help: 'print the suite version', commands: ['run'] },
];

/** A mistake on the command line: one line, exit code 2. */
export class UsageError extends Error {}

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
    return `${left.padEnd(34)} ${o.help}${o.env ? ` [${o.env}]` : ''}`;
  });
  return rows.join('\n');
}
