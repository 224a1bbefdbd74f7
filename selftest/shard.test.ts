import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport } from '../reporter/report';
import { DEV_TOKEN_A, listMetaStatusOffByOne, readReport, runCli, schemaProblems, startServer, temporaryDirectory } from './support/cli';

// Several files, so both shards get tests, of both phases (config/phases.ts: ORD-LIST-003 runs alone); a failing server and no second token, so the report holds
// failed, passed, skipped and observed requirements.
const SELECTION = '@ORD-GEN-00[12]|@ORD-DELETE-00[12]|@ORD-CREATE-00[23]|@ORD-ISO-001|@ORD-OBS-00[34]|@ORD-LIST-003';

/** What must be the same, requirement for requirement, whether the run was sharded or not. */
function perRequirement(report: ConformanceReport) {
  return report.requirements.map((r) => ({
    id: r.id,
    status: r.status,
    tests: [...r.tests].sort(),
    skipReasons: [...r.skipReasons].sort(),
    // Observed values may quote an example id, which differs from run to run.
    observed: r.observed.map((value) => value.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')).sort(),
    failedIn: [...new Set(r.findings.map((f) => f.test))].sort(),
    knownFailure: r.knownFailure,
  }));
}

test('two shards merged give the report of one unsharded run, requirement for requirement', async () => {
  const server = await startServer([listMetaStatusOffByOne]);
  const work = temporaryDirectory('oms-shards-');
  const common = ['--base-url', server.url, '--seed', '4242', '--grep', SELECTION, '--grep-invert', 'generated|model-based'];
  const env = { OMS_TOKEN: DEV_TOKEN_A };
  try {
    const whole = await runCli([...common, '--out', 'whole'], { cwd: work, env });
    expect(whole.exitCode, whole.stdout + whole.stderr).toBe(1);
    for (const shard of ['1/2', '2/2']) {
      const run = await runCli([...common, '--shard', shard, '--out', `shard-${shard[0]}`], { cwd: work, env });
      expect(run.exitCode, run.stdout + run.stderr).not.toBe(2);
      expect(readdirSync(join(work, `shard-${shard[0]}`, 'blob')).filter((f) => f.endsWith('.zip'))).toHaveLength(1);
      expect(readReport(join(work, `shard-${shard[0]}`)).shard).toBe(shard);
    }

    const incomplete = await runCli(['merge', 'shard-1', '--out', 'merged'], { cwd: work });
    expect([incomplete.exitCode, incomplete.stderr.trim()]).toEqual([2, 'oms-conformance: merge needs each of the 2 shards once; got 1/2 (missing 2/2)']);

    const merge = await runCli(['merge', 'shard-1', 'shard-2', '--out', 'merged'], { cwd: work });
    expect(merge.exitCode, merge.stdout + merge.stderr).toBe(1);
    const unsharded = readReport(join(work, 'whole'));
    const merged = readReport(join(work, 'merged'));
    expect(perRequirement(merged)).toEqual(perRequirement(unsharded));
    expect(new Set(unsharded.requirements.map((r) => r.status))).toEqual(new Set(['failed', 'passed', 'skipped', 'observed', 'not-reached', 'not-testable']));
    for (const field of ['verdict', 'gate', 'score', 'counts', 'profile', 'effort', 'seed', 'grep', 'target', 'suite'] as const) {
      expect(merged[field], field).toEqual(unsharded[field]);
    }
    expect([merged.shard, merged.mergedShards, unsharded.mergedShards]).toEqual([null, 2, null]);
    expect(schemaProblems(merged)).toEqual([]);
  } finally {
    await server.close();
  }
});
