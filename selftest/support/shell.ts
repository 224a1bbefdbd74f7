import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs reproduction lines the way a reader would, in bash, with a stand-in curl that records each argument
 * it receives: what a line really does, not what it looks like.
 */
export class RecordingShell {
  private readonly folder = mkdtempSync(join(tmpdir(), 'oms-shell-'));

  constructor(private readonly environment: Record<string, string>) {
    const curl = join(this.folder, 'curl');
    // One line per argument, base64; an @file argument (a body curl reads from a file) as @ and the file's bytes.
    writeFileSync(curl, '#!/usr/bin/env bash\nfor a in "$@"; do if [[ $a == @/dev/fd/* ]]; then printf @; base64 -w0 < "${a#@}"; else printf %s "$a" | base64 -w0; fi; echo; done\n');
    chmodSync(curl, 0o755);
  }

  /** bash -n: the line parses as one command. The error text when it does not. */
  syntaxError(line: string): string | undefined {
    const check = spawnSync('bash', ['-n', '-c', line], { encoding: 'utf8' });
    return check.status === 0 ? undefined : check.stderr || `bash -n exited ${check.status}`;
  }

  /** The arguments curl received when bash ran the line (curl's own name left out); a body read from a file as its bytes. */
  curlArguments(line: string): string[] {
    const run = spawnSync('bash', ['-c', line], { env: { PATH: `${this.folder}:/usr/bin:/bin`, HOME: '/nonexistent', ...this.environment }, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`bash exited ${run.status}: ${run.stderr}`);
    return run.stdout
      .split('\n')
      .slice(0, -1)
      .map((line) => Buffer.from(line.replace(/^@/, ''), 'base64').toString('utf8'));
  }

  dispose(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }
}
