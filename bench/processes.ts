import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Processes the bench starts: each in its own process group, bounded in time, stopped with everything it started. */

export interface BoundedRun {
  exitCode: number;
  /** The last 20,000 characters of stdout and stderr. */
  output: string;
  outputLines: number;
  outputBytes: number;
  /** True when the time limit ended it. */
  timedOut: boolean;
  /** The most resident memory its processes held at once (summed, sampled every MEMORY_SAMPLE_MS); undefined off Linux. */
  peakRssBytes?: number;
}

export interface CommandOptions {
  cwd: string;
  /** On top of the bench's environment, less its OMS_*, PLAYWRIGHT_* and TEST_* variables. */
  env: Record<string, string>;
  timeLimitMs: number;
}

/** A command run to its end, or stopped with everything it started once the time limit passes. */
export function runBounded(command: string, args: string[], options: CommandOptions): Promise<BoundedRun> {
  return new Promise<BoundedRun>((resolve, reject) => {
    const started = startInGroup(command, args, options);
    started.child.on('error', (error) => {
      started.stopTimers();
      reject(error);
    });
    started.child.on('close', (code) => {
      started.stopTimers();
      resolve({ exitCode: code ?? -1, output: started.output(), outputLines: started.lines(), outputBytes: started.bytes(), timedOut: started.timedOut(), peakRssBytes: started.peakRssBytes() });
    });
  });
}

export interface Background {
  /** Resolves once the output matched `ready`; rejects if the process ends or the time limit passes first. */
  ready: Promise<void>;
  output(): string;
  /** SIGTERM to the group, SIGKILL 5 s later if it still runs; resolves when the process has ended. */
  stop(): Promise<void>;
}

/** A server-like command left running (Prism's proxy): ready when its output matches, stopped by the caller. */
export function startBackground(command: string, args: string[], options: CommandOptions & { ready: RegExp }): Background {
  const started = startInGroup(command, args, options);
  const ended = new Promise<void>((resolve) => started.child.once('close', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    const check = () => {
      if (options.ready.test(started.output())) resolve();
    };
    started.child.stdout?.on('data', check);
    started.child.stderr?.on('data', check);
    started.child.once('error', reject);
    started.child.once('close', (code) => reject(new Error(`${command} ended (exit ${code}) before it was ready${started.timedOut() ? ' (time limit)' : ''}`)));
  });
  ready.catch(() => undefined);
  return {
    ready,
    output: started.output,
    stop: async () => {
      if (started.child.exitCode === null && started.child.signalCode === null) {
        signalGroup(started.child, 'SIGTERM');
        const kill = setTimeout(() => signalGroup(started.child, 'SIGKILL'), 5000);
        await ended;
        clearTimeout(kill);
      }
      started.stopTimers();
    },
  };
}

function startInGroup(command: string, args: string[], options: CommandOptions) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(OMS_|PLAYWRIGHT_|TEST_)/.test(name)));
  // Its own process group, so a run that overstays is stopped with everything it started.
  const child = spawn(command, args, { cwd: options.cwd, env: { ...inherited, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    signalGroup(child, 'SIGKILL');
  }, options.timeLimitMs);
  let text = '';
  let lines = 0;
  let bytes = 0;
  const keep = (chunk: Buffer) => {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
    text = (text + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let peakRssBytes: number | undefined;
  const sampleMemory = () => {
    const rss = child.pid === undefined ? undefined : groupRssBytes(child.pid);
    if (rss !== undefined) peakRssBytes = Math.max(peakRssBytes ?? 0, rss);
  };
  const sampler = setInterval(sampleMemory, MEMORY_SAMPLE_MS);
  return {
    child,
    output: () => text,
    lines: () => lines,
    bytes: () => bytes,
    timedOut: () => timedOut,
    peakRssBytes: () => peakRssBytes,
    stopTimers: () => {
      clearTimeout(timer);
      clearInterval(sampler);
    },
  };
}

/** How often the memory of a running command is read: often enough for a peak of a few seconds, rarely enough to cost the measured run nothing to speak of. */
const MEMORY_SAMPLE_MS = 200;

/**
 * Resident memory of the processes of a process group, summed (VmRSS of /proc/N/status): a command the bench
 * starts, with every process it started (npm, Playwright's runner and its workers); undefined off Linux.
 */
export function groupRssBytes(groupId: number): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  let total = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After the command in parentheses (which may hold spaces): state, parent, process group.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== groupId) continue;
      const rss = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (rss) total += Number(rss[1]) * 1024;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // The group has already ended.
  }
}

/** A port free on 127.0.0.1 at this moment (for a tool that must be told its port). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
