import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { behaviourTarget, DEV_TOKEN_A, filesUnder, PROJECT_ROOT, readReport, runCli, temporaryDirectory } from './support/cli';

const exec = promisify(execFile);

// Issue 31: a token typed as `--token X` is never printed, yet the replay hint a failure prints runs as printed.
// It reads the token from OMS_TOKEN and names --token: unset, the shell stops before sending anything and says
// which variable to set, to what. (The installed package's form is in cli-package.test.ts, with --client-secret-b.)

test('a token typed as --token: the hints read it from OMS_TOKEN and name --token, it appears in no output, and the hint replays the failure', async () => {
  test.setTimeout(240_000);
  const target = await behaviourTarget({ OMS_FAULT: 'list-mid-pages-slip' });
  const out = temporaryDirectory('oms-secret-');
  // Where the user's environment keeps the run's state: never the checkout's own folders.
  const env = { OMS_FAILURE_STORE: 'off', OMS_LEDGER_DIR: join(out, 'ledger') };
  try {
    const run = await runCli([...target.args, '--token', DEV_TOKEN_A, '--seed', '20261121', '--grep', '@ORD-LIST-006', '--out', join(out, 'report')], { cwd: PROJECT_ROOT, env });
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const guard = '"${OMS_TOKEN:?set OMS_TOKEN to the value you gave as --token}"';
    const hints = [...run.stdout.matchAll(/^ +Replay: +(.+)$/gm)].map((match) => match[1]);
    expect(hints.length, run.stdout).toBeGreaterThan(0);
    for (const hint of hints) expect(hint).toMatch(new RegExp(`^OMS_BASE_URL='[^']+' OMS_TOKEN=${escapeRegExp(guard)} OMS_SEED=20261121 OMS_PATH='[\\d:@]+' npx playwright test tests/\\S+\\.spec\\.ts:\\d+$`));
    expect(run.stdout).toContain(`Run the failed requirements again: npm run -s oms-conformance -- replay '${join(out, 'report')}/report.json' --base-url '${target.server.url}' --token ${guard}`);
    // The secret itself: in no line printed, in no file of the report.
    expect(run.stdout + run.stderr).not.toContain(DEV_TOKEN_A);
    const files = filesUnder(join(out, 'report'));
    expect(files.length).toBeGreaterThan(3);
    expect(files.filter((file) => readFileSync(file, 'latin1').includes(DEV_TOKEN_A))).toEqual([]);

    const [hint] = hints;
    const shell = { PATH: process.env.PATH, HOME: process.env.HOME, ...env, OMS_REPORT_DIR: join(out, 'replay') };
    // OMS_TOKEN unset: the shell stops at the hint's guard, naming the variable and the option it stands for.
    const unset = await exec('bash', ['-c', hint], { cwd: PROJECT_ROOT, env: shell }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
    );
    expect(unset.code).not.toBe(0);
    expect(unset.stderr).toContain('OMS_TOKEN: set OMS_TOKEN to the value you gave as --token');
    // Set as the line says: the hint, as printed, fails the same requirement again.
    const again = await exec('bash', ['-c', hint], { cwd: PROJECT_ROOT, env: { ...shell, OMS_TOKEN: DEV_TOKEN_A }, timeout: 180_000 }).then(
      () => ({ code: 0, output: '' }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code, output: `${error.stdout}${error.stderr}` }),
    );
    expect(again.code, again.output).toBe(1);
    expect(readReport(join(out, 'replay')).requirements.find((r) => r.id === 'ORD-LIST-006')?.status, again.output).toBe('failed');
  } finally {
    await target.server.close();
  }
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
