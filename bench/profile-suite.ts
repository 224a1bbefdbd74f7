import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summariseProfile } from './cpu-profile';
import { profileRun } from './measure';
import { startBenchReference } from './reference';
import { cpuMsSince } from './stats';
import { runAgainst, type Effort } from './suite';

/**
 * Where a suite run spends its time: one recorded run against the bench's server with every process
 * (Playwright's runner, and its workers, which inherit the runner's node options) under --cpu-prof, then the hottest functions of each.
 * Usage: npx tsx bench/profile-suite.ts [quick|thorough] [top]
 */
async function main(): Promise<void> {
  const effort = (process.argv[2] ?? 'quick') as Effort;
  const top = Number(process.argv[3] ?? 12);
  const dir = mkdtempSync(join(tmpdir(), 'oms-bench-cpu-'));
  const server = await startBenchReference();
  try {
    const cpu = process.cpuUsage();
    const run = await runAgainst(server.url, effort, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    const profile = profileRun(run, server.take(), cpuMsSince(cpu));
    console.log(`run: ${(profile.wallMs / 1000).toFixed(2)} s, exit ${profile.exitCode}, ${profile.requests} requests; start-up ${(profile.startupMs / 1000).toFixed(2)} s, sending ${(profile.inRunMs / 1000).toFixed(2)} s, server time ${(profile.serverMs / 1000).toFixed(2)} s`);
    console.log(`profiles in ${dir}`);
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile')).sort()) {
      const { sampledMs, busyMs, self, total, selfByPlace } = summariseProfile(join(dir, file), top);
      console.log(`\n== ${file}: ${(sampledMs / 1000).toFixed(2)} s sampled, ${(busyMs / 1000).toFixed(2)} s busy`);
      console.log(`self time by place: ${selfByPlace.slice(0, 10).map(({ place, percent }) => `${place} ${percent.toFixed(1)}%`).join(', ')}`);
      console.log('  self%  total%  function (by self time)');
      for (const row of self) console.log(`${row.selfPercent.toFixed(1).padStart(7)} ${row.totalPercent.toFixed(1).padStart(7)}  ${row.name}`);
      console.log('  self%  total%  function (by total time)');
      for (const row of total) console.log(`${row.selfPercent.toFixed(1).padStart(7)} ${row.totalPercent.toFixed(1).padStart(7)}  ${row.name}`);
    }
  } finally {
    await server.close();
  }
}

void main();
