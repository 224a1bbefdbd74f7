import { spawn, type ChildProcess } from 'node:child_process';
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
      started.clearLimit();
      reject(error);
    });
    started.child.on('close', (code) => {
      started.clearLimit();
      resolve({ exitCode: code ?? -1, output: started.output(), outputLines: started.lines(), outputBytes: started.bytes(), timedOut: started.timedOut() });
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
      started.clearLimit();
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
  return {
    child,
    output: () => text,
    lines: () => lines,
    bytes: () => bytes,
    timedOut: () => timedOut,
    clearLimit: () => clearTimeout(timer),
  };
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
