import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { REPORT_FILES, type ConformanceReport } from '../reporter/report';
import { writeSettings } from '../config/settings';
import type { RunInfo } from '../config/run-info';
import { checkedSettings, environmentFrom } from './environment';
import { UsageError, type Parsed } from './options';
import { MERGE_CONFIG, runPlaywright } from './playwright';
import { checkReportFiles, exitCode } from './run';
import { keepOutsideFindings, OUTSIDE_FINDINGS_FILE, outsideTestsFile, readOutsideFindings } from '../harness/record/outside-tests';
import { newRunId } from '../harness/http/ledger';

interface Shard {
  directory: string;
  report: ConformanceReport;
  blobs: string[];
}

/**
 * `oms-conformance merge DIR...`: the shards' blob reports, merged by Playwright's merge-reports
 * through the conformance reporter, give the report one unsharded run would have given.
 */
export async function merge({ options, positionals }: Parsed): Promise<number> {
  if (!positionals.length) throw new UsageError('merge needs the --out directories of the shards: oms-conformance merge shard-1 shard-2 ...');
  const shards = positionals.map(readShard);
  const mergedRun = agreedRun(shards);
  const env = environmentFrom(options);
  const settings = checkedSettings(env, options);
  checkReportFiles(settings);
  const out = resolve(settings.reportDir);
  // What the shards' exchanges outside any test violated, handed to the merged run under a run id of its own.
  const runId = newRunId();
  writeSettings({ reportDir: out, mergedRun, runId }, env);
  keepOutsideFindings(shards.flatMap((shard) => readOutsideFindings(join(shard.directory, 'blob', OUTSIDE_FINDINGS_FILE))), outsideTestsFile(runId));
  const blobs = mkdtempSync(join(tmpdir(), 'oms-merge-'));
  try {
    shards.forEach((shard, index) => {
      for (const blob of shard.blobs) copyFileSync(blob, join(blobs, `shard-${index + 1}-${basename(blob)}`));
    });
    return exitCode(await runPlaywright(['merge-reports', '--config', MERGE_CONFIG, blobs], env), out);
  } finally {
    rmSync(blobs, { recursive: true, force: true });
  }
}

function readShard(directory: string): Shard {
  const file = join(directory, REPORT_FILES.json);
  if (!existsSync(file)) throw new UsageError(`${directory} holds no ${REPORT_FILES.json}: give the --out directory of each \`run --shard I/N\``);
  const report = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
  if (!report.shard) throw new UsageError(`${file} is not the report of a shard (run with --shard I/N)`);
  const blobDirectory = join(directory, 'blob');
  const blobs = existsSync(blobDirectory) ? readdirSync(blobDirectory).filter((name) => name.endsWith('.zip')).map((name) => join(blobDirectory, name)) : [];
  if (!blobs.length) throw new UsageError(`${directory} holds no blob report (blob/*.zip)`);
  return { directory, report, blobs };
}

/** What every shard ran; shards that disagree (suite, profile, seed, selection, server) or miss one of N are refused. */
function agreedRun(shards: Shard[]): RunInfo {
  const first = shards[0].report;
  for (const { directory, report } of shards.slice(1)) {
    for (const field of ['suite', 'profile', 'effort', 'seed', 'readOnly', 'grep'] as const) {
      if (JSON.stringify(report[field]) !== JSON.stringify(first[field])) {
        throw new UsageError(`the shards disagree on ${field}: ${shards[0].directory} has ${JSON.stringify(first[field])}, ${directory} has ${JSON.stringify(report[field])}`);
      }
    }
  }
  const total = Number(first.shard?.split('/')[1]);
  const present = shards.map(({ report }) => report.shard);
  const missing = Array.from({ length: total }, (_, i) => `${i + 1}/${total}`).filter((shard) => !present.includes(shard));
  if (missing.length || present.length !== total) {
    throw new UsageError(`merge needs each of the ${total} shards once; got ${present.join(', ')}${missing.length ? ` (missing ${missing.join(', ')})` : ''}`);
  }
  const embedded = shards.every(({ report }) => report.target.embedded);
  const urls = [...new Set(shards.map(({ report }) => report.target.baseUrl))];
  if (!embedded && urls.length > 1) throw new UsageError(`the shards tested different servers: ${urls.join(', ')}`);
  return {
    runId: [...new Set(shards.map(({ report }) => report.runId))].join('+'),
    target: embedded ? { baseUrl: null, embedded: true } : first.target,
    profile: first.profile,
    effort: first.effort,
    seed: first.seed,
    seedFrom: first.seedFrom ?? null,
    readOnly: first.readOnly,
    grep: first.grep,
    shard: null,
    mergedShards: total,
  };
}
