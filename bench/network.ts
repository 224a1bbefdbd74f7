import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import { behavioursFromEnvironment } from '../selftest/reference/behaviours';
import { FAULTS } from '../selftest/reference/faults';
import { FAULT_CLASSES } from './failing';
import { PEERS, peersDirectory, preparePeer, runPeer, type PeerId } from './peers';
import { startBenchReference, type RecordedRequest } from './reference';
import { median, nowMs, round } from './stats';
import { medianPeakMiB, runAgainst, runRemote } from './suite';
import type { TestTiming } from './timing-reporter';
import { ALONE_PHASE } from '../config/phases';

/**
 * Issue 21, item 6: the suite's quick run beside peer tools from npm, against the same reference server
 * at 0, 50 and 150 ms per request (the latency knob), side by side: wall time, requests counted at the
 * server, and how many of a set of hand-written faults each one catches. Every run gets a fresh server
 * (in the bench's process, on 127.0.0.1 and a free port, with a recorder in front of its listener),
 * stopped after it, so no run sees another's orders and every count is that run's alone.
 */

/** The suite, the suite of another commit measured beside it (--baseline), and the peers. */
export type ToolId = 'suite' | 'baseline' | PeerId;

export interface NetworkOptions {
  /** Per-request delays of the reference server (its latency knob): 0, 50 or 150 ms. */
  latencies: number[];
  /** Side-by-side rounds: each runs every tool once at every latency. */
  rounds: number;
  /** The tools, in table order: 'suite' and the ids of bench/peers.ts. */
  tools: ToolId[];
  /** Hand-written faults (selftest/reference/faults) each tool is run against, at 0 ms. */
  faults: string[];
  /** Install peers missing from the cache (npm); false: a missing peer is reported as not run. */
  install: boolean;
  /** One thorough run of the suite at the largest latency, for its memory with every worker a network brings (about 40 s at 150 ms). */
  thorough: boolean;
  /** A checkout of another commit (with node_modules) whose suite runs beside this one, every round, at every latency. */
  baseline?: string;
}

export const LATENCIES = [0, 50, 150];
export const TOOL_IDS: ToolId[] = ['suite', ...PEERS.map((peer) => peer.id)];

/**
 * The default fault set: the fault classes of the failing-run bench (bench/failing.ts), and six faults of
 * other kinds: a schema format and type, a shape of delete, a valid create refused, an update not kept,
 * an error answered as success. A run against every fault takes ~20 s a fault (the suite 5 to 8 s, the
 * peers 10 to 15 s together): all 88 take ~30 minutes, behind --network-faults all.
 */
export const REPRESENTATIVE_FAULTS = [
  ...FAULT_CLASSES.map((c) => c.fault),
  'format-timestamps-not-iso',
  'create-numeric-id',
  'delete-wrong-shape',
  'create-requires-billing',
  'update-not-persisted',
  'errors-unknown-id-200-empty',
];

export interface NetworkTool {
  id: ToolId;
  name: string;
  /** npm packages it was installed from (pinned); none for the suite and the bare requests. */
  packages: string[];
  configuration: string;
  /** Why it did not run on this machine; absent when it ran. */
  unavailable?: string;
}

export interface NetworkRow {
  tool: ToolId;
  latencyMs: number;
  /** Runs that ended with a result (an error that kept the tool from running is not one). */
  runs: number;
  wallMs: number[];
  medianWallMs: number | null;
  /** Requests the server received during each run. */
  requests: number[];
  medianRequests: number | null;
  /** Orders the server created during each run (a create answered 2xx). */
  ordersCreated: number[];
  medianOrdersCreated: number | null;
  /** Runs that passed the correct server (exit 0; the suite: exit 0, CONFORMANT). */
  passed: number;
  /** Runs the tool could not make (it failed before judging the server), with why. */
  errors: string[];
  /** The suite against the correct server: its critical path in requests (criticalPath), median of the runs; null for a peer. */
  medianCriticalPath?: number | null;
  /** The suite against the correct server: the most memory its processes held at once (MiB), median of the runs. */
  medianPeakMiB?: number | null;
  /** The suite against the correct server: where the time of its run of median wall time went, and its ten longest tests. */
  phases?: RunPhases | null;
  longest?: LongTest[];
}

/** Where a run's time went: from its start to its first test's body, the tests side by side, the quiet and alone ones, and from its last test to its exit. */
export interface RunPhases {
  startupMs: number;
  togetherMs: number;
  aloneMs: number;
  cleanupMs: number;
}

/** A test that took long: how long its body ran (waiting, nearly all of it, across a network) and its longest chain of requests. */
export interface LongTest {
  test: string;
  ms: number;
  chain: number;
}

export interface FaultOutcome {
  fault: string;
  level: 'MUST' | 'SHOULD';
  /** Per tool: caught (true), not caught (false), or the reason the tool could not run. */
  byTool: Partial<Record<ToolId, boolean | string>>;
  /** Per tool that ran: what it said (exit code, the suite's verdict, the request that did not pass). */
  details: Partial<Record<ToolId, string>>;
}

export interface NetworkResults {
  generatedAt: string;
  command: string;
  durationSeconds: number;
  node: string;
  loadAverageAtStart: number[];
  loadAverageAtEnd: number[];
  rounds: number;
  latencies: number[];
  /** Faults are judged with the server at 0 ms. */
  faultLatencyMs: number;
  peersDirectory: string;
  tools: NetworkTool[];
  rows: NetworkRow[];
  faults: FaultOutcome[];
  /** The suite's thorough run against the correct server at the largest latency, its requests and orders created counted at the server; absent when not measured. */
  thorough?: ThoroughRun;
  /** The same of the baseline (--baseline), measured just after it. */
  baselineThorough?: ThoroughRun;
}

/** A thorough run against the correct server, its requests and orders created counted at the server. */
export interface ThoroughRun {
  latencyMs: number;
  wallMs: number;
  requests: number;
  ordersCreated: number;
  peakMiB: number | null;
  verdict: string;
}

interface ToolRun {
  wallMs: number;
  requests: number;
  ordersCreated: number;
  /**
   * The tool reported a failure. Against the correct server: a non-zero exit (the suite: or a verdict other
   * than CONFORMANT). Against a fault, it caught it: a non-zero exit; the suite: a NOT CONFORMANT verdict
   * (an inconclusive run established nothing about the fault).
   */
  failed: boolean;
  /** What the tool said, in a line: its exit code (the suite: and verdict), or the request that did not pass. */
  detail: string;
  /** The suite against the correct server: the run's critical path in requests (criticalPath). */
  criticalPath?: number;
  /** The suite against the correct server: the most memory its processes held at once. */
  peakRssBytes?: number;
  phases?: RunPhases;
  longest?: LongTest[];
}

/**
 * A run's critical path in requests: the longest chain of requests it must wait for one after another, however
 * many requests go out at once: the longest chain of a test that runs side by side, then the longest of the quiet
 * ones (they run together), then the chains of the tests that run alone, one after another (config/phases.ts).
 * Times the round trip, it is the floor a run could reach (start-up, the set-up's sign-in and preflight and the
 * workers' cleanup not counted).
 */
export function criticalPath(tests: Record<string, TestTiming>): number {
  let together = 0;
  let quiet = 0;
  let alone = 0;
  for (const test of Object.values(tests)) {
    const chain = test.chain ?? 0;
    const kind = test.kind ?? (test.phase === ALONE_PHASE ? 'alone' : 'together');
    if (kind === 'alone') alone += chain;
    else if (kind === 'quiet') quiet = Math.max(quiet, chain);
    else together = Math.max(together, chain);
  }
  return together + quiet + alone;
}

/** When a test ran: its body's own times where it ran ahead of Playwright, else Playwright's. */
function spanOf(test: TestTiming): { from: number; to: number } | undefined {
  if (test.ranFrom !== undefined && test.ranTo !== undefined) return { from: test.ranFrom, to: test.ranTo };
  return test.startedAt === undefined ? undefined : { from: test.startedAt, to: test.startedAt + test.ms };
}

/** Where a run's time went, from its tests' times and when its command started and ended. */
export function phasesOf(tests: Record<string, TestTiming>, startedAtEpochMs: number, wallMs: number): RunPhases | undefined {
  // A quiet test is apart from its first view on; what it wrote before, it wrote beside the others.
  const spans = Object.values(tests).flatMap((test) => {
    const span = spanOf(test);
    if (!span) return [];
    const apart = (test.kind ?? (test.phase === ALONE_PHASE ? 'alone' : 'together')) !== 'together';
    if (test.viewsFrom === undefined || !apart) return [{ ...span, apart }];
    return [
      { from: span.from, to: test.viewsFrom, apart: false },
      { from: test.viewsFrom, to: span.to, apart: true },
    ];
  });
  if (spans.length === 0) return undefined;
  const extent = (of: typeof spans) => (of.length ? Math.max(...of.map((s) => s.to)) - Math.min(...of.map((s) => s.from)) : 0);
  const first = Math.min(...spans.map((s) => s.from));
  const last = Math.max(...spans.map((s) => s.to));
  return {
    startupMs: round(first - startedAtEpochMs),
    togetherMs: round(extent(spans.filter((s) => !s.apart))),
    aloneMs: round(extent(spans.filter((s) => s.apart))),
    cleanupMs: round(startedAtEpochMs + wallMs - last),
  };
}

/** The tests whose bodies ran longest, with their chains of requests. */
export function longestTests(tests: Record<string, TestTiming>, count = 10): LongTest[] {
  return Object.entries(tests)
    .flatMap(([test, timing]) => {
      const span = spanOf(timing);
      return span ? [{ test, ms: round(span.to - span.from), chain: timing.chain ?? 0 }] : [];
    })
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
}

const SUITE_NAME = 'oms-conformance quick run (`npm run -s conformance`)';
const SUITE_CONFIGURATION =
  'The quick run as a developer points it at staging: OMS_BASE_URL at the server, OMS_TOKEN and OMS_TOKEN_B the development tokens of accounts A and B; default settings otherwise (against a fault, the profile that gates its level: core for MUST, strict for SHOULD).';

export async function networkSection(options: NetworkOptions, command: string, log: (line: string) => void): Promise<NetworkResults> {
  const began = nowMs();
  const loadAverageAtStart = loadavg();
  const [account] = DEVELOPMENT_ACCOUNTS;
  const tools: NetworkTool[] = [];
  const runnable = new Map<ToolId, (baseUrl: string, fault?: string) => Promise<Omit<ToolRun, 'wallMs' | 'requests' | 'ordersCreated'>>>();
  for (const id of options.tools) {
    if (id === 'suite') {
      tools.push({ id, name: SUITE_NAME, packages: [], configuration: SUITE_CONFIGURATION });
      runnable.set(id, (baseUrl, fault) => runSuite(baseUrl, fault));
      if (options.baseline) {
        const checkout = options.baseline;
        tools.push({ id: 'baseline', name: `the same at ${commitOf(checkout)} (\`${checkout}\`), beside it`, packages: [], configuration: 'The suite of the checkout given with --baseline, run the same way, every round, at every latency, just after this one: the commit it is measured against.' });
        runnable.set('baseline', (baseUrl, fault) => runSuite(baseUrl, fault, checkout));
      }
      continue;
    }
    if (id === 'baseline') continue;
    const peer = PEERS.find((p) => p.id === id)!;
    const availability = await preparePeer(peer, options.install, log);
    const tool: NetworkTool = { id, name: peer.name, packages: peer.packages, configuration: peer.configuration };
    if ('unavailable' in availability) {
      tool.unavailable = availability.unavailable;
      log(`network: ${peer.name} does not run here: ${availability.unavailable}`);
    } else {
      runnable.set(id, (baseUrl) => runPeer(peer, availability.installDir, baseUrl, account.developmentToken));
    }
    tools.push(tool);
  }

  /** One run of one tool against a fresh server, its requests counted there. */
  const measure = async (id: ToolId, latencyMs: number, fault?: string): Promise<ToolRun> => {
    const server = await startBenchReference({
      behaviours: behavioursFromEnvironment({ OMS_KNOBS: latencyMs ? `latency=latency-${latencyMs}ms` : '', OMS_FAULT: fault ?? '' }),
      responseBudgetBytes: 0,
    });
    try {
      const started = nowMs();
      const outcome = await runnable.get(id)!(server.url, fault);
      const recorded = server.take();
      return { ...outcome, wallMs: nowMs() - started, requests: recorded.length, ordersCreated: ordersCreated(recorded) };
    } finally {
      await server.close();
    }
  };

  const samples = new Map<string, Array<ToolRun | { error: string }>>();
  for (let round = 1; round <= options.rounds; round++) {
    for (const latencyMs of options.latencies) {
      for (const id of runnable.keys()) {
        const key = `${id}@${latencyMs}`;
        const run = await measure(id, latencyMs).catch((error: unknown) => ({ error: (error as Error).message }));
        samples.set(key, [...(samples.get(key) ?? []), run]);
        const phases = 'error' in run || !run.phases ? '' : `; start-up ${seconds(run.phases.startupMs)} s, side by side ${seconds(run.phases.togetherMs)} s, apart ${seconds(run.phases.aloneMs)} s, cleanup ${seconds(run.phases.cleanupMs)} s`;
        log(`network: round ${round}, ${id} at ${latencyMs} ms: ${'error' in run ? `could not run: ${run.error}` : `${seconds(run.wallMs)} s, ${run.requests} requests, ${run.ordersCreated} orders created${run.criticalPath === undefined ? '' : ` (critical path ${run.criticalPath}: floor ${seconds(run.criticalPath * latencyMs)} s)`}${run.peakRssBytes === undefined ? '' : `, peak ${Math.round(run.peakRssBytes / 2 ** 20)} MiB`}${phases}, ${run.failed ? `FAILED the correct server (${run.detail})` : 'passed'}`}`);
      }
    }
  }

  const thoroughOf = (checkout?: string) =>
    options.thorough && runnable.has('suite')
      ? thoroughAcrossNetwork(Math.max(...options.latencies), log, checkout).catch((error: unknown) => {
          log(`network: the thorough run${checkout ? ' of the baseline' : ''} could not run: ${(error as Error).message}`);
          return undefined;
        })
      : undefined;
  const thorough = await thoroughOf();
  const baselineThorough = options.baseline ? await thoroughOf(options.baseline) : undefined;

  const faults: FaultOutcome[] = [];
  for (const [index, fault] of options.faults.entries()) {
    const definition = FAULTS.find((f) => f.id === fault)!;
    const outcome: FaultOutcome = { fault, level: definition.level, byTool: {}, details: {} };
    for (const id of [...runnable.keys()].filter((tool) => tool !== 'baseline')) {
      const run = await measure(id, 0, fault).catch((error: unknown) => ({ error: (error as Error).message }));
      outcome.byTool[id] = 'error' in run ? run.error : run.failed;
      if (!('error' in run)) outcome.details[id] = run.detail;
    }
    faults.push(outcome);
    const caughtBy = Object.entries(outcome.byTool).map(([id, caught]) => `${id} ${caught === true ? 'caught' : caught === false ? 'missed' : 'could not run'} (${outcome.details[id as ToolId] ?? caught})`);
    log(`network: fault ${index + 1} of ${options.faults.length}, ${fault}: ${caughtBy.join(', ')}`);
  }

  const rows: NetworkRow[] = [...runnable.keys()].flatMap((tool) =>
    options.latencies.map((latencyMs) => {
      const all = samples.get(`${tool}@${latencyMs}`) ?? [];
      const runs = all.filter((run): run is ToolRun => !('error' in run));
      return {
        tool,
        latencyMs,
        runs: runs.length,
        wallMs: runs.map((run) => round(run.wallMs)),
        medianWallMs: runs.length ? round(median(runs.map((run) => run.wallMs))) : null,
        requests: runs.map((run) => run.requests),
        medianRequests: runs.length ? median(runs.map((run) => run.requests)) : null,
        ordersCreated: runs.map((run) => run.ordersCreated),
        medianOrdersCreated: runs.length ? median(runs.map((run) => run.ordersCreated)) : null,
        passed: runs.filter((run) => !run.failed).length,
        errors: all.flatMap((run) => ('error' in run ? [run.error] : [])),
        ...((tool === 'suite' || tool === 'baseline') && {
          medianCriticalPath: runs.some((run) => run.criticalPath !== undefined) ? median(runs.flatMap((run) => run.criticalPath ?? [])) : null,
          medianPeakMiB: medianPeakMiB(runs),
          ...medianRunDetail(runs),
        }),
      };
    }),
  );
  return {
    generatedAt: new Date().toISOString(),
    command,
    durationSeconds: round((nowMs() - began) / 1000),
    node: process.version,
    loadAverageAtStart: loadAverageAtStart.map((l) => round(l, 2)),
    loadAverageAtEnd: loadavg().map((l) => round(l, 2)),
    rounds: options.rounds,
    latencies: options.latencies,
    faultLatencyMs: 0,
    peersDirectory: peersDirectory(),
    tools,
    rows,
    faults,
    ...(thorough && { thorough }),
    ...(baselineThorough && { baselineThorough }),
  };
}

/** The suite's thorough run against a fresh correct server `latencyMs` away: its wall time and the most memory its processes held. */
async function thoroughAcrossNetwork(latencyMs: number, log: (line: string) => void, checkout?: string): Promise<ThoroughRun> {
  const server = await startBenchReference({ behaviours: behavioursFromEnvironment({ OMS_KNOBS: latencyMs ? `latency=latency-${latencyMs}ms` : '' }), responseBudgetBytes: 0 });
  try {
    const run = await runAgainst(server.url, 'thorough', [], checkout);
    const recorded = server.take();
    const peakMiB = medianPeakMiB([run]);
    log(`network: the thorough run${checkout ? ' of the baseline' : ''} at ${latencyMs} ms: ${seconds(run.wallMs)} s, ${recorded.length} requests, ${ordersCreated(recorded)} orders created, peak ${peakMiB ?? '—'} MiB, exit ${run.exitCode}, ${run.verdict ?? 'no report'}`);
    return { latencyMs, wallMs: round(run.wallMs), requests: recorded.length, ordersCreated: ordersCreated(recorded), peakMiB, verdict: run.verdict ?? `no report (exit ${run.exitCode})` };
  } finally {
    await server.close();
  }
}

/** Orders a run made, counted at the server: creates (POST /orders) answered with a 2xx. */
export function ordersCreated(recorded: RecordedRequest[]): number {
  return recorded.filter((request) => request.method === 'POST' && /^\/orders\/?(\?|$)/.test(request.url) && request.status >= 200 && request.status < 300).length;
}

async function runSuite(baseUrl: string, fault?: string, checkout?: string): Promise<Omit<ToolRun, 'wallMs' | 'requests' | 'ordersCreated'>> {
  if (fault === undefined) {
    // Against the correct server with the bench's timing reporter beside the suite's: each test's chain of dependent requests, and when it ran.
    const run = await runAgainst(baseUrl, 'quick', [], checkout);
    if (run.verdict === undefined) throw new Error(`the suite wrote no report (exit ${run.exitCode})`);
    return {
      failed: run.exitCode !== 0 || run.verdict !== 'conformant',
      detail: `exit ${run.exitCode}, ${run.verdict}`,
      peakRssBytes: run.peakRssBytes,
      ...(run.tests && { criticalPath: criticalPath(run.tests), phases: phasesOf(run.tests, run.startedAtEpochMs, run.wallMs), longest: longestTests(run.tests) }),
    };
  }
  // A fault is the suite's own to catch: the baseline is measured against the correct server only.
  if (checkout) throw new Error('the baseline runs against the correct server only');
  const level = FAULTS.find((f) => f.id === fault)?.level;
  const run = await runRemote(baseUrl, 'quick', level === 'SHOULD' ? { OMS_PROFILE: 'strict' } : {});
  if (run.verdict === undefined) throw new Error(`the suite wrote no report (exit ${run.exitCode})`);
  return { failed: run.verdict === 'not-conformant', detail: `exit ${run.exitCode}, ${run.verdict}` };
}

/** The phases and longest tests of the run of median wall time. */
function medianRunDetail(runs: ToolRun[]): { phases: RunPhases | null; longest: LongTest[] } {
  const sorted = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  return { phases: middle?.phases ?? null, longest: middle?.longest ?? [] };
}

/** The short commit of a checkout, or its folder's name where git cannot tell. */
function commitOf(checkout: string): string {
  try {
    return execFileSync('git', ['-C', checkout, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return checkout;
  }
}

/** k of n for one tool: faults it caught, of those it ran against. */
export function faultsCaught(results: NetworkResults, tool: ToolId): { caught: number; of: number; errors: number } {
  const outcomes = results.faults.map((f) => f.byTool[tool]).filter((o) => o !== undefined);
  return { caught: outcomes.filter((o) => o === true).length, of: outcomes.filter((o) => typeof o === 'boolean').length, errors: outcomes.filter((o) => typeof o === 'string').length };
}

/** The suite's wall time at a latency (median), when it was measured. */
export function suiteWallAt(results: NetworkResults | null, latencyMs: number): number | null {
  return results?.rows.find((row) => row.tool === 'suite' && row.latencyMs === latencyMs)?.medianWallMs ?? null;
}

/** The most memory the suite's runs held at any latency (the median of each latency's runs), when measured. */
export function suitePeakMiB(results: NetworkResults | null): number | null {
  const peaks = (results?.rows ?? []).flatMap((row) => (row.tool === 'suite' && row.medianPeakMiB != null ? [row.medianPeakMiB] : []));
  return peaks.length ? Math.max(...peaks) : null;
}

/** The suite's critical path at a latency (median, in requests), when it was measured. */
export function suiteCriticalPathAt(results: NetworkResults | null, latencyMs: number): number | null {
  return results?.rows.find((row) => row.tool === 'suite' && row.latencyMs === latencyMs)?.medianCriticalPath ?? null;
}

/** The section of results.md. */
export function networkMarkdown(r: NetworkResults): string[] {
  const s = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(2)} s`);
  const n = (value: number | null) => (value === null ? '—' : value.toLocaleString('en-US'));
  const name = (id: ToolId) => r.tools.find((t) => t.id === id)?.name ?? id;
  const ran = r.tools.filter((t) => !t.unavailable);
  const lines = [
    `### Across a network: the quick run and peer tools at ${r.latencies.join(', ')} ms`,
    '',
    `Measured ${r.generatedAt} by \`${r.command}\` (${r.durationSeconds} s), Node ${r.node}; load average ${r.loadAverageAtStart.join(' / ')} at the start, ` +
      `${r.loadAverageAtEnd.join(' / ')} at the end. ${r.rounds} round(s), each running every tool once at every latency. Every run has a fresh reference ` +
      'server (127.0.0.1, in the bench process) with the latency knob, requests and orders created (creates answered 2xx) counted at its listener; wall time is the whole tool, start to exit, ' +
      'its generation step and (Prism) proxy start and stop included. Critical path: the suite\'s longest chain of requests that wait for one another (the longest ' +
      'test of the first phase, then the tests that run alone, one after another), in requests; times the latency, the floor a run could reach. ' +
      'Peak memory (the suite): the most resident memory its processes (npm, Playwright\'s runner, its workers) held at once, read every 0.2 s.',
    '',
    `| Tool | Latency | Wall, median of ${r.rounds} | Requests | Orders created | Critical path (floor) | Peak memory | Correct server | Faults caught (at ${r.faultLatencyMs} ms) |`,
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const tool of ran) {
    const caught = faultsCaught(r, tool.id);
    for (const [index, row] of r.rows.filter((row) => row.tool === tool.id).entries()) {
      const correct = row.runs === 0 ? `not run: ${tableText(row.errors[0] ?? 'no result')}` : `passed ${row.passed} of ${row.runs}`;
      const faultCell = index > 0 || r.faults.length === 0 ? '' : `${caught.caught} of ${caught.of}${caught.errors ? ` (${caught.errors} could not run)` : ''}${row.passed < row.runs ? ' (fails the correct server too)' : ''}`;
      const floor = row.medianCriticalPath == null ? '—' : `${n(row.medianCriticalPath)} × ${row.latencyMs} ms = ${s(row.medianCriticalPath * row.latencyMs)}`;
      const memory = row.medianPeakMiB == null ? '—' : `${row.medianPeakMiB} MiB`;
      lines.push(`| ${index === 0 ? tool.name : ''} | ${row.latencyMs} ms | ${s(row.medianWallMs)} | ${n(row.medianRequests)} | ${n(row.medianOrdersCreated ?? null)} | ${floor} | ${memory} | ${correct} | ${faultCell} |`);
    }
  }
  lines.push('');
  lines.push(...whereTheTimeGoes(r));
  if (r.thorough) {
    const counted = r.thorough.requests === undefined ? '' : `, ${n(r.thorough.requests)} requests, ${n(r.thorough.ordersCreated ?? null)} orders created`;
    lines.push(`The suite's thorough run (\`OMS_EFFORT=thorough\`) against the correct server at ${r.thorough.latencyMs} ms: ${s(r.thorough.wallMs)}${counted}, peak memory ${r.thorough.peakMiB ?? '—'} MiB, ${r.thorough.verdict}.`, '');
    const base = r.baselineThorough;
    if (base) lines.push(`The baseline's, just after it: ${s(base.wallMs)}, ${n(base.requests)} requests, ${n(base.ordersCreated)} orders created, peak memory ${base.peakMiB ?? '—'} MiB, ${base.verdict}${base.wallMs > 0 ? ` (this commit takes ${(r.thorough.wallMs / base.wallMs).toFixed(2)} times its time)` : ''}.`, '');
  }
  const unavailable = r.tools.filter((t) => t.unavailable);
  if (unavailable.length) lines.push(...unavailable.map((t) => `- **${t.name} did not run here**: ${tableText(t.unavailable!)}`), '');
  if (r.faults.length) {
    lines.push(
      `Faults: ${r.faults.length} hand-written faults of selftest/reference/faults, the server at ${r.faultLatencyMs} ms. The suite catches a fault when its verdict is NOT CONFORMANT ` +
        '(in the profile that gates the fault\'s level: core for MUST, strict for SHOULD); a peer, when it exits non-zero; the request drivers, when an answer is not 2xx or the create gives no id they can use.',
      '',
      `| Fault | Level | ${ran.map((t) => t.id).join(' | ')} |`,
      `|---|---|${ran.map(() => '---').join('|')}|`,
      ...r.faults.map((f) => `| \`${f.fault}\` | ${f.level} | ${ran.map((t) => cell(f.byTool[t.id], f.details[t.id])).join(' | ')} |`),
      '',
    );
  }
  lines.push('Configurations:', '', ...ran.map((t) => `- ${name(t.id)}${t.packages.length ? ` (\`${t.packages.join('`, `')}\`)` : ''}: ${t.configuration}`), '');
  return lines;
}

/** The suite's runs (and the baseline's, when measured) phase by phase, and their longest tests. */
function whereTheTimeGoes(r: NetworkResults): string[] {
  const runs = r.rows.filter((row) => (row.tool === 'suite' || row.tool === 'baseline') && row.runs > 0);
  if (!runs.some((row) => row.phases)) return [];
  const s = (ms: number | null | undefined) => (ms == null ? '—' : `${(ms / 1000).toFixed(2)} s`);
  const who = (row: NetworkRow) => (row.tool === 'baseline' ? r.tools.find((t) => t.id === 'baseline')?.name ?? 'baseline' : 'this commit');
  const lines = [
    `Where the time goes (the run of median wall time): start-up is the command's start to its first test's body; side by side, the first test's start to the last's end among the tests that run side by side; apart, the same for the tests that run while nothing writes or alone (config/phases.ts); cleanup, the last test's end to the command's exit (the workers' deletes, the reports). A body that ran ahead of Playwright is timed as it ran.`,
    '',
    '| Run | Latency | Wall | Critical path | Requests | Orders created | Start-up | Side by side | Apart | Cleanup |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map((row) => `| ${tableText(who(row))} | ${row.latencyMs} ms | ${s(row.medianWallMs)} | ${row.medianCriticalPath ?? '—'} | ${row.medianRequests ?? '—'} | ${row.medianOrdersCreated ?? '—'} | ${s(row.phases?.startupMs)} | ${s(row.phases?.togetherMs)} | ${s(row.phases?.aloneMs)} | ${s(row.phases?.cleanupMs)} |`),
    '',
  ];
  const ratios = r.latencies.flatMap((latencyMs) => {
    const [mine, theirs] = (['suite', 'baseline'] as const).map((tool) => runs.find((row) => row.tool === tool && row.latencyMs === latencyMs)?.medianWallMs);
    return mine && theirs ? [`${latencyMs} ms: ${(mine / theirs).toFixed(2)}×`] : [];
  });
  if (ratios.length) lines.push(`This commit's wall time against the baseline's, measured side by side: ${ratios.join(', ')}.`, '');
  for (const row of runs.filter((run) => run.longest?.length)) {
    lines.push(`The ten tests that waited longest, ${tableText(who(row))} at ${row.latencyMs} ms:`, '', '| Test | Time | Chain |', '|---|---|---|', ...(row.longest ?? []).map((t) => `| ${tableText(t.test)} | ${s(t.ms)} | ${t.chain} |`), '');
  }
  return lines;
}

/** A tool's words in a Markdown table cell or list item: one line, no pipe, no markup. */
function tableText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[|*_`<>[\]]/g, (c) => `\\${c}`);
}

function cell(outcome: boolean | string | undefined, detail: string | undefined): string {
  if (outcome === undefined) return '—';
  if (typeof outcome === 'string') return 'could not run';
  if (outcome) return 'caught';
  // The suite's inconclusive run is a miss too (nothing established), and says so.
  return detail?.includes('inconclusive') ? 'missed (inconclusive)' : 'missed';
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(2);
}
