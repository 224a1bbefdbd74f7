import type { CommandCredentials } from './command-credentials';
import type { RunInfo } from './run-info';
import { TOKEN_AUTH_METHODS } from './token-auth';
import { choice, credential, directoryOrOff, httpUrl, integer, integerIn, json, onOff, path, positiveInteger, runId, seed as seedValue, text, type ValueKind } from './values';
import { SEED_SOURCES } from './run-info';

/** The commands of oms-conformance (cli/options.ts): the ones that take each setting's option. */
export type Command = 'run' | 'merge' | 'cleanup' | 'verify' | 'keygen' | 'expectations' | 'replay' | 'diff' | 'judge' | 'proxy';

/**
 * One setting of the suite: the one place its variable, option, default, check and meaning are written.
 * The settings reader (config/settings.ts), the command's options and --help (cli/options.ts) and the
 * README's Configuration table (config/docs.ts, checked by selftest/settings.test.ts) all come from here.
 */
export interface SettingSpec<T, D extends T | undefined = T | undefined> {
  /** The environment variable: a public name, other tools drive the suite through it. */
  variable: `OMS_${string}`;
  /** How its text is checked and read. */
  value: ValueKind<T>;
  /** The value when the variable is unset or blank. */
  default: D;
  /** What the default means where the value alone does not say it ("the embedded reference server"). */
  defaultNote?: string;
  /** The command-line option that sets the variable, the commands that take it, and its --help line. */
  flag?: { name: string; commands: readonly Command[]; help: string };
  /** A token or secret: shown as $VARIABLE wherever output would hold it; the command also reads it from a file (--<flag>-file). */
  secret?: true;
  /** Set together with this setting or not at all (a client id and its secret). */
  goesWith?: string;
  /** What it does, for the README's Configuration table (Markdown). */
  meaning: string;
  /** Set by the suite for its own processes, never by a user: not in the README. */
  internal?: true;
}

/** A setting whose default is a value: never undefined once read. */
function setting<T>(spec: SettingSpec<T, NoInfer<T>>): SettingSpec<T, T>;
/** A setting that may stay unset. */
function setting<T>(spec: SettingSpec<T, undefined>): SettingSpec<T, undefined>;
function setting<T>(spec: SettingSpec<T>): SettingSpec<T> {
  return spec;
}

/** The commands that talk to a server. */
const TARGET: Command[] = ['run', 'cleanup', 'replay'];

/** Every setting, in the README's order. */
export const SETTINGS = {
  baseUrl: setting({
    variable: 'OMS_BASE_URL',
    value: httpUrl,
    default: undefined,
    defaultNote: 'the embedded reference server',
    flag: { name: 'base-url', commands: [...TARGET, 'judge', 'proxy'], help: 'server under test (judge: the base URL the recorded traffic went to; proxy: the server it forwards to)' },
    meaning: 'Base URL of the server under test, with any path prefix.',
  }),
  token: setting({
    variable: 'OMS_TOKEN',
    value: credential('TOKEN'),
    default: undefined,
    secret: true,
    flag: { name: 'token', commands: TARGET, help: 'bearer token of account A' },
    meaning: 'Bearer token of account A (the account the suite works in); required with `OMS_BASE_URL`, unless `OMS_CLIENT_ID` and `OMS_CLIENT_SECRET` are set.',
  }),
  clientId: setting({
    variable: 'OMS_CLIENT_ID',
    value: credential('ID'),
    default: undefined,
    goesWith: 'clientSecret',
    flag: { name: 'client-id', commands: TARGET, help: 'obtain the token from POST /token with this client id ...' },
    meaning:
      "Obtain account A's token from `POST /token` instead (OAuth 2.0 client credentials), with `OMS_CLIENT_SECRET`. A new token is fetched shortly before `expires_in` runs out, and once for a request answered 401.",
  }),
  clientSecret: setting({
    variable: 'OMS_CLIENT_SECRET',
    value: credential('SECRET'),
    default: undefined,
    secret: true,
    flag: { name: 'client-secret', commands: TARGET, help: '... and this client secret' },
    meaning: 'The client secret that goes with `OMS_CLIENT_ID`: set both, or neither.',
  }),
  tokenB: setting({
    variable: 'OMS_TOKEN_B',
    value: credential('TOKEN'),
    default: undefined,
    secret: true,
    flag: { name: 'token-b', commands: TARGET, help: 'bearer token of a second account B (isolation checks)' },
    meaning: 'Optional second account, for the isolation checks (ORD-ISO-*). Without it (or `OMS_CLIENT_ID_B` and `OMS_CLIENT_SECRET_B`) they are reported as skipped, with that reason.',
  }),
  clientIdB: setting({
    variable: 'OMS_CLIENT_ID_B',
    value: credential('ID'),
    default: undefined,
    goesWith: 'clientSecretB',
    flag: { name: 'client-id-b', commands: TARGET, help: "obtain account B's token from POST /token with this client id ..." },
    meaning: "Obtain account B's token from `POST /token`, as for account A, with `OMS_CLIENT_SECRET_B`.",
  }),
  clientSecretB: setting({
    variable: 'OMS_CLIENT_SECRET_B',
    value: credential('SECRET'),
    default: undefined,
    secret: true,
    flag: { name: 'client-secret-b', commands: TARGET, help: '... and this client secret' },
    meaning: 'The client secret that goes with `OMS_CLIENT_ID_B`: set both, or neither.',
  }),
  tokenAuth: setting({
    variable: 'OMS_TOKEN_AUTH',
    value: choice(TOKEN_AUTH_METHODS),
    default: undefined,
    defaultNote: 'each tried, in that order',
    flag: { name: 'token-auth', commands: TARGET, help: 'how POST /token gets the client credentials' },
    meaning:
      'How `POST /token` gets the client credentials: `form` (RFC 6749 §4.4), `json`, or `basic` (HTTP Basic, RFC 6749 §2.3.1). The run prints which worked and `report.json` records it (`target.tokenAuth`).',
  }),
  profile: setting({
    variable: 'OMS_PROFILE',
    value: choice(['core', 'strict']),
    default: 'core',
    flag: { name: 'profile', commands: ['run', 'judge', 'proxy'], help: 'core: MUST requirements gate; strict: MUST and SHOULD' },
    meaning: '`core`: only MUST requirements fail the run. `strict`: SHOULD requirements fail it too.',
  }),
  effort: setting({
    variable: 'OMS_EFFORT',
    value: choice(['quick', 'thorough']),
    default: 'quick',
    flag: { name: 'effort', commands: ['run'], help: 'how many generated cases the property tests run' },
    meaning:
      '`quick` (CI gating) or `thorough` (certification): how many generated cases the property tests run. `thorough` also explores: without `OMS_SEED` it draws a new seed each run.',
  }),
  seed: setting({
    variable: 'OMS_SEED',
    value: seedValue,
    default: undefined,
    defaultNote: 'derived from the suite version: the same on every run',
    flag: { name: 'seed', commands: ['run'], help: 'seed of the generated tests, or random; a run is replayed by its seed' },
    meaning:
      'The seed of the generated inputs. Unset, it is derived from the suite version, so the same server gets the same verdict and the same failed requirements on every run; `random` draws a new one each run (as `OMS_EXPLORE` does). Every run prints its seed and `report.json` records it (`seed`, `seedFrom`): the same seed replays the run exactly.',
  }),
  explore: setting({
    variable: 'OMS_EXPLORE',
    value: onOff,
    default: false,
    flag: { name: 'explore', commands: ['run'], help: 'draw new generated inputs (a new seed, printed) instead of the same ones every run' },
    meaning:
      '`1`: explore: a new seed each run, so the generated tests try new inputs (as `OMS_SEED=random` and `OMS_EFFORT=thorough` do; a seed given in `OMS_SEED` wins). The seed drawn is printed and recorded, so a failure replays, and what it finds is kept in the failure store.',
  }),
  failureStore: setting({
    variable: 'OMS_FAILURE_STORE',
    value: directoryOrOff('DIR'),
    default: '.oms-conformance/failures',
    flag: { name: 'failure-store', commands: ['run', 'replay'], help: 'where the counterexamples runs find are kept and replayed first (off: none)' },
    meaning:
      'Where every counterexample a generated test finds is kept, one file each (its test, requirement and shrunk input; safe to commit). Every run replays the stored counterexamples of a test before it draws new inputs, against whatever server it tests, so a failure found once, exploring or not, is never lost to a new draw; the report marks the failures that came from the store. An entry stays until its file is deleted. `off`: none kept, none replayed.',
  }),
  readOnly: setting({
    variable: 'OMS_READ_ONLY',
    value: onOff,
    default: false,
    flag: { name: 'read-only', commands: ['run'], help: 'send only requests that change nothing; checks that need writes are skipped' },
    meaning: '`1`: only requests that change nothing; checks that need writes are skipped with that reason.',
  }),
  requestTimeoutMs: setting({
    variable: 'OMS_REQUEST_TIMEOUT_MS',
    // Below a second no remote answer arrives; above ten minutes a silent server would hold the run for hours.
    value: integerIn('MS', 1_000, 600_000, 'milliseconds'),
    default: 15_000,
    flag: { name: 'request-timeout', commands: [...TARGET, 'proxy'], help: 'total deadline of one response, body included' },
    meaning:
      'Total deadline of one response: connect, headers and the whole body (one byte a second does not keep a request alive), 1000 to 600000. The preflight request has the same deadline. After 3 timeouts in a row the run stops, skips the rest with that reason, and is inconclusive.',
  }),
  maxResponseBytes: setting({
    variable: 'OMS_MAX_RESPONSE_BYTES',
    // A page of 100 orders with long texts is well over 64 KiB; a body over 1 GiB is not held in memory.
    value: integerIn('N', 1024 * 1024, 1024 * 1024 * 1024, 'bytes'),
    default: 10 * 1024 * 1024,
    defaultNote: '10 MiB',
    flag: { name: 'max-response-bytes', commands: [...TARGET, 'proxy'], help: 'largest response body read, after decoding (proxy: judged; a longer one is still passed on whole)' },
    meaning: 'Largest response body read, after gzip/deflate/br decoding, 1 MiB to 1 GiB; a larger one ends its request with an error.',
  }),
  maxRps: setting({
    variable: 'OMS_MAX_RPS',
    value: integerIn('N', 1, 100_000, 'requests per second'),
    default: undefined,
    defaultNote: 'no cap',
    flag: { name: 'max-rps', commands: ['run'], help: 'at most N requests per second, across all workers' },
    meaning: 'Cap on requests per second, shared by all workers: 1 to 100000.',
  }),
  workers: setting({
    variable: 'OMS_WORKERS',
    value: positiveInteger('N'),
    default: undefined,
    defaultNote: '1',
    flag: { name: 'workers', commands: ['run', 'replay'], help: 'parallel workers (processes)' },
    meaning:
      'Parallel Playwright workers (processes, about 170 MB each). One by default: across a network a worker runs the requests of many tests at once (harness/schedule/scheduler.ts), keeping apart the tests no write of the run may meet. With more, those run in a second phase (config/phases.ts) and each worker of the first runs its tests one at a time: only for a run whose CPU, not its round trips, is the limit.',
  }),
  concurrency: setting({
    variable: 'OMS_CONCURRENCY',
    value: positiveInteger('N'),
    default: undefined,
    defaultNote: 'from the round trip: 4 on the same machine, 16 to 96 across a network',
    flag: { name: 'concurrency', commands: ['run', 'replay'], help: 'requests in flight at once per worker, at most' },
    meaning:
      'Requests of one worker in flight at once, at most: the requests of the tests it runs at once, independent generated runs, list pages and probes go out together up to it (`OMS_MAX_RPS` and 429 waits still hold). By default the round trip decides, for the whole run: 4 below 10 ms (one test at a time), then 0.8 per ms of round trip (at most 800 requests a second, as four workers of sixteen sent a server 20 ms away), from 16 to 96, shared by the workers of the first phase; the worker of the tests that run alone (after the others, `config/phases.ts`) has every worker\'s share. Verdicts do not depend on it: the same seed gives the same ones at any concurrency.',
  }),
  listSettleMs: setting({
    variable: 'OMS_LIST_SETTLE_MS',
    value: integer('MS'),
    default: 5_000,
    flag: { name: 'list-settle', commands: ['run', 'replay', 'judge', 'proxy'], help: 'how long a write may take to show in the list (judge, proxy: a list read sooner after a delete is not judged on it)' },
    meaning:
      'How long a create, update or delete may take to show in `GET /orders` (a list served from an index or a replica lags behind writes; the document says nothing of list consistency). A list that does not show a write yet is read again until then, and judged on the last read: a change never shown within it is still a violation. `0` judges the first read.',
  }),
  roundTripMs: setting({
    variable: 'OMS_ROUND_TRIP_MS',
    value: integer('MS'),
    default: undefined,
    internal: true,
    meaning: 'The round trip to the server measured at start (harness/http/round-trip.ts), handed to the workers to size their concurrency.',
  }),
  seedFrom: setting({
    variable: 'OMS_SEED_FROM',
    value: choice(SEED_SOURCES),
    default: undefined,
    internal: true,
    meaning: 'Where the runner took the seed it hands its workers and reporter in `OMS_SEED` from (config/seed.ts): given, derived from the suite version, or drawn.',
  }),
  reportDir: setting({
    variable: 'OMS_REPORT_DIR',
    value: path('DIR'),
    default: 'conformance-report',
    flag: { name: 'out', commands: ['run', 'merge', 'replay', 'proxy'], help: 'report directory (replay: where the reports of its runs go, default replay-report; proxy: traffic.har and traffic-report.json, default proxy-report)' },
    meaning: 'Where the conformance report is written.',
  }),
  replayPath: setting({
    variable: 'OMS_PATH',
    value: text('PATH'),
    default: undefined,
    flag: { name: 'path', commands: ['run'], help: 'with --seed and --test, replay one shrunk counterexample exactly as a failure printed it' },
    meaning: 'With `OMS_SEED`, replays one shrunk counterexample exactly as a failure printed it.',
  }),
  expectationsFile: setting({
    variable: 'OMS_EXPECT',
    value: path('FILE'),
    default: undefined,
    flag: { name: 'expect', commands: ['run', 'merge', 'expectations'], help: 'expectations file: requirement ids the server is known to fail, with reasons (and until dates)' },
    meaning: 'Expectations file: requirement ids the server is known to fail, with reasons (a regression gate).',
  }),
  signingKeyFile: setting({
    variable: 'OMS_SIGN_KEY',
    value: path('KEY.pem'),
    default: undefined,
    flag: { name: 'sign-key', commands: ['run', 'merge'], help: 'sign report.json with this Ed25519 private key (see keygen)' },
    meaning: 'Ed25519 private key (PEM) that signs `report.json`.',
  }),
  har: setting({
    variable: 'OMS_HAR',
    value: onOff,
    default: false,
    flag: { name: 'har', commands: ['run', 'merge'], help: 'also write the exchanges of the failures as HAR 1.2 (failures.har), secrets redacted' },
    meaning: '`1`: also write `failures.har`, the exchanges of the failures as HAR 1.2, secrets redacted.',
  }),
  ledgerDir: setting({
    variable: 'OMS_LEDGER_DIR',
    value: path('DIR'),
    default: '.oms-ledger',
    flag: { name: 'ledger', commands: ['run', 'cleanup'], help: 'where the ledgers of created orders are kept' },
    meaning: 'Where each run records the orders it created, for `oms-conformance cleanup`.',
  }),
  runId: setting({
    variable: 'OMS_RUN_ID',
    value: runId,
    default: undefined,
    defaultNote: 'a new one per run',
    flag: { name: 'run-id', commands: ['run', 'cleanup'], help: 'run id; cleanup: the run whose orders to delete' },
    meaning: 'Names the run in its report and its ledger (`oms-conformance cleanup --run-id`): letters, digits, `.`, `_` and `-`.',
  }),
  givenAsOptions: setting({
    variable: 'OMS_GIVEN_AS_OPTIONS',
    value: json<Record<string, string[]>>(),
    default: undefined,
    internal: true,
    meaning:
      'Set by the command: which settings it took from its options, as given (`{"baseUrl":["--base-url","https://…"],"token":["--token-file","/abs/token.txt"]}`; a secret given on the command line as its option alone), so that messages name what the user gave and a replay line repeats it (config/settings.ts `settingName`, `optionWords`).',
  }),
  commandCredentials: setting({
    variable: 'OMS_COMMAND_CREDENTIALS',
    value: json<CommandCredentials>(),
    default: undefined,
    internal: true,
    meaning:
      'Set by the run as it starts: how a printed curl line gets each account\'s token in the user\'s shell, from what the user gave (`{"A":{"token":{"file":"/abs/a.token"}}}`, or a sign-in with the client credentials), never a secret (config/command-credentials.ts).',
  }),
  mergedRun: setting({
    variable: 'OMS_MERGED_RUN',
    value: json<RunInfo>(),
    default: undefined,
    internal: true,
    meaning: 'What the shards ran, checked to agree: `oms-conformance merge` hands it to the reporter of the merged run.',
  }),
};

export type SettingName = keyof typeof SETTINGS;

/** The setting names, in the table's order. */
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];
