import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EXIT_CODE } from '../config/exit-codes';
import { explores } from '../config/seed';
import { writeSettings, type Settings } from '../config/settings';
import { newRunId } from '../harness/http/ledger';
import { loadExpectations } from '../reporter/expectations';
import { loadPrivateKey } from '../reporter/integrity';
import { REPORT_FILES, type ConformanceReport } from '../reporter/report';
import { publishToGithub, writeGithubOutputs } from '../reporter/github';
import { clearReport } from '../reporter/write-report';
import { checkedSettings, environmentFrom } from './environment';
import { UsageError, type Parsed } from './options';
import { runPlaywright, SUITE_CONFIG } from './playwright';

const REPORTER = require.resolve('../reporter/conformance-reporter');

/** `oms-conformance [run]`: the suite against one server, with the report in --out. */
export async function run({ options, positionals }: Parsed): Promise<number> {
  if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} (options start with --)`);
  const env = environmentFrom(options);
  const settings = checkedSettings(env, options);
  checkReportFiles(settings);
  const filters = (['grep', 'grep-invert'] as const).flatMap((name) => {
    const pattern = options.get(name);
    if (typeof pattern !== 'string') return [];
    try {
      new RegExp(pattern);
    } catch (error) {
      throw new UsageError(`--${name} is not a regular expression: ${(error as Error).message}`);
    }
    return [`--${name}`, pattern];
  });
  const location = options.get('test');
  // A test of the suite by its file and line, relative to the suite's root: Playwright matches it against the test files' paths.
  if (typeof location === 'string' && !/^[\w./-]+\.ts:\d+$/.test(location)) throw new UsageError(`--test must be FILE:LINE of a test of the suite, as a replay line names it, got ${JSON.stringify(location)}`);
  const shard = options.get('shard');
  if (typeof shard === 'string') {
    const match = /^(\d+)\/(\d+)$/.exec(shard);
    if (!match || Number(match[1]) < 1 || Number(match[1]) > Number(match[2])) throw new UsageError(`--shard must be I/N with 1 <= I <= N, got ${JSON.stringify(shard)}`);
    if (explores(settings)) throw new UsageError('--shard needs --seed when exploring (--explore, --seed random, --effort thorough), the same on every shard, so the shards run the same generated cases');
  }
  const out = resolve(settings.reportDir);
  // The seed is fixed by the suite's config (config/seed.ts), once for the run.
  writeSettings({ runId: settings.runId ?? newRunId(), reportDir: out }, env);
  const args = ['test', '--config', SUITE_CONFIG, '--output', join(out, 'test-results')];
  args.push(...filters);
  if (typeof location === 'string') args.push(location);
  if (typeof shard === 'string') {
    // The shard's own conformance report stays next to the blob that `merge` combines.
    args.push('--shard', shard, '--reporter', `${env.CI ? 'dot' : 'list'},blob,${REPORTER}`);
    env.PLAYWRIGHT_BLOB_OUTPUT_DIR = join(out, 'blob');
  }
  clearReport(out);
  return exitCode(await runPlaywright(args, env), out);
}

/** Fails fast, before the suite starts, on an expectations file or a signing key that cannot be used (both configuration errors). */
export function checkReportFiles(settings: Settings): void {
  if (settings.expectationsFile) loadExpectations(settings.expectationsFile);
  if (settings.signingKeyFile) loadPrivateKey(settings.signingKeyFile);
}

/**
 * The documented exit code: 2 when the suite stopped on its configuration or preflight (or wrote no
 * report; 130 when it was interrupted before it could), otherwise the code of the report it wrote
 * (config/exit-codes.ts: 0 conformant, 1 not conformant, 3 inconclusive, 130 interrupted).
 */
export function exitCode(childCode: number, out: string): number {
  if (childCode === EXIT_CODE.configuration) return EXIT_CODE.configuration;
  const file = join(out, REPORT_FILES.json);
  if (!existsSync(file)) {
    console.error(`oms-conformance: the run ended (exit ${childCode}) without writing ${file}`);
    return childCode === EXIT_CODE.interrupted ? EXIT_CODE.interrupted : EXIT_CODE.configuration;
  }
  const report = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
  publishToGithub(report, process.env.GITHUB_STEP_SUMMARY);
  writeGithubOutputs(report, out);
  return report.exitCode;
}
