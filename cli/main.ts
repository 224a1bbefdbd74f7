import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configurationMessage, EXIT_CODE } from '../config/exit-codes';
import { redact } from '../config/redaction';
import { PACKAGE_ROOT } from '../reporter/run-info';
import { optionHelp, parseOptions, UsageError, type Parsed } from './options';
import type { Command } from '../config/settings-table';

const COMMANDS: Record<Command, { usage: string; about: string }> = {
  run: { usage: 'oms-conformance [run] [options]', about: 'run the conformance suite against a server and write the report' },
  merge: { usage: 'oms-conformance merge DIR... [--out DIR]', about: 'merge the --out directories of `run --shard I/N` into one report' },
  cleanup: { usage: 'oms-conformance cleanup (--run-id ID | --all-runs) [options]', about: 'delete the orders a run created and left behind (from its ledger), and only those' },
  verify: { usage: 'oms-conformance verify REPORT.json (--pub KEY.pub | --integrity-only)', about: 'check the signature and hashes of a report (or, asked for, only the hashes of its other files)' },
  keygen: { usage: 'oms-conformance keygen KEY.pem', about: 'write a new Ed25519 key pair for --sign-key (KEY.pem) and verify --pub (KEY.pub)' },
  expectations: { usage: 'oms-conformance expectations --prune REPORT.json [--expect FILE]', about: 'list the expectations entries that pass in a report, or have expired' },
  replay: { usage: 'oms-conformance replay REPORT.json [--times N] [--out DIR] [options]', about: 'run again exactly the failed requirements of a report, with their seeds and paths; FIXED, STILL FAILING or FLAKY each' },
  diff: { usage: 'oms-conformance diff OLD/report.json NEW/report.json [--fail-on-observed] [--json FILE]', about: 'what changed between two reports: requirements whose status changed, observed behaviours that changed' },
  judge: { usage: 'oms-conformance judge TRAFFIC.har [--base-url URL] [--profile P] [--json FILE]', about: 'judge recorded traffic (a HAR) with the suite\'s checks, sending no request; what the traffic cannot show is "not judged"' },
  proxy: {
    usage: 'oms-conformance proxy --base-url URL [--port N] [--out DIR] [--requests N] [--duration SECONDS] [--profile P]',
    about: "a local proxy in front of the server: your own client's requests go through it and are judged live with judge's checks; on exit the HAR and judge's report",
  },
};

/**
 * Each command's module, loaded only when that command runs: `--help` or a diff does not pay for loading
 * the others (judge's checks load Playwright's test library, over a second of start-up).
 */
const COMMAND_RUNNERS: Record<Command, (parsed: Parsed) => number | Promise<number>> = {
  run: (parsed) => (require('./run') as typeof import('./run')).run(parsed),
  merge: (parsed) => (require('./merge') as typeof import('./merge')).merge(parsed),
  cleanup: (parsed) => (require('./cleanup') as typeof import('./cleanup')).cleanup(parsed),
  verify: (parsed) => (require('./verify') as typeof import('./verify')).verify(parsed),
  keygen: (parsed) => (require('./verify') as typeof import('./verify')).keygen(parsed),
  expectations: (parsed) => (require('./expectations') as typeof import('./expectations')).expectations(parsed),
  replay: (parsed) => (require('./replay') as typeof import('./replay')).replay(parsed),
  diff: (parsed) => (require('./diff') as typeof import('./diff')).diff(parsed),
  judge: (parsed) => (require('./judge') as typeof import('./judge')).judge(parsed),
  proxy: (parsed) => (require('./proxy') as typeof import('./proxy')).proxy(parsed),
};

/** The `oms-conformance` command: parses the command line and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const command = (Object.keys(COMMANDS) as Command[]).find((name) => name === argv[0]);
  const rest = command ? argv.slice(1) : argv;
  const name = command ?? 'run';
  try {
    if (!command && argv[0] && !argv[0].startsWith('-')) throw new UsageError(`unknown command ${JSON.stringify(argv[0])}; commands: ${Object.keys(COMMANDS).join(', ')}`);
    const parsed = parseOptions(name, rest);
    if (parsed.options.has('version')) {
      console.log(`oms-conformance ${version()}`);
      return EXIT_CODE.conformant;
    }
    if (parsed.options.has('help')) {
      console.log(help(name));
      return EXIT_CODE.conformant;
    }
    return await COMMAND_RUNNERS[name](parsed);
  } catch (error) {
    // A configuration problem is one line; anything else is a bug, shown whole but never with a secret in it.
    console.error(configurationMessage(error) ?? `oms-conformance: ${redact(String((error as Error).stack ?? error))}`);
    return EXIT_CODE.configuration;
  }
}

function version(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

function help(command: Command): string {
  const { usage, about } = COMMANDS[command];
  const lines = [`Usage: ${usage}`, '', `${about[0].toUpperCase()}${about.slice(1)}.`, '', 'Options:', optionHelp(command)];
  if (command === 'run') {
    lines.push(
      '',
      'Commands:',
      ...(Object.keys(COMMANDS) as Command[]).map((name) => `  ${name.padEnd(13)} ${COMMANDS[name].about}`),
      '',
      'Every option also has its environment variable (in brackets); an option wins over the variable.',
      '',
      'Exit codes (config/exit-codes.ts):',
      ...(
        [
          [EXIT_CODE.conformant, 'conformant in the chosen profile (known failures from --expect aside); the verdict line says when the run was incomplete, and which settings would complete it'],
          [EXIT_CODE.violations, 'not conformant: a gating requirement failed (see the report)'],
          [EXIT_CODE.configuration, 'configuration error, or not this interface (one line says what to fix; no test ran)'],
          [EXIT_CODE.inconclusive, 'inconclusive: none failed, but the server left a gating requirement without evidence (the report lists what)'],
          [EXIT_CODE.serviceUnreachable, 'proxy only: none of the requests sent through it reached the --base-url service (nothing judged)'],
          [EXIT_CODE.interrupted, 'interrupted (Ctrl-C, a global timeout): nothing is judged from a test it cut short; what the run created is still deleted'],
        ] as const
      ).map(([code, meaning]) => `  ${String(code).padStart(3)}  ${meaning}`),
      '',
      'Examples:',
      '  OMS_TOKEN=... oms-conformance --base-url https://oms.example.com/api --out report',
      '  oms-conformance --base-url $URL --token-file token.txt --profile strict --expect known.yaml',
      '  oms-conformance --shard 1/2 --seed 42 --out shard-1 && oms-conformance merge shard-1 shard-2 --out report',
      '  oms-conformance diff release-1/report.json release-2/report.json',
      '  oms-conformance judge traffic.har --base-url https://oms.example.com/api',
      '  oms-conformance proxy --base-url https://staging.example.com/api --port 8080   (then point your client at http://127.0.0.1:8080)',
    );
  }
  return lines.join('\n');
}
