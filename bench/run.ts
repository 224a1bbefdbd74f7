import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { EFFORT } from '../harness/property';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import { InMemoryOrderStore } from '../reference/store';
import { CopyingOrderStore } from './baseline-store';
import { clientCost } from './client-cost';
import { failingRuns } from './failing';
import { recordedRun, type RunProfile } from './measure';
import { generationCost, storeCost, validationCost } from './micro';
import { networkMarkdown, networkSection, suiteCriticalPathAt, suitePeakMiB, suiteWallAt, type NetworkResults } from './network';
import { BENCH_DIR, parseOptions, type BenchOptions } from './options';
import { prefillAccount, startBenchReference, type RecordedRequest } from './reference';
import { renderMarkdown, updateReadme } from './report';
import type { BenchResults, EffortRow, GrowingTest, LoadFigures, RequestFigures, SizeRow, Target } from './results';
import type { WallTimes } from './stats';
import { median, nowMs, ratio, round } from './stats';
import { ONE_TEST, PROJECT_ROOT, runEmbedded, wallTimes, type Effort, type SuiteRun } from './suite';
import { load, startCeilingServer } from './throughput';

/** A test counts as growing with the account when it takes this much longer at the largest size. */
const GROWTH_RATIO = 1.5;
const GROWTH_MIN_MS = 200;
const STORE_NOW = 'reference store';
const STORE_BEFORE = 'store before the fix (copied the account on every page)';

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  const log = (line: string) => console.log(`bench: ${line}`);
  if (options.only === 'network') return networkAlone(options, command, log);
  const began = nowMs();
  const loadAtStart = loadavg();
  const warnings: string[] = [];
  /** A run that ran no test measured nothing: it is left out of every median, and said so. */
  const counts = (run: SuiteRun, what: string): boolean => {
    if (run.testsRun > 0) return true;
    warnings.push(`left out: the ${what} ran no test (exit ${run.exitCode}): ${run.outputTail.slice(-400)}`);
    return false;
  };
  log(`mode ${options.quick ? 'quick' : 'default'}; ${options.rounds} round(s) of quick runs at account sizes ${options.accountSizes.join(', ')}; ${options.thoroughRuns} thorough run(s)`);

  // 1. Quick runs, side by side: each round has one run of every kind, so load drift hits all alike.
  const embeddedQuick: SuiteRun[] = [];
  const oneTest: SuiteRun[] = [];
  const bySize = new Map<number, RunProfile[]>(options.accountSizes.map((size) => [size, []]));
  const replays: Array<{ profile: RunProfile; replayMs: number; replayCpuMs: number; sameStatus: number }> = [];
  let corpus: RecordedRequest[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    const embedded = await runEmbedded('quick');
    if (counts(embedded, `embedded quick run, round ${round}`)) embeddedQuick.push(embedded);
    log(`round ${round}: embedded quick run ${seconds(embedded.wallMs)} s (exit ${embedded.exitCode})`);
    const single = await runEmbedded('quick', ONE_TEST);
    if (counts(single, `one-test run, round ${round}`)) oneTest.push(single);
    log(`round ${round}: one-test run ${seconds(single.wallMs)} s`);
    for (const size of options.accountSizes) {
      const { run, profile, recorded, replayed } = await recordedRun('quick', size, size === 0 ? options.replays : 0);
      if (!counts(run, `recorded quick run at ${size} orders, round ${round}`)) continue;
      bySize.get(size)!.push(profile);
      if (size === 0) {
        if (corpus.length === 0) corpus = recorded;
        for (const result of replayed) replays.push({ profile, replayMs: result.wallMs, replayCpuMs: result.cpuMs, sameStatus: result.sameStatus });
      }
      log(`round ${round}: recorded quick run, ${size} orders: ${seconds(profile.wallMs)} s, ${profile.requests} requests (exit ${profile.exitCode})`);
    }
  }

  // 1b. A passing quick run beside quick runs against faults of several classes, and what each printed.
  const failing = await failingRuns(options.rounds, options.faults, log);

  // 2. Thorough runs: fewer, they take half a minute each.
  const embeddedThorough: SuiteRun[] = [];
  let thoroughProfile: RunProfile | undefined;
  for (let run = 1; run <= options.thoroughRuns; run++) {
    const embedded = await runEmbedded('thorough');
    if (counts(embedded, `embedded thorough run ${run}`)) embeddedThorough.push(embedded);
    log(`thorough run ${run}: ${seconds(embedded.wallMs)} s (exit ${embedded.exitCode})`);
  }
  if (options.thoroughRuns > 0) {
    const { run, profile } = await recordedRun('thorough', 0, 0);
    if (counts(run, 'recorded thorough run')) thoroughProfile = profile;
    log(`recorded thorough run: ${seconds(profile.wallMs)} s, ${profile.requests} requests`);
  }

  // 3. Costs per response and per payload, on the responses the server really sent.
  const validation = validationCost(corpus, options.microRepetitions, options.microPassMs);
  log(`validation: ${validation.ajvMicroseconds.toFixed(1)} µs per response (ajv), ${validation.responseChecksMicroseconds.toFixed(1)} µs (all response checks)`);
  const generation = generationCost(options.quick ? 50 : 200, options.microRepetitions, options.microPassMs);
  const store = storeCost([1000, 10_000], { [STORE_NOW]: () => new InMemoryOrderStore(), [STORE_BEFORE]: () => new CopyingOrderStore() }, options.microRepetitions, options.microPassMs);
  log(`store page(): ${JSON.stringify(store.microseconds)}`);
  log(`generation: ${Object.entries(generation.microseconds).map(([name, us]) => `${name} ${us.toFixed(0)} µs`).join('; ')}`);

  // 4. What one request costs inside a Playwright worker, by client (the suite's overhead, taken apart).
  const perRequest = await clientCost(options.clientCounts, options.clientRounds);
  log(`client cost (CPU): ${Object.entries(perRequest.cpuMicroseconds).map(([name, byCount]) => `${name} ${Object.values(byCount).join('/')} µs`).join('; ')}`);

  // 5. Reference server throughput.
  const throughput = await referenceThroughput(options);
  for (const [name, figures] of Object.entries(throughput)) log(`throughput ${name}: ${Math.round(figures.requestsPerSecond)} req/s`);

  // 6. The quick run and peer tools against a server 0, 50 and 150 ms away.
  const network = await networkSection(options.network, command, log);

  // 7. Figures, targets, output.
  const quickRun = wallTimes(embeddedQuick);
  const thoroughRun = wallTimes(embeddedThorough);
  const emptyAccount = bySize.get(0)!;
  const overheadSuiteWall = median(replays.map((r) => r.profile.wallMs));
  const overheadSuiteInRun = median(replays.map((r) => r.profile.inRunMs));
  const replayMs = median(replays.map((r) => r.replayMs));
  const overhead = {
    requests: median(replays.map((r) => r.profile.requests)),
    suiteWallMs: round(overheadSuiteWall),
    suiteInRunMs: round(overheadSuiteInRun),
    replayMs: round(replayMs),
    ratioWall: round(ratio(overheadSuiteWall, replayMs), 2),
    ratioInRun: round(ratio(overheadSuiteInRun, replayMs), 2),
    suiteCpuMs: round(median(replays.map((r) => r.profile.suiteCpuMs + r.profile.serverCpuMs))),
    replayCpuMs: round(median(replays.map((r) => r.replayCpuMs))),
    ratioCpu: round(ratio(median(replays.map((r) => r.profile.suiteCpuMs + r.profile.serverCpuMs)), median(replays.map((r) => r.replayCpuMs))), 2),
    replaySameStatus: round(median(replays.map((r) => r.sameStatus)), 4),
  };
  if (overhead.replaySameStatus < 0.95) warnings.push(`the replay got the suite's status for only ${(overhead.replaySameStatus * 100).toFixed(1)}% of requests`);
  for (const run of [...embeddedQuick, ...embeddedThorough]) {
    if (run.exitCode !== 0) warnings.push(`a conformance run exited with ${run.exitCode} (timings still count): ${run.outputTail.slice(-400)}`);
  }
  const recordedRuns = [
    ...[...bySize.entries()].flatMap(([size, profiles]) => profiles.map((profile) => ({ what: `quick, ${size} orders`, profile }))),
    ...(thoroughProfile ? [{ what: 'thorough', profile: thoroughProfile }] : []),
  ];
  const failed = recordedRuns.filter(({ profile }) => profile.exitCode !== 0);
  if (failed.length) warnings.push(`recorded runs that exited non-zero (timings still count): ${failed.map(({ what, profile }) => `${what} (exit ${profile.exitCode})`).join(', ')}`);
  if (recordedRuns.some(({ profile }) => profile.rateLimited > 0)) warnings.push('a recorded run got 429/503 answers');

  const effortRows: EffortRow[] = [effortRow('quick', emptyAccount), ...(thoroughProfile ? [effortRow('thorough', [thoroughProfile])] : [])];
  const sizeRows: SizeRow[] = options.accountSizes.map((size) => sizeRow(size, bySize.get(size)!));
  const results: BenchResults = {
    schemaVersion: 1,
    generatedAt: new Date().toISOString(),
    command,
    mode: options.quick ? 'quick' : 'default',
    durationSeconds: round((nowMs() - began) / 1000),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', node: process.version, loadAverageAtStart: loadAtStart.map((l) => round(l, 2)), loadAverageAtEnd: loadavg().map((l) => round(l, 2)) },
    settings: {
      rounds: options.rounds,
      thoroughRuns: options.thoroughRuns,
      accountSizes: options.accountSizes,
      replays: options.replays,
      clientCounts: options.clientCounts,
      clientRounds: options.clientRounds,
      loadSeconds: options.loadSeconds,
      loadRounds: options.loadRounds,
      faults: options.faults,
    },
    quickRun,
    thoroughRun,
    oneTestRun: { ...wallTimes(oneTest), args: ONE_TEST.join(' ') },
    failingRuns: failing,
    network,
    requests: { quick: requestFigures(emptyAccount), thorough: thoroughProfile ? requestFigures([thoroughProfile]) : null },
    overhead,
    clientCost: { requestCounts: options.clientCounts, rounds: options.clientRounds, ...perRequest },
    validation: roundValidation(validation),
    store: { microseconds: mapValues(store.microseconds, (bySize) => mapValues(bySize, (us) => round(us, 2))) },
    generation: { payloads: generation.payloads, microseconds: mapValues(generation.microseconds, (v) => round(v, 1)) },
    throughput,
    scale: { effort: effortRows, accountSize: sizeRows, growingTests: growingTests(options.accountSizes, bySize) },
    targets: [],
    warnings,
  };
  results.targets = targets(results);

  const markdown = writeResults(options, results, renderMarkdown(results));
  log(`wrote ${relative(PROJECT_ROOT, join(options.outDir, 'results.json'))} and results.md in ${results.durationSeconds} s`);
  console.log(`\n${markdown}`);
}

/**
 * `--only network`: that section alone, merged into the results.json already in the output folder (the
 * other figures stay as their run left them; the section carries its own date and command). With no
 * earlier results there, results.json and results.md hold this section only.
 */
async function networkAlone(options: BenchOptions, command: string, log: (line: string) => void): Promise<void> {
  const network = await networkSection(options.network, command, log);
  const file = join(options.outDir, 'results.json');
  const earlier = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<BenchResults>) : undefined;
  if (earlier?.schemaVersion === 1 && earlier.quickRun) {
    const merged = { ...(earlier as BenchResults), network };
    merged.targets = targets(merged);
    writeResults(options, merged, renderMarkdown(merged));
  } else {
    writeResults(options, { schemaVersion: 1, network }, `${networkMarkdown(network).join('\n').trimEnd()}\n`);
  }
  log(`wrote the network section into ${relative(PROJECT_ROOT, file)} and results.md in ${network.durationSeconds} s`);
  console.log(`\n${networkMarkdown(network).join('\n')}`);
}

/** results.json and results.md in the output folder, and the README's table when that folder is bench/ and the run was not --quick. */
function writeResults(options: BenchOptions, results: BenchResults | { schemaVersion: 1; network: NetworkResults }, markdown: string): string {
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(join(options.outDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(options.outDir, 'results.md'), markdown);
  if (options.outDir === BENCH_DIR && !options.quick && 'quickRun' in results) {
    const readme = join(BENCH_DIR, 'README.md');
    writeFileSync(readme, updateReadme(readFileSync(readme, 'utf8'), markdown));
  }
  return markdown;
}

/** autocannon on GET by id and on full pages, account A holding 1,000 orders and B 10,000, endpoints interleaved per round. */
async function referenceThroughput(options: BenchOptions): Promise<Record<string, LoadFigures>> {
  const [a, b] = DEVELOPMENT_ACCOUNTS;
  const server = await startBenchReference({ prefill: 1000 });
  const before = await startBenchReference({ store: new CopyingOrderStore() });
  let ceiling: Awaited<ReturnType<typeof startCeilingServer>> | undefined;
  try {
    prefillAccount(server.app, b.id, 10_000);
    prefillAccount(before.app, b.id, 10_000);
    const someId = server.app.services.store.page(a.id, 500, 1).orders[0].id;
    const sample = await fetch(`${server.url}/orders/${someId}`, { headers: { Authorization: `Bearer ${a.developmentToken}` } });
    ceiling = await startCeilingServer(await sample.text(), sample.headers.get('content-type') ?? 'application/json');
    const endpoints = [
      { name: 'node:http alone, same bytes as GET /orders/{id} (ceiling)', path: '/', token: a.developmentToken, accountOrders: 0, base: ceiling.url },
      { name: 'GET /orders/{id}', path: `/orders/${someId}`, token: a.developmentToken, accountOrders: 1000 },
      { name: 'GET /orders?limit=100 (1,000 orders)', path: '/orders?limit=100', token: a.developmentToken, accountOrders: 1000 },
      { name: 'GET /orders?limit=100 (10,000 orders)', path: '/orders?limit=100', token: b.developmentToken, accountOrders: 10_000 },
      { name: 'GET /orders?limit=1 (10,000 orders)', path: '/orders?limit=1', token: b.developmentToken, accountOrders: 10_000 },
      { name: `GET /orders?limit=1 (10,000 orders), ${STORE_BEFORE}`, path: '/orders?limit=1', token: b.developmentToken, accountOrders: 10_000, base: before.url },
    ];
    const samples = new Map(endpoints.map((endpoint) => [endpoint.name, [] as Awaited<ReturnType<typeof load>>[]]));
    for (let round = 0; round < options.loadRounds; round++) {
      for (const endpoint of endpoints) {
        const result = await load({
          url: `${'base' in endpoint ? endpoint.base : server.url}${endpoint.path}`,
          headers: { Authorization: `Bearer ${endpoint.token}` },
          durationSeconds: options.loadSeconds,
          connections: 10,
        });
        if (result.non2xx || result.errors) throw new Error(`bench: ${endpoint.name} answered ${result.non2xx} non-2xx and ${result.errors} errors under load`);
        samples.get(endpoint.name)!.push(result);
      }
      server.take();
      before.take();
    }
    return Object.fromEntries(
      endpoints.map((endpoint) => {
        const runs = samples.get(endpoint.name)!;
        return [
          endpoint.name,
          {
            path: endpoint.path.replace(someId, '{id}'),
            accountOrders: endpoint.accountOrders,
            rounds: runs.length,
            requestsPerSecond: Math.round(median(runs.map((r) => r.requestsPerSecond))),
            latencyP50Ms: median(runs.map((r) => r.latencyP50Ms)),
            latencyP99Ms: median(runs.map((r) => r.latencyP99Ms)),
            requests: Math.round(median(runs.map((r) => r.requests))),
            non2xx: 0,
            errors: 0,
          },
        ];
      }),
    );
  } finally {
    await server.close();
    await before.close();
    await ceiling?.close();
  }
}


function requestFigures(profiles: RunProfile[]): RequestFigures {
  const m = (pick: (p: RunProfile) => number, decimals = 1) => round(median(profiles.map(pick)), decimals);
  const operations = [...new Set(profiles.flatMap((p) => Object.keys(p.byOperation)))].sort();
  return {
    runs: profiles.length,
    requests: m((p) => p.requests, 0),
    perSecondWall: m((p) => (p.requests * 1000) / p.wallMs, 0),
    perSecondInRun: m((p) => (p.requests * 1000) / Math.max(1, p.inRunMs), 0),
    byOperation: Object.fromEntries(operations.map((name) => [name, m((p) => p.byOperation[name] ?? 0, 0)])),
    startupMs: m((p) => p.startupMs),
    inRunMs: m((p) => p.inRunMs),
    teardownMs: m((p) => p.teardownMs),
    serverMs: m((p) => p.serverMs),
    suiteCpuMs: m((p) => p.suiteCpuMs),
    serverCpuMs: m((p) => p.serverCpuMs),
    serverMsByOperation: Object.fromEntries(operations.map((name) => [name, m((p) => p.serverMsByOperation[name] ?? 0)])),
    rateLimited: m((p) => p.rateLimited, 0),
  };
}

function effortRow(effort: Effort, profiles: RunProfile[]): EffortRow {
  const timings = medianTimings(profiles);
  const stepsIn = (category?: string) =>
    median(profiles.map((p) => Object.values(p.tests).reduce((sum, t) => sum + (category ? (t.stepsByCategory[category] ?? 0) : t.steps), 0)));
  return {
    effort,
    ...EFFORT[effort],
    runs: profiles.length,
    wallMs: round(median(profiles.map((p) => p.wallMs))),
    inRunMs: round(median(profiles.map((p) => p.inRunMs))),
    requests: median(profiles.map((p) => p.requests)),
    steps: stepsIn(),
    expectSteps: stepsIn('expect'),
    apiSteps: stepsIn('pw:api'),
    slowestTests: Object.entries(timings)
      .sort((x, y) => y[1].ms - x[1].ms)
      .slice(0, 5)
      .map(([test, t]) => ({ test, ms: round(t.ms), steps: t.steps })),
  };
}

function sizeRow(orders: number, profiles: RunProfile[]): SizeRow {
  const m = (pick: (p: RunProfile) => number) => round(median(profiles.map(pick)));
  return {
    orders,
    runs: profiles.length,
    wallMs: m((p) => p.wallMs),
    inRunMs: m((p) => p.inRunMs),
    requests: m((p) => p.requests),
    listRequests: m((p) => p.byOperation.listOrders ?? 0),
    serverMs: m((p) => p.serverMs),
  };
}

/** Median duration and step count of every test over the runs. */
function medianTimings(profiles: RunProfile[]): Record<string, { ms: number; steps: number }> {
  const names = [...new Set(profiles.flatMap((p) => Object.keys(p.tests)))];
  return Object.fromEntries(
    names.map((name) => {
      const timings = profiles.flatMap((p) => (name in p.tests ? [p.tests[name]] : []));
      return [name, { ms: median(timings.map((t) => t.ms)), steps: median(timings.map((t) => t.steps)) }];
    }),
  );
}

/** Tests whose median time rises with every account size, reaching GROWTH_RATIO and GROWTH_MIN_MS over the empty account. */
function growingTests(sizes: number[], bySize: Map<number, RunProfile[]>): GrowingTest[] {
  const largest = sizes[sizes.length - 1];
  if (largest === 0) return [];
  const medians = new Map(sizes.map((size) => [size, mapValues(medianTimings(bySize.get(size)!), (t) => t.ms)]));
  const empty = medians.get(0)!;
  const big = medians.get(largest)!;
  return Object.keys(empty)
    .filter((test) => test in big && big[test] >= empty[test] * GROWTH_RATIO && big[test] - empty[test] >= GROWTH_MIN_MS)
    // Noise rarely rises with every size: the time must not fall from one size to the next.
    .filter((test) => sizes.every((size, i) => i === 0 || (medians.get(size)![test] ?? 0) >= (medians.get(sizes[i - 1])![test] ?? 0)))
    .map((test) => ({
      test,
      msBySize: Object.fromEntries(sizes.map((size) => [String(size), round(medians.get(size)![test] ?? NaN)])),
      ratio: round(big[test] / Math.max(1, empty[test]), 1),
    }))
    .sort((x, y) => y.ratio - x.ratio);
}

function targets(results: BenchResults): Target[] {
  const met = (value: number | null, ok: (v: number) => boolean) => (value === null || !Number.isFinite(value) ? null : ok(value));
  const quick = results.quickRun.medianMs;
  const thorough = results.thoroughRun.medianMs;
  const byId = results.throughput['GET /orders/{id}']?.requestsPerSecond ?? null;
  const passingCpu = results.failingRuns.passing.medianCpuMs;
  const ratios = results.failingRuns.failing.flatMap((f) => (f.ratioCpu === null ? [] : [f.ratioCpu]));
  const worstFailing = ratios.length ? Math.max(...ratios) : null;
  const most = (...peaks: Array<number | null | undefined>) => {
    const measured = peaks.filter((peak): peak is number => typeof peak === 'number');
    return measured.length ? Math.max(...measured) : null;
  };
  const quickPeak = most(results.quickRun.medianPeakMiB, suitePeakMiB(results.network));
  const thoroughPeak = most(results.thoroughRun.medianPeakMiB, results.network?.thorough?.peakMiB);
  const mib = (value: number | null | undefined) => (typeof value === 'number' ? `${value} MiB` : 'not measured');
  const s = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(2)} s`);
  return [
    {
      name: 'quick run, start-up included',
      target: '< 15 s',
      measured: quick === null ? null : round(quick / 1000, 2),
      unit: 's',
      met: met(quick, (v) => v < 15_000),
      note: `median of ${results.quickRun.runs}${cpuNote(results.quickRun)}`,
    },
    {
      name: 'thorough run',
      target: '< 3 min',
      measured: thorough === null ? null : round(thorough / 1000, 1),
      unit: 's',
      met: met(thorough, (v) => v < 180_000),
      note: results.thoroughRun.runs ? `median of ${results.thoroughRun.runs}${cpuNote(results.thoroughRun)}` : 'not measured in --quick mode',
    },
    {
      name: 'overhead vs bare client (whole command)',
      target: '< 2',
      measured: results.overhead.ratioWall,
      unit: '×',
      met: met(results.overhead.ratioWall, (v) => v < 2),
      note: 'suite command start to exit / sequential bare replay',
    },
    {
      name: 'overhead vs bare client (while tests send)',
      target: '< 2',
      measured: results.overhead.ratioInRun,
      unit: '×',
      met: met(results.overhead.ratioInRun, (v) => v < 2),
      note: 'first request to last response / sequential bare replay',
    },
    {
      name: 'overhead vs bare client (CPU time)',
      target: '< 2',
      measured: results.overhead.ratioCpu,
      unit: '×',
      met: met(results.overhead.ratioCpu, (v) => v < 2),
      note: 'CPU of the suite run (its processes and the server) / CPU of the replay (client and server): hardly moved by machine load',
    },
    {
      name: 'response validation (ajv)',
      target: '< 20 µs',
      measured: results.validation.ajvMicroseconds,
      unit: 'µs/response',
      met: met(results.validation.ajvMicroseconds, (v) => v < 20),
      note: `${results.validation.responses} real responses; all response checks: ${results.validation.responseChecksMicroseconds} µs`,
    },
    {
      name: 'quick passing run (issue 15)',
      target: '≤ 3 s on 2 idle cores',
      measured: passingCpu === null ? null : round(passingCpu / 2000, 2),
      unit: 's',
      met: met(passingCpu, (v) => v / 2 <= 3000),
      note: `CPU-s / 2 cores (wall ${s(results.failingRuns.passing.medianMs)} at this load; CPU ${s(passingCpu)}, bare floor ${s(results.failingRuns.floor.cpuMs)})`,
    },
    {
      name: 'failing run against the passing run, worst fault class',
      target: '≤ 1.5×',
      measured: worstFailing,
      unit: '× (CPU)',
      met: met(worstFailing, (v) => v <= 1.5),
      note: results.failingRuns.failing.map((f) => `${f.fault} ${f.ratioCpu ?? '—'}× CPU, ${f.ratioWall ?? '—'}× wall, ${f.medianLines ?? '—'} lines`).join('; '),
    },
    { name: 'reference GET /orders/{id}', target: '> 10,000 req/s', measured: byId, unit: 'req/s', met: met(byId, (v) => v > 10_000), note: 'autocannon, 10 connections, loopback' },
    {
      name: 'quick run, same machine (issues 28, 30)',
      target: '≤ 3.5 s',
      measured: quick === null ? null : round(quick / 1000, 2),
      unit: 's',
      met: met(quick, (v) => v <= 3_500),
      note: `\`npm run -s conformance\`, embedded server, Node ${process.version}: the quick run above, median of ${results.quickRun.runs}; its fixed costs (one test): ${s(results.oneTestRun.medianMs)}`,
    },
    ...[
      { latencyMs: 50, goalMs: 6_000 },
      { latencyMs: 150, goalMs: 12_000 },
    ].map(({ latencyMs, goalMs }) => {
      const wall = suiteWallAt(results.network, latencyMs);
      const path = suiteCriticalPathAt(results.network, latencyMs);
      return {
        name: `quick run, server ${latencyMs} ms away (issue 30)`,
        target: `≤ ${goalMs / 1000} s`,
        measured: wall === null ? null : round(wall / 1000, 2),
        unit: 's',
        met: met(wall, (v) => v <= goalMs),
        note: results.network
          ? `\`npm run -s conformance\` against the reference server with latency=latency-${latencyMs}ms, median of ${results.network.rounds}; critical path ${path ?? '—'} requests: floor ${path === null ? '—' : s(path * latencyMs)} (at 0 ms: ${s(suiteWallAt(results.network, 0))})`
          : 'not measured (`npm run bench -- --only network` measures it)',
      };
    }),
    {
      name: 'peak memory, quick run (issue 30)',
      target: '≤ 1 GiB',
      measured: quickPeak,
      unit: 'MiB',
      met: met(quickPeak, (v) => v <= 1024),
      note: `the most of: the embedded quick run (${mib(results.quickRun.medianPeakMiB)}, one worker) and the quick runs across a network (${mib(suitePeakMiB(results.network))}, a worker per round trip); every process of the command, npm included`,
    },
    {
      name: 'peak memory, thorough run (issue 30)',
      target: '≤ 1 GiB',
      measured: thoroughPeak,
      unit: 'MiB',
      met: met(thoroughPeak, (v) => v <= 1024),
      note: `the most of: the embedded thorough run (${mib(results.thoroughRun.medianPeakMiB)}, one worker, median of ${results.thoroughRun.runs}) and one across a network (${results.network?.thorough ? `${mib(results.network.thorough.peakMiB)} at ${results.network.thorough.latencyMs} ms` : 'not measured'})`,
    },
  ];
}

function cpuNote(times: WallTimes): string {
  return times.medianCpuMs === null ? '' : `; it needs ${(times.medianCpuMs / 1000).toFixed(1)} CPU-s, so ≥ ${(times.medianCpuMs / 2000).toFixed(1)} s on 2 idle cores`;
}

function roundValidation(validation: ReturnType<typeof validationCost>): ReturnType<typeof validationCost> {
  return {
    responses: validation.responses,
    ajvMicroseconds: round(validation.ajvMicroseconds, 2),
    responseChecksMicroseconds: round(validation.responseChecksMicroseconds, 2),
    byOperation: mapValues(validation.byOperation, (entry) => ({ responses: entry.responses, ajvMicroseconds: round(entry.ajvMicroseconds, 2) })),
  };
}

function mapValues<T, U>(record: Record<string, T>, map: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(2);
}

main().catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
