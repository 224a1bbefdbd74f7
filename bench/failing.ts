import { loadavg } from 'node:os';
import { FAULTS } from '../selftest/reference/faults';
import { recordedRun } from './measure';
import type { WallTimes } from './stats';
import { median, ratio, round } from './stats';
import { runEmbedded, wallTimes, type SuiteRun } from './suite';

/**
 * A passing quick run and quick runs against reference faults of several classes, side by side (each
 * round runs every kind once, so load drift hits all alike), with what each printed, and the bare-client
 * replay of a passing run's requests (the floor). Issue 15: a failing run should cost no more than
 * 1.5 times a passing one, whatever the fault.
 *
 *   npx tsx bench/failing.ts [--rounds N] [--faults id,id|all]   this phase alone (npm run bench includes it); all: every fault of the reference server
 */
export const FAULT_CLASSES: ReadonlyArray<{ faultClass: string; fault: string }> = [
  { faultClass: 'paging (pages 3+ overlap)', fault: 'list-page-three-overlap' },
  { faultClass: 'content type (every response)', fault: 'format-text-plain' },
  { faultClass: 'authentication', fault: 'auth-no-token-accepted' },
  { faultClass: 'generated round trip (non-ASCII)', fault: 'update-mangles-non-ascii' },
  { faultClass: 'meta.total race under parallel creates', fault: 'concurrency-total-drifts-under-parallel-creates' },
  // Its server sleeps 10 ms in every create (the window of the race): ~250 creates make its runs slower whatever the suite does.
  { faultClass: 'duplicate ids under parallel creates (10 ms per create)', fault: 'concurrency-duplicate-ids' },
];

/** Two classes in --quick mode: the one that fails every response, and one that only generated tests see. */
export const QUICK_FAULTS = ['format-text-plain', 'update-mangles-non-ascii'];

export interface PrintedRuns extends WallTimes {
  /** Lines and bytes printed to the terminal, median. */
  medianLines: number | null;
  medianBytes: number | null;
}

export interface FailingRow extends PrintedRuns {
  faultClass: string;
  fault: string;
  /** Median wall and CPU time against the passing run's medians. */
  ratioWall: number | null;
  ratioCpu: number | null;
}

export interface FailingRuns {
  rounds: number;
  passing: PrintedRuns;
  failing: FailingRow[];
  /** The bare-client replay of a recorded passing quick run: its requests, wall and CPU time. */
  floor: { requests: number; wallMs: number; cpuMs: number };
}

/** Failing runs between two passing ones. */
const PASSING_RUN_EVERY = 8;

export async function failingRuns(rounds: number, faults: string[], log: (line: string) => void): Promise<FailingRuns> {
  // A fault without a class of its own is named by its area, the first word of its id (list, create, auth …).
  const classes = faults.map((fault) => FAULT_CLASSES.find((c) => c.fault === fault) ?? { faultClass: fault.split('-')[0], fault });
  const passing: SuiteRun[] = [];
  const failing = new Map<string, SuiteRun[]>(faults.map((fault) => [fault, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const [index, { fault }] of classes.entries()) {
      // A passing run before every few faults: over a long list the machine's load drifts, and the ratios compare runs made close together.
      if (index % PASSING_RUN_EVERY === 0) {
        const clean = await runEmbedded('quick');
        passing.push(clean);
        log(`round ${round}: passing quick run ${seconds(clean.wallMs)} s, ${seconds(clean.cpuMs ?? NaN)} CPU-s, ${clean.outputLines} lines (exit ${clean.exitCode})`);
      }
      const run = await runEmbedded('quick', [], { OMS_FAULT: fault });
      failing.get(fault)!.push(run);
      log(`round ${round}: ${fault} ${seconds(run.wallMs)} s, ${seconds(run.cpuMs ?? NaN)} CPU-s, ${run.outputLines} lines (exit ${run.exitCode})`);
    }
  }
  const { profile, replayed } = await recordedRun('quick', 0, 1);
  const floor = { requests: profile.requests, wallMs: round(replayed[0].wallMs), cpuMs: round(replayed[0].cpuMs) };
  log(`floor: ${floor.requests} requests replayed by a bare client in ${seconds(floor.wallMs)} s, ${seconds(floor.cpuMs)} CPU-s`);
  const base = printedRuns(passing);
  return {
    rounds,
    passing: base,
    failing: classes.map(({ faultClass, fault }) => {
      const times = printedRuns(failing.get(fault)!);
      return {
        faultClass,
        fault,
        ...times,
        ratioWall: times.medianMs === null || base.medianMs === null ? null : round(ratio(times.medianMs, base.medianMs), 2),
        ratioCpu: times.medianCpuMs === null || base.medianCpuMs === null ? null : round(ratio(times.medianCpuMs, base.medianCpuMs), 2),
      };
    }),
    floor,
  };
}

function printedRuns(runs: SuiteRun[]): PrintedRuns {
  return {
    ...wallTimes(runs),
    medianLines: runs.length ? median(runs.map((r) => r.outputLines)) : null,
    medianBytes: runs.length ? median(runs.map((r) => r.outputBytes)) : null,
  };
}

/** The table of this phase, for results.md and the README. */
export function failingMarkdown(f: FailingRuns): string[] {
  const s = (ms: number | null) => (ms === null || !Number.isFinite(ms) ? '—' : `${(ms / 1000).toFixed(2)} s`);
  const row = (what: string, r: PrintedRuns, ratios: string) =>
    `| ${what} | ${r.runs} | ${s(r.medianMs)} | ${s(r.medianCpuMs)} | ${ratios} | ${r.medianLines ?? '—'} | ${r.exitCodes.join(', ')} |`;
  return [
    `### Failing runs against a passing one (quick, embedded server, ${f.rounds} round(s) side by side)`,
    '',
    '| Run | Runs | Wall, median | CPU, median | × passing (wall / CPU) | Lines printed | Exit codes |',
    '|---|---|---|---|---|---|---|',
    row('passing (no fault)', f.passing, '1 / 1'),
    ...f.failing.map((r) => row(`${r.faultClass}: \`${r.fault}\``, r, `${r.ratioWall ?? '—'} / ${r.ratioCpu ?? '—'}`)),
    `| bare-client replay of a passing run's ${f.floor.requests} requests (the floor) | 1 | ${s(f.floor.wallMs)} | ${s(f.floor.cpuMs)} | — | — | — |`,
    '',
    'CPU counts the command and every process it started (the floor: client and server in one process).',
    '',
  ];
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(2);
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const option = (name: string) => {
    const index = argv.indexOf(name);
    return index === -1 ? undefined : argv[index + 1];
  };
  const rounds = Math.min(10, Math.max(1, Number(option('--rounds') ?? 1)));
  const faultsOption = option('--faults');
  const faults = faultsOption === 'all' ? FAULTS.map((f) => f.id) : (faultsOption?.split(',') ?? FAULT_CLASSES.map((c) => c.fault));
  const started = loadavg();
  failingRuns(rounds, faults, (line) => console.log(`bench: ${line}`))
    .then((result) => {
      console.log(`\nload average ${started.map((l) => l.toFixed(2)).join(' / ')} at the start, ${loadavg().map((l) => l.toFixed(2)).join(' / ')} at the end\n`);
      console.log(failingMarkdown(result).join('\n'));
    })
    .catch((error: unknown) => {
      console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    });
}
