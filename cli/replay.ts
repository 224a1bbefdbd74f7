import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { EXIT_CODE } from '../config/exit-codes';
import { writeSettings } from '../config/settings';
import type { Replay } from '../checks/finding';
import { REPORT_FILES, type ConformanceReport } from '../reporter/report';
import { checkedSettings, environmentFrom } from './environment';
import { UsageError, type Parsed } from './options';
import { runPlaywright, SUITE_CONFIG } from './playwright';
import { readReportFile } from './report-file';

export type ReplayVerdict = 'FIXED' | 'STILL FAILING' | 'FLAKY' | 'NOT CHECKED';

/** One Playwright run of a replay: the requirements it answers for, and how it selects and seeds their tests. */
export interface ReplayUnit {
  requirements: string[];
  seed: number;
  /** A generated failure's path and test location (file:line): that one counterexample, exactly. */
  path?: string;
  location?: string;
}

/**
 * What to run again for each failed requirement of a report: a recorded counterexample (seed, path,
 * test location) where its findings carry one, otherwise its tests by their @ORD-… tag with the run's seed.
 * A failed requirement with neither a recorded replay nor a run seed cannot be replayed: the message names the file.
 */
export function replayUnits(report: ConformanceReport, file: string): ReplayUnit[] {
  const failed = report.requirements.filter((r) => r.status === 'failed');
  const units = new Map<string, ReplayUnit>();
  const add = (key: string, unit: Omit<ReplayUnit, 'requirements'>, id: string) => {
    const unitFor = units.get(key) ?? { ...unit, requirements: [] };
    if (!unitFor.requirements.includes(id)) unitFor.requirements.push(id);
    units.set(key, unitFor);
  };
  const unseeded: string[] = [];
  for (const r of failed) {
    const replays = r.findings.map((f) => (f as { replay?: Replay }).replay).filter((replay): replay is Replay => isReplay(replay));
    for (const { seed, path, location } of replays) add(`${seed} ${path} ${location}`, { seed, path, location }, r.id);
    if (replays.length) continue;
    if (typeof report.seed !== 'number') unseeded.push(r.id);
    else add(`tags ${report.seed}`, { seed: report.seed }, r.id);
  }
  if (unseeded.length) {
    throw new UsageError(
      `${file} has no seed to replay ${unseeded.join(', ')} with: neither the run (seed: null) nor their findings recorded one; run the suite again through oms-conformance, which always records a seed`,
    );
  }
  return [...units.values()];
}

function isReplay(value: unknown): value is Replay {
  const replay = value as Replay | undefined;
  return typeof replay?.seed === 'number' && typeof replay.path === 'string' && typeof replay.location === 'string' && /^[\w./-]+\.ts:\d+$/.test(replay.location);
}

/** FIXED when no run failed it, STILL FAILING when every run did, FLAKY in between; NOT CHECKED when no run got to check it. */
export function replayVerdict(outcomes: Array<'failed' | 'passed' | 'unchecked'>): ReplayVerdict {
  const checked = outcomes.filter((o) => o !== 'unchecked');
  const failures = checked.filter((o) => o === 'failed').length;
  if (checked.length === 0) return 'NOT CHECKED';
  if (failures === 0) return 'FIXED';
  return failures === outcomes.length ? 'STILL FAILING' : 'FLAKY';
}

/** `oms-conformance replay REPORT.json [--times N]`: the failed requirements again, N times; exit 0 only when every one is FIXED. */
export async function replay({ options, positionals }: Parsed): Promise<number> {
  if (positionals.length !== 1) throw new UsageError('replay needs one report: oms-conformance replay conformance-report/report.json [--times N]');
  const [file] = positionals;
  const timesOption = options.get('times') ?? '1';
  if (typeof timesOption !== 'string' || !/^[1-9]\d*$/.test(timesOption)) throw new UsageError(`--times must be a positive integer, got ${JSON.stringify(timesOption)}`);
  const times = Number(timesOption);
  const report = readReportFile(file);
  const units = replayUnits(report, file);
  const env = writeSettings({ profile: report.profile, effort: report.effort }, environmentFrom(options));
  const settings = checkedSettings(env, options);
  // The server the report tested, unless --base-url says otherwise (the embedded one is started afresh).
  if (!settings.baseUrl && report.target && !report.target.embedded && report.target.baseUrl) writeSettings({ baseUrl: report.target.baseUrl }, env);
  if (units.length === 0) {
    console.log(`${file}: no requirement failed, nothing to replay.`);
    return EXIT_CODE.conformant;
  }
  const outcomes = new Map<string, Array<'failed' | 'passed' | 'unchecked'>>();
  const work = replayDirectory(options.get('out'), file);
  const reports: string[] = [];
  for (let round = 1; round <= times; round++) {
    for (const [index, unit] of units.entries()) {
      const out = join(work, `run-${round}-${index + 1}`);
      const child = await runPlaywright(replayArguments(unit, out), writeSettings({ seed: unit.seed, replayPath: unit.path, reportDir: out }, { ...env }));
      if (child === EXIT_CODE.configuration) throw new UsageError(`the replay stopped on its configuration or preflight (exit 2); see the message above`);
      // Ctrl-C stopped the run in hand (it waited for it to clean up): the rounds left are not run either.
      if (child === EXIT_CODE.interrupted) {
        console.log(`\nReplay of ${file} interrupted: nothing is judged from the run it stopped.`);
        return EXIT_CODE.interrupted;
      }
      const rerun = readReportFile(join(out, REPORT_FILES.json));
      reports.push(`${shown(out)}/${REPORT_FILES.html} (${unit.requirements.join(', ')})`);
      for (const id of unit.requirements) {
        const status = rerun.requirements.find((r) => r.id === id)?.status;
        const outcome = status === 'failed' ? 'failed' : status === 'passed' || status === 'observed' ? 'passed' : 'unchecked';
        outcomes.set(id, [...(outcomes.get(id) ?? []), outcome]);
      }
    }
  }
  console.log(`\nReports of the replay runs, kept: ${reports.join('; ')}`);
  console.log(`\nReplay of ${file}, ${times} time(s):`);
  const verdicts = [...outcomes].map(([id, runs]) => {
    const verdict = replayVerdict(runs);
    const failures = runs.filter((o) => o === 'failed').length;
    console.log(`  ${verdict.padEnd(13)} ${id} (failed ${failures} of ${runs.length})`);
    return verdict;
  });
  return verdicts.every((v) => v === 'FIXED') ? EXIT_CODE.conformant : EXIT_CODE.violations;
}

/** Where replay keeps the report of each of its runs (--out, default replay-report): never the directory of the report it replays. */
function replayDirectory(out: string | true | undefined, file: string): string {
  const directory = resolve(typeof out === 'string' ? out : 'replay-report');
  if (directory === resolve(dirname(file))) throw new UsageError(`--out ${out}: that is the directory of ${file}, which replay reads; give another one`);
  mkdirSync(directory, { recursive: true });
  // Only what an earlier replay wrote there goes: a directory given with --out may hold anything else.
  for (const name of readdirSync(directory)) if (/^run-\d+-\d+$/.test(name)) rmSync(join(directory, name), { recursive: true, force: true });
  return directory;
}

function shown(path: string): string {
  const relativePath = relative(process.cwd(), path);
  return relativePath.startsWith('..') ? path : relativePath;
}

/** A recorded counterexample runs its one test (file:line); the others run the tests tagged with their requirement. */
function replayArguments(unit: ReplayUnit, out: string): string[] {
  const args = ['test', '--config', SUITE_CONFIG, '--output', join(out, 'test-results')];
  if (unit.location) return [...args, unit.location];
  const tags = unit.requirements.map((id) => `@${id.replace(/[^\w-]/g, '')}(?![\\w-])`).join('|');
  return [...args, '--grep', tags];
}
