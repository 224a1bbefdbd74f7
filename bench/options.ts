import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FAULT_CLASSES, QUICK_FAULTS } from './failing';
import { LATENCIES, REPRESENTATIVE_FAULTS, TOOL_IDS, type NetworkOptions, type ToolId } from './network';
import { FAULTS } from '../selftest/reference/faults';

/** How much the bench measures. The default stays within a few minutes; --quick within seconds. */
export interface BenchOptions {
  quick: boolean;
  /** Side-by-side rounds of quick runs (embedded, and recorded at every account size). */
  rounds: number;
  /** Embedded thorough runs (each ~30 s); one recorded thorough run follows when above 0. */
  thoroughRuns: number;
  /** Account sizes (orders pre-filled in account A) for the scale table. */
  accountSizes: number[];
  /** Bare-client replays of each recorded quick run at the empty account. */
  replays: number;
  /** autocannon: seconds per endpoint and round, and rounds. */
  loadSeconds: number;
  loadRounds: number;
  /** Requests per test in the client-cost spec, and how many times it runs. */
  clientCounts: number[];
  clientRounds: number;
  /** Micro-benchmarks: timed passes and the minimum length of each. */
  microRepetitions: number;
  microPassMs: number;
  /** Reference faults whose quick runs are measured beside a passing one (bench/failing.ts). */
  faults: string[];
  /** Where results.json and results.md go; the README table is updated only for the default place. */
  outDir: string;
  /** Run one section alone (its figures merged into the results.json already there). */
  only?: 'network';
  /** The quick run and peer tools across a network (bench/network.ts); its rounds are --rounds. */
  network: NetworkOptions;
}

export const BENCH_DIR = __dirname;

const USAGE = `Usage: npm run bench [-- --quick] [--rounds N] [--thorough-runs N] [--sizes 0,1000,10000] [--faults a,b] [--out DIR]
                   [--only network] [--latencies 0,50,150] [--tools suite,dredd,...] [--network-faults a,b|all|none] [--no-install] [--baseline DIR]
  --quick            seconds, not minutes: one round, no thorough run, sizes 0 and 1000, short client and load tests;
                     the network section at 0 ms against one fault, with the peers already installed only
  --rounds N         side-by-side rounds of quick runs, and of the network section (default 3, at most 20)
  --thorough-runs N  embedded thorough runs (default 2, at most 5; one recorded thorough run follows)
  --sizes LIST       account sizes for the scale table (default 0,1000,10000; at most 100000)
  --faults LIST      reference faults whose quick runs are measured beside a passing one (default: one per class; --quick: two)
  --out DIR          write results.json and results.md there instead of bench/
  --only network     only the network section (the quick run and peer tools at 0, 50 and 150 ms), merged into results.json
  --latencies LIST   per-request delays of the network section's server, of 0, 50, 150 (default all three)
  --tools LIST       its tools, of ${TOOL_IDS.join(', ')} (default all)
  --network-faults X faults each tool runs against: a list of fault ids, "all" (every hand-written fault, ~30 min),
                     or "none" (default: ${REPRESENTATIVE_FAULTS.length} representative ones, bench/network.ts)
  --no-install       do not install missing peer tools (each is reported as not run, with the reason)
  --baseline DIR     a checkout of another commit, with node_modules installed: its suite runs beside this one in the
                     network section, every round, at every latency (wall, critical path, requests, orders, phases)`;

export function parseOptions(argv: string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const options: BenchOptions = quick
    ? {
        quick,
        rounds: 1,
        thoroughRuns: 0,
        accountSizes: [0, 1000],
        replays: 1,
        clientCounts: [20, 80],
        clientRounds: 1,
        loadSeconds: 1,
        loadRounds: 1,
        microRepetitions: 3,
        microPassMs: 50,
        faults: QUICK_FAULTS,
        outDir: BENCH_DIR,
        // No download in a run meant to take seconds: peers not in the cache are reported as not run.
        network: { latencies: [0], rounds: 1, tools: TOOL_IDS, faults: ['format-text-plain'], install: false, thorough: false },
      }
    : {
        quick,
        rounds: 3,
        thoroughRuns: 2,
        accountSizes: [0, 1000, 10000],
        replays: 3,
        clientCounts: [100, 800],
        clientRounds: 2,
        loadSeconds: 2,
        loadRounds: 3,
        microRepetitions: 5,
        microPassMs: 200,
        faults: FAULT_CLASSES.map((c) => c.fault),
        outDir: BENCH_DIR,
        network: { latencies: LATENCIES, rounds: 3, tools: TOOL_IDS, faults: REPRESENTATIVE_FAULTS, install: true, thorough: true },
      };
  for (let i = 0; i < argv.length; i++) {
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${argv[i - 1]} needs a value\n${USAGE}`);
      return next;
    };
    switch (argv[i]) {
      case '--quick':
        break;
      case '--rounds':
        options.rounds = bounded(value(), 1, 20, '--rounds');
        options.network.rounds = options.rounds;
        break;
      case '--thorough-runs':
        options.thoroughRuns = bounded(value(), 0, 5, '--thorough-runs');
        break;
      case '--sizes':
        options.accountSizes = [...new Set([0, ...value().split(',').map((size) => bounded(size, 0, 100_000, '--sizes'))])].sort((a, b) => a - b);
        break;
      case '--faults': {
        const faults = value().split(',');
        const unknown = faults.filter((fault) => !FAULTS.some((f) => f.id === fault));
        if (unknown.length || faults.length > 12) throw new Error(`--faults takes up to 12 fault ids of selftest/reference/faults, got ${unknown.join(', ') || faults.length}\n${USAGE}`);
        options.faults = faults;
        break;
      }
      case '--out':
        options.outDir = resolve(value());
        break;
      case '--only':
        if (value() !== 'network') throw new Error(`--only takes "network", got ${JSON.stringify(argv[i])}\n${USAGE}`);
        options.only = 'network';
        break;
      case '--latencies':
        options.network.latencies = listOf(value(), LATENCIES.map(String), '--latencies').map(Number);
        break;
      case '--tools':
        options.network.tools = listOf(value(), TOOL_IDS, '--tools') as ToolId[];
        break;
      case '--baseline': {
        const checkout = resolve(value());
        if (!existsSync(join(checkout, 'playwright.config.ts')) || !existsSync(join(checkout, 'node_modules', '@playwright', 'test'))) {
          throw new Error(`--baseline ${checkout}: not a checkout of this project with node_modules installed (npm ci there first)\n${USAGE}`);
        }
        options.network.baseline = checkout;
        break;
      }
      case '--network-faults': {
        const given = value();
        options.network.faults = given === 'all' ? FAULTS.map((f) => f.id) : given === 'none' ? [] : listOf(given, FAULTS.map((f) => f.id), '--network-faults');
        break;
      }
      case '--no-install':
        options.network.install = false;
        break;
      case '--help':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${argv[i]}\n${USAGE}`);
    }
  }
  return options;
}

/** A comma-separated list of known values, each once, in the order given. */
function listOf(text: string, known: string[], name: string): string[] {
  const values = [...new Set(text.split(',').map((v) => v.trim()).filter(Boolean))];
  const unknown = values.filter((v) => !known.includes(v));
  if (unknown.length || values.length === 0) throw new Error(`${name} takes a comma-separated list of ${known.length > 12 ? 'fault ids of selftest/reference/faults' : known.join(', ')}; got ${JSON.stringify(text)}\n${USAGE}`);
  return values;
}

function bounded(text: string, min: number, max: number, name: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} takes an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
  return value;
}
