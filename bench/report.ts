import { failingMarkdown } from './failing';
import { networkMarkdown } from './network';
import type { BenchResults } from './results';
import type { WallTimes } from './stats';

const START = '<!-- bench:results:start -->';
const END = '<!-- bench:results:end -->';

const s = (ms: number | null) => (ms === null || !Number.isFinite(ms) ? '—' : `${(ms / 1000).toFixed(2)} s`);
const n = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—');
const mib = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${value} MiB`);
/** A count measured, or — where it was not (a results.json written before it was). */
const count = (value: number | null | undefined) => (value === null || value === undefined ? '—' : n(value));
const yes = (met: boolean | null) => (met === null ? 'not measured' : met ? 'met' : '**missed**');

/** results.json as the Markdown tables of results.md (and of the README). */
export function renderMarkdown(r: BenchResults): string {
  const lines: string[] = [];
  const table = (header: string[], rows: Array<Array<string | number>>) => {
    lines.push(`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`), '');
  };
  lines.push(
    `Measured ${r.generatedAt} by \`${r.command}\` (${r.durationSeconds} s) on ${r.machine.cpus} × ${r.machine.cpuModel}, Node ${r.machine.node}; ` +
      `load average ${r.machine.loadAverageAtStart.join(' / ')} at the start, ${r.machine.loadAverageAtEnd.join(' / ')} at the end. ` +
      `Every figure is a median of runs made side by side in this session.`,
    '',
  );
  if (r.mode === 'quick') lines.push('**--quick mode**: one round, no thorough run, short load; for the self-test, not for conclusions.', '');

  lines.push('### Targets', '');
  table(
    ['Target', 'Goal', 'Measured', 'Result', 'How'],
    r.targets.map((t) => [t.name, t.target, t.measured === null ? '—' : `${t.measured} ${t.unit}`, yes(t.met), t.note]),
  );

  lines.push('### Conformance runs (`npm run conformance`, embedded server, command start to exit)', '');
  // Requests and orders beside each time: a run that grows shows here the day it lands.
  const madeBy = (runs: WallTimes) => [count(runs.medianRequests), count(runs.medianOrdersCreated)];
  table(
    ['Effort', 'Runs', 'Median', 'Each run', 'Requests, median', 'Orders created, median', 'CPU time (user + sys), median', 'Peak memory, median'],
    [
      ['quick', r.quickRun.runs, s(r.quickRun.medianMs), r.quickRun.wallMs.map((ms) => s(ms)).join(', '), ...madeBy(r.quickRun), s(r.quickRun.medianCpuMs), mib(r.quickRun.medianPeakMiB)],
      ['thorough', r.thoroughRun.runs, s(r.thoroughRun.medianMs), r.thoroughRun.wallMs.map((ms) => s(ms)).join(', ') || 'not run', ...madeBy(r.thoroughRun), s(r.thoroughRun.medianCpuMs), mib(r.thoroughRun.medianPeakMiB)],
      [`one test (\`-- ${r.oneTestRun.args}\`): the fixed costs`, r.oneTestRun.runs, s(r.oneTestRun.medianMs), r.oneTestRun.wallMs.map((ms) => s(ms)).join(', '), ...madeBy(r.oneTestRun), s(r.oneTestRun.medianCpuMs), mib(r.oneTestRun.medianPeakMiB)],
    ],
  );
  lines.push(
    'Requests: those the run\'s tests sent (its report\'s count; the sign-in, preflight and cleanup aside); orders created: those its ledger records. ' +
      'CPU time is that of the command and every process it started; it hardly moves when others load the machine, wall time does. ' +
      'Peak memory: the most resident memory (RSS) the command and every process it started (npm, Playwright\'s runner with the embedded server, its workers) held at once, read every 0.2 s.',
    '',
  );

  lines.push(...failingMarkdown(r.failingRuns));

  if (r.network) lines.push(...networkMarkdown(r.network));

  lines.push('### Requests the suite sent (counted at the server)', '');
  const figures = [['quick', r.requests.quick] as const, ...(r.requests.thorough ? [['thorough', r.requests.thorough] as const] : [])];
  table(
    ['Effort', 'Runs', 'Requests', 'req/s, whole command', 'req/s, while sending', 'Start-up', 'Sending', 'Teardown', 'Server time', 'CPU: suite / server', '429/503'],
    figures.map(([effort, f]) => [
      effort,
      f.runs,
      n(f.requests),
      n(f.perSecondWall),
      n(f.perSecondInRun),
      s(f.startupMs),
      s(f.inRunMs),
      s(f.teardownMs),
      s(f.serverMs),
      `${s(f.suiteCpuMs)} / ${s(f.serverCpuMs)}`,
      f.rateLimited,
    ]),
  );
  for (const [effort, f] of figures) {
    lines.push(
      `By operation (${effort}): ${Object.entries(f.byOperation).map(([op, count]) => `${op} ${n(count)} (server ${s(f.serverMsByOperation[op] ?? NaN)})`).join(', ')}.`,
      '',
    );
  }
  lines.push('Start-up: command start to the first request (Playwright, TypeScript transform, global setup); sending: first request to last response; teardown: to exit (reporters). Server time sums each request\'s arrival-to-response time.', '');

  lines.push('### Suite overhead against a bare client', '');
  const o = r.overhead;
  table(
    ['Requests', 'Suite, whole command', 'Suite, while sending', 'Bare replay', 'Ratio, whole command', 'Ratio, while sending', 'CPU: suite run / replay', 'CPU ratio', 'Replay status agreement'],
    [
      [
        n(o.requests),
        s(o.suiteWallMs),
        s(o.suiteInRunMs),
        s(o.replayMs),
        `${o.ratioWall}×`,
        `${o.ratioInRun}×`,
        `${s(o.suiteCpuMs)} / ${s(o.replayCpuMs)}`,
        `${o.ratioCpu}×`,
        `${(o.replaySameStatus * 100).toFixed(1)}%`,
      ],
    ],
  );
  lines.push('The replay sends the recorded requests in arrival order with Node\'s fetch, one at a time on one keep-alive connection, to the same server, ids mapped to the ones the server assigns during the replay; it reads every body and checks nothing. CPU counts the server on both sides (the suite\'s processes plus the server; the replay\'s one process holds client and server).', '');

  const counts = r.clientCost.requestCounts;
  lines.push(`### Cost of one request inside a Playwright worker, by client (µs, median of ${r.clientCost.rounds})`, '');
  table(
    ['Client', ...counts.map((count) => `wall, test of ${count}`), ...counts.map((count) => `worker CPU, test of ${count}`), 'CPU vs fetch'],
    Object.entries(r.clientCost.microseconds).map(([name, byCount]) => {
      const cpu = r.clientCost.cpuMicroseconds[name] ?? {};
      const last = String(counts[counts.length - 1]);
      const fetchCpu = r.clientCost.cpuMicroseconds.fetch?.[last] ?? NaN;
      return [name, ...counts.map((count) => n(byCount[String(count)] ?? NaN)), ...counts.map((count) => n(cpu[String(count)] ?? NaN)), `${((cpu[last] ?? NaN) / fetchCpu).toFixed(1)}×`];
    }),
  );
  lines.push('The same GET, one request after another, each client in a test of its own (bench/client-cost). "expect only on a finding" is the harness\'s OmsClient and responseChecks with check() called only for a finding; "inside one test.step" is OmsApi unchanged, its requests wrapped in one step.', '');

  lines.push('### Validation and generation cost', '');
  table(
    ['Per response', 'µs'],
    [
      [`ajv, compiled response validator (${n(r.validation.responses)} real responses)`, r.validation.ajvMicroseconds],
      ['all checks the harness runs on a response (responseChecks)', r.validation.responseChecksMicroseconds],
      ...Object.entries(r.validation.byOperation).map(([op, v]) => [`ajv, ${op} (${n(v.responses)})`, v.ajvMicroseconds]),
    ],
  );
  table(
    [`Per payload (${r.generation.payloads} drawn)`, 'µs'],
    Object.entries(r.generation.microseconds).map(([name, us]) => [name, us]),
  );

  const storeColumns = Object.keys(Object.values(r.store.microseconds)[0] ?? {});
  table(
    ['store.page(), first page (µs per call)', ...storeColumns],
    Object.entries(r.store.microseconds).map(([name, byCase]) => [name, ...storeColumns.map((column) => byCase[column])]),
  );

  lines.push('### Reference server throughput (autocannon, 10 connections, loopback)', '');
  table(
    ['Endpoint', 'Account holds', 'req/s', 'p50 latency', 'p99 latency', 'Rounds'],
    Object.entries(r.throughput).map(([name, t]) => [name, t.accountOrders ? n(t.accountOrders) : '—', n(t.requestsPerSecond), `${t.latencyP50Ms} ms`, `${t.latencyP99Ms} ms`, `${t.rounds} × ${r.settings.loadSeconds} s`]),
  );

  lines.push('### Scale: effort', '');
  table(
    ['Effort', 'numRuns', 'Sequences × commands', 'Runs', 'Whole command', 'Sending', 'Requests', 'Playwright steps (expect / API)', 'Slowest tests (time, steps)'],
    r.scale.effort.map((e) => [
      e.effort,
      e.numRuns,
      `${e.sequences} × ≤${e.maxCommands}`,
      e.runs,
      s(e.wallMs),
      s(e.inRunMs),
      n(e.requests),
      `${n(e.steps)} (${n(e.expectSteps)} / ${n(e.apiSteps)})`,
      e.slowestTests.slice(0, 3).map((t) => `${t.test} (${s(t.ms)}, ${n(t.steps)} steps)`).join('; '),
    ]),
  );

  lines.push('### Scale: account size (account A pre-filled, quick effort)', '');
  table(
    ['Orders in the account', 'Runs', 'Whole command', 'Sending', 'Requests', 'List requests', 'Server time'],
    r.scale.accountSize.map((row) => [n(row.orders), row.runs, s(row.wallMs), s(row.inRunMs), n(row.requests), n(row.listRequests), s(row.serverMs)]),
  );
  const sizes = r.scale.accountSize.map((row) => String(row.orders));
  if (r.scale.growingTests.length) {
    lines.push(`Checks whose time grows with the account size (median time rising with every size, and at the largest at least 1.5× and 200 ms more than at the empty account):`, '');
    table(
      ['Test', ...sizes.map((size) => `${Number(size).toLocaleString('en-US')} orders`), 'Ratio'],
      r.scale.growingTests.map((t) => [t.test, ...sizes.map((size) => s(t.msBySize[size] ?? NaN)), `${t.ratio}×`]),
    );
  } else {
    lines.push('No check grows with the account size (none takes 1.5× and 200 ms more at the largest size than at the empty account).', '');
  }

  if (r.warnings.length) lines.push('### Warnings', '', ...r.warnings.map((w) => `- ${w.replace(/\n/g, ' ')}`), '');
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The README with its results section replaced by the latest table. */
export function updateReadme(readme: string, markdown: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) return `${readme.trimEnd()}\n\n## Latest results\n\n${START}\n${markdown}${END}\n`;
  return `${readme.slice(0, start + START.length)}\n${markdown}${readme.slice(end)}`;
}
