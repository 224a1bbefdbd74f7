import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * Summarises a V8 .cpuprofile (node --cpu-prof) as the functions with the most self time and the most
 * total (inclusive) time. Usage: npx tsx bench/cpu-profile.ts <file.cpuprofile> [top]
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface HotFunction {
  name: string;
  selfPercent: number;
  totalPercent: number;
}

export interface ProfileSummary {
  /** Sampled time, and the part of it the thread was not idle. */
  sampledMs: number;
  busyMs: number;
  self: HotFunction[];
  total: HotFunction[];
  /** Self time by where the code lives: a package of node_modules, a folder of the project, node itself. */
  selfByPlace: Array<{ place: string; percent: number }>;
}

/** node_modules/<package>, the project's top folder, node: internals, or the V8 pseudo-frame. */
function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(no file: generated code, e.g. ajv validators, or native)';
  const path = url.replace(/^file:\/\//, '');
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (module) return `node_modules/${module[1]}`;
  if (path.startsWith('node:')) return 'node: internals';
  const inProject = relative(process.cwd(), path);
  return inProject.startsWith('..') ? path : `${inProject.split('/')[0]}/`;
}

export function summariseProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${relative(process.cwd(), url.replace(/^file:\/\//, ''))}:${lineNumber + 1}` : '';
    return `${functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let all = 0;
  let idle = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    all += delta;
    const node = byId.get(id);
    if (!node) return;
    if (node.callFrame.functionName === '(idle)') idle += delta;
    const place = placeOf(node.callFrame.url, node.callFrame.functionName);
    byPlace.set(place, (byPlace.get(place) ?? 0) + delta);
    self.set(label(node), (self.get(label(node)) ?? 0) + delta);
    // Each function once per stack, however deep its recursion.
    const onStack = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) onStack.add(label(byId.get(current) as ProfileNode));
    for (const name of onStack) total.set(name, (total.get(name) ?? 0) + delta);
  });
  const rank = (map: Map<string, number>, other: Map<string, number>, selfFirst: boolean): HotFunction[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, time]) => {
        const percent = (100 * time) / all;
        const otherPercent = (100 * (other.get(name) ?? 0)) / all;
        return selfFirst ? { name, selfPercent: percent, totalPercent: otherPercent } : { name, selfPercent: otherPercent, totalPercent: percent };
      });
  const selfByPlace = [...byPlace.entries()].sort((a, b) => b[1] - a[1]).map(([place, time]) => ({ place, percent: (100 * time) / all }));
  return { sampledMs: all / 1000, busyMs: (all - idle) / 1000, self: rank(self, total, true), total: rank(total, self, false), selfByPlace };
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  if (!file) throw new Error('usage: tsx bench/cpu-profile.ts <file.cpuprofile> [top]');
  const { sampledMs, busyMs, self, total, selfByPlace } = summariseProfile(file, Number(top ?? 15));
  console.log(`${(sampledMs / 1000).toFixed(2)} s sampled, ${(busyMs / 1000).toFixed(2)} s busy`);
  console.log(`Self time by place: ${selfByPlace.slice(0, 10).map(({ place, percent }) => `${place} ${percent.toFixed(1)}%`).join(', ')}`);
  const show = (title: string, rows: HotFunction[]) => {
    console.log(`\n${title}\n  self%  total%  function`);
    for (const row of rows) console.log(`${row.selfPercent.toFixed(1).padStart(7)} ${row.totalPercent.toFixed(1).padStart(7)}  ${row.name}`);
  };
  show('By self time', self);
  show('By total time', total);
}
