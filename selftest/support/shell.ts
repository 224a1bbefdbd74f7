import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasInvisible } from '../../config/safe-text';
import { hasLongRun } from '../../harness/http/shell';

/** The shells a reproduction line must run in as printed: POSIX sh (dash here), bash, and zsh where it is installed. */
export type ShellName = 'sh' | 'bash' | 'zsh';

const SHELL_PATHS: Record<ShellName, string> = { sh: '/bin/sh', bash: '/bin/bash', zsh: '/usr/bin/zsh' };

/** The shells of this machine that lines are run in; zsh only where installed (apt-get install zsh). */
export const SHELLS: ShellName[] = (Object.keys(SHELL_PATHS) as ShellName[]).filter((name) => existsSync(SHELL_PATHS[name]));

/** What running one line did: each curl call with its arguments (the bytes curl got), and anything else it printed or reported. */
export interface ShellRun {
  calls: Buffer[][];
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs reproduction lines the way a reader would, in sh, bash or zsh, with a stand-in curl that records each
 * call and each argument it receives: what a line really does, not what it looks like. PATH holds the stand-in
 * and the two tools a line reads a credential back with (cat, sed) alone, so any other command a line would
 * run fails, and shows on stderr.
 */
export class RecordingShell {
  private readonly folder = mkdtempSync(join(tmpdir(), 'oms-shell-'));
  private readonly log = join(this.folder, 'calls');

  constructor(private readonly environment: Record<string, string>) {
    const curl = join(this.folder, 'curl');
    // One line per call ("call"), then one per argument, base64; a body curl reads from stdin (@-) as the bytes read.
    writeFileSync(
      curl,
      `#!/bin/bash\n{ echo call; for a in "$@"; do if [[ $a == @- ]]; then /usr/bin/base64 -w0; else printf %s "$a" | /usr/bin/base64 -w0; fi; echo; done; } >> '${this.log}'\n`,
    );
    chmodSync(curl, 0o755);
    // A line may read a credential back as the user gave it: a file (cat), a sign-in's answer (sed).
    for (const tool of ['cat', 'sed']) symlinkSync(`/bin/${tool}`, join(this.folder, tool));
  }

  /** `<shell> -n`: the line parses as one command. The error text when it does not. */
  syntaxError(line: string, shell: ShellName = 'bash'): string | undefined {
    const check = spawnSync(SHELL_PATHS[shell], ['-n', '-c', line], { encoding: 'utf8' });
    return check.status === 0 ? undefined : check.stderr || `${shell} -n exited ${check.status}`;
  }

  /** Runs the line in the shell and reports what it did. */
  run(line: string, shell: ShellName = 'bash'): ShellRun {
    rmSync(this.log, { force: true });
    const run = spawnSync(SHELL_PATHS[shell], ['-c', line], { env: { PATH: this.folder, HOME: '/nonexistent', ...this.environment }, encoding: 'utf8' });
    const calls: Buffer[][] = [];
    for (const entry of existsSync(this.log) ? readFileSync(this.log, 'utf8').split('\n').slice(0, -1) : []) {
      if (entry === 'call') calls.push([]);
      else calls[calls.length - 1].push(Buffer.from(entry, 'base64'));
    }
    return { calls, status: run.status, stdout: run.stdout, stderr: run.stderr };
  }

  /** The arguments curl received when the shell ran the line (curl's own name left out); throws unless curl ran once and nothing else happened. */
  curlArguments(line: string, shell: ShellName = 'bash'): string[] {
    return this.curlArgumentBytes(line, shell).map((bytes) => bytes.toString('utf8'));
  }

  /** curlArguments as the bytes curl received: a body that is not UTF-8 included. */
  curlArgumentBytes(line: string, shell: ShellName = 'bash'): Buffer[] {
    const run = this.run(line, shell);
    if (run.status !== 0 || run.stderr || run.stdout || run.calls.length !== 1) {
      throw new Error(`${shell} -c ${JSON.stringify(line)}: exit ${run.status}, ${run.calls.length} curl call(s), stdout ${JSON.stringify(run.stdout)}, stderr ${JSON.stringify(run.stderr)}`);
    }
    return run.calls[0];
  }

  dispose(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }
}

/** A request as a finding records it. */
interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * The arguments a curl line must hand curl for this request, the placeholders ($OMS_TOKEN …) replaced by the
 * environment's values: a body with a control or invisible character, or a long run of one, comes from stdin (--data-binary @-). What
 * goes on the wire is UTF-8: a lone surrogate is sent, and so reproduced, as U+FFFD.
 */
export function intendedArguments(request: RecordedRequest, environment: Record<string, string>): string[] {
  const longestFirst = Object.entries(environment).sort(([a], [b]) => b.length - a.length);
  const expand = (text: string) => longestFirst.reduce((value, [name, secret]) => value.split(`$${name}`).join(secret), text);
  const headers = Object.entries(request.headers).flatMap(([name, value]) => ['-H', `${name}: ${expand(value)}`]);
  const body = request.body === undefined ? [] : [hasInvisible(request.body) || hasLongRun(request.body) ? '--data-binary' : '--data-raw', request.body];
  return ['-sS', '-i', '-X', request.method, request.url, ...headers, ...body].map((text) => Buffer.from(text, 'utf8').toString('utf8'));
}
