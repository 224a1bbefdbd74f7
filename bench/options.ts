import { resolve } from 'node:path';
import { FAULT_CLASSES, QUICK_FAULTS } from './failing';
import { FAULTS } from '../reference/faults';

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
}

export const BENCH_DIR = __dirname;

const USAGE = `Usage: npm run bench [-- --quick] [--rounds N] [--thorough-runs N] [--sizes 0,1000,10000] [--faults a,b] [--out DIR]
  --quick            seconds, not minutes: one round, no thorough run, sizes 0 and 1000, short client and load tests
  --rounds N         side-by-side rounds of quick runs (default 3, at most 20)
  --thorough-runs N  embedded thorough runs (default 2, at most 5; one recorded thorough run follows)
  --sizes LIST       account sizes for the scale table (default 0,1000,10000; at most 100000)
  --faults LIST      reference faults whose quick runs are measured beside a passing one (default: one per class; --quick: two)
  --out DIR          write results.json and results.md there instead of bench/`;

export function parseOptions(argv: string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const options: BenchOptions = quick
    ? { quick, rounds: 1, thoroughRuns: 0, accountSizes: [0, 1000], replays: 1, clientCounts: [20, 80], clientRounds: 1, loadSeconds: 1, loadRounds: 1, microRepetitions: 3, microPassMs: 50, faults: QUICK_FAULTS, outDir: BENCH_DIR }
    : { quick, rounds: 3, thoroughRuns: 2, accountSizes: [0, 1000, 10000], replays: 3, clientCounts: [100, 800], clientRounds: 2, loadSeconds: 2, loadRounds: 3, microRepetitions: 5, microPassMs: 200, faults: FAULT_CLASSES.map((c) => c.fault), outDir: BENCH_DIR };
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
        if (unknown.length || faults.length > 12) throw new Error(`--faults takes up to 12 fault ids of reference/faults, got ${unknown.join(', ') || faults.length}\n${USAGE}`);
        options.faults = faults;
        break;
      }
      case '--out':
        options.outDir = resolve(value());
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

function bounded(text: string, min: number, max: number, name: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} takes an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
  return value;
}
