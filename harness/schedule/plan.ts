import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One test a project will run, as a worker of that project needs to know it before Playwright reaches it. */
export interface PlannedTest {
  /** Its title path below the project: the file's title (relative to the test folder), the describes, the title. */
  titlePath: string[];
  /** The file that declares it, absolute: the worker loads its declarations from there (harness/schedule/declarations.ts). */
  file: string;
  /** Where Playwright locates it (a replay command names the line). */
  line: number;
  tags: string[];
}

/** What a reporter's Suite offers, as onBegin hands it over (the reporter API, no import of it here). */
interface SuiteLike {
  type?: string;
  title: string;
  location?: { file: string };
  parent?: SuiteLike;
  suites: SuiteLike[];
  allTests(): Array<{ tags: string[]; location: { file: string; line: number }; parent: SuiteLike; titlePath(): string[] }>;
}

/**
 * The tests each project of a run will run, in the order Playwright lists them, written by the runner once it
 * has filtered them (the conformance reporter's onBegin: grep, shard, file and line filters applied) for its
 * workers: a worker of a project that runs in one worker learns from it which tests are its own, and sends their
 * requests before Playwright reaches them (harness/schedule/scheduler.ts). One file per project, in a folder of
 * the temp area keyed by the runner's process id, which every worker knows as its parent's.
 */
export function writePlan(root: SuiteLike): void {
  const projects = root.type === 'project' ? [root] : root.suites.filter((suite) => suite.type === 'project');
  for (const project of projects) {
    const tests = project.allTests().map((test): PlannedTest => ({
      // titlePath(): '', the project, then the file, the describes and the title.
      titlePath: test.titlePath().slice(2),
      file: fileOf(test.parent) ?? test.location.file,
      line: test.location.line,
      tags: test.tags,
    }));
    mkdirSync(planFolder(process.pid), { recursive: true });
    writeFileSync(planFile(process.pid, project.title), JSON.stringify(tests));
  }
}

/** The tests a project of this worker's run will run, in order; undefined where the runner wrote none (another reporter than the conformance reporter). */
export function readPlan(project: string): PlannedTest[] | undefined {
  try {
    return JSON.parse(readFileSync(planFile(process.ppid, project), 'utf8')) as PlannedTest[];
  } catch {
    return undefined;
  }
}

/** Removes the plan of a project (the runner, at the run's end). */
export function forgetPlan(project: string): void {
  rmSync(planFile(process.pid, project), { force: true });
}

/** A test's key in a plan and among the declarations: its title path below the project. */
export function testKey(titlePath: readonly string[]): string {
  return titlePath.join('\u001f');
}

/** The file a test was loaded from: its file suite's (a helper module may declare it, its location then names the helper). */
function fileOf(suite: SuiteLike | undefined): string | undefined {
  for (let at = suite; at; at = at.parent) if (at.type === 'file') return at.location?.file;
  return undefined;
}

function planFolder(runnerPid: number): string {
  return join(tmpdir(), `oms-conformance-plan-${runnerPid}`);
}

function planFile(runnerPid: number, project: string): string {
  return join(planFolder(runnerPid), `${Buffer.from(project).toString('base64url') || '_'}.json`);
}
