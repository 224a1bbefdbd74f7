import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { judgeExchange, type RecordedExchange } from '../checks/traffic';
import { parseJson, type Exchange } from '../contract/exchange';
import { operationOf } from '../contract/operations';
import { EXIT_CODE } from '../config/exit-codes';
import { redact } from '../config/redaction';
import { decoderFor, flattenHeaders } from '../harness/http/transport';
import { renderHar, type HarExchange } from '../reporter/har';
import { exchangeViolationLines, judgeTraffic, trafficLines } from '../reporter/traffic-report';
import { checkedSettings, environmentFrom } from './environment';
import { maskCredentials } from './judge';
import { UsageError, type Parsed } from './options';

/** Hop-by-hop headers (RFC 9110 7.6.1): they belong to one connection, and are never forwarded. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

/** The files the proxy writes on exit, in --out. */
export const PROXY_FILES = { har: 'traffic.har', report: 'traffic-report.json' } as const;

/**
 * `oms-conformance proxy --base-url URL [--port N] [--out DIR] [--requests N] [--duration S]`: a reverse
 * proxy on 127.0.0.1 in front of the server. Any client sends its requests through it; each exchange is
 * judged as it happens by the checks `judge` applies to a HAR (checks/traffic.ts), and each violation is
 * printed at once, secrets masked. On exit (Ctrl-C, SIGTERM, or a bound) it writes the traffic as a HAR and
 * the report of `judge`, and exits 1 when a gating requirement failed, 3 when no request of the interface
 * went through, 0 otherwise.
 */
export async function proxy({ options, positionals }: Parsed): Promise<number> {
  if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} (options start with --)`);
  const settings = checkedSettings(environmentFrom(options), options);
  if (!settings.baseUrl) throw new UsageError('proxy needs --base-url: the server the requests go to');
  const base = new URL(settings.baseUrl);
  const port = count(options, 'port', 0, 65_535) ?? 0;
  const maxRequests = count(options, 'requests', 1);
  const durationS = count(options, 'duration', 1);
  const out = resolve(typeof options.get('out') === 'string' ? (options.get('out') as string) : 'proxy-report');

  const recorded: Array<HarExchange & { index: number }> = [];
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((done) => (finish = done));

  const judge = (exchange: Exchange, truncated: RecordedExchange['truncated']) => {
    maskCredentials([{ exchange }]);
    const entry = { index: recorded.length, exchange, ...(truncated && { truncated }) };
    const lines = exchangeViolationLines(entry, judgeExchange(entry, recorded, settings), settings.profile);
    if (lines.length) console.log(lines.join('\n'));
    recorded.push(entry);
    if (maxRequests !== undefined && recorded.length >= maxRequests) finish();
  };

  const server = createServer((incoming, outgoing) => {
    forward(incoming, outgoing, { base, maxBytes: settings.maxResponseBytes, timeoutMs: settings.requestTimeoutMs, judge });
  });
  await new Promise<void>((listening, failed) => {
    server.once('error', (error: NodeJS.ErrnoException) => failed(new UsageError(`--port ${port}: cannot listen on 127.0.0.1 (${error.code ?? error.message})`)));
    server.listen(port, '127.0.0.1', listening);
  });
  const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  console.log(`oms-conformance proxy: listening on ${address}, forwarding to ${redact(settings.baseUrl)}; point your client at ${address} instead (Ctrl-C to stop and write the report).`);

  const stop = () => finish();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const timer = durationS === undefined ? undefined : setTimeout(stop, durationS * 1000);
  await finished;
  clearTimeout(timer);
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  server.closeAllConnections();
  await new Promise((closed) => server.close(closed));

  const report = judgeTraffic(`traffic through ${address}`, recorded, settings.profile, settings);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, PROXY_FILES.har), renderHar(recorded, { name: 'oms-conformance proxy', version: '1' }));
  writeFileSync(join(out, PROXY_FILES.report), `${JSON.stringify(report, null, 2)}\n`);
  console.log(['', ...trafficLines(report), '', `Written: ${join(out, PROXY_FILES.har)}, ${join(out, PROXY_FILES.report)}`].join('\n'));
  if (report.verdict === 'failed') return EXIT_CODE.violations;
  return report.ofTheInterface === 0 ? EXIT_CODE.inconclusive : EXIT_CODE.conformant;
}

/** A whole-number option within bounds, or undefined when it was not given. */
function count(options: Map<string, string | true>, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const value = options.get(name);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return Number(value);
}

interface Forwarding {
  base: URL;
  maxBytes: number;
  timeoutMs: number;
  judge(exchange: Exchange, truncated: RecordedExchange['truncated']): void;
}

/**
 * One request, forwarded to the base URL's origin and nowhere else: only a path (origin-form) is taken, the
 * answer is streamed back as it comes (a redirect included, never followed), and a copy of each body up to
 * the response limit is kept for judging.
 */
function forward(incoming: IncomingMessage, outgoing: ServerResponse, { base, maxBytes, timeoutMs, judge }: Forwarding): void {
  const target = incoming.url ?? '';
  if (!target.startsWith('/') || target.startsWith('//')) {
    // An absolute URL would send the client's credentials to another host.
    outgoing.writeHead(400, { 'content-type': 'text/plain' }).end('oms-conformance proxy: send a path (GET /orders), not an absolute URL; requests go to the --base-url server only\n');
    return;
  }
  const prefix = base.pathname.replace(/\/$/, '');
  const url = new URL(`${base.origin}${prefix}${target}`);
  const headers = withoutHopByHop(incoming.headers as OutgoingHttpHeaders);
  headers.host = url.host;
  const startedAt = new Date();
  const started = Date.now();
  const requestCopy = new BoundedCopy(maxBytes);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstream = send(url, { method: incoming.method, headers, timeout: timeoutMs }, (answer) => {
    const waited = Date.now() - started;
    outgoing.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers as OutgoingHttpHeaders));
    const responseCopy = new BoundedCopy(maxBytes);
    // Streamed on as it comes, at the client's pace; the copy stops growing at the limit.
    answer.on('data', (chunk: Buffer) => responseCopy.add(chunk));
    answer.pipe(outgoing);
    answer.on('end', () => {
      void decoded(responseCopy, answer.headers['content-encoding']).then(({ text, cut }) => {
        const rawHeaders = flattenHeaders(incoming.headers);
        const requestBody = requestCopy.size ? requestCopy.text() : undefined;
        const exchange: Exchange = {
          operationId: operationOf(incoming.method ?? 'GET', target),
          request: { method: (incoming.method ?? 'GET').toUpperCase(), url: url.href, path: target, headers: rawHeaders, ...(requestBody !== undefined && { body: requestBody }) },
          status: answer.statusCode ?? 0,
          headers: flattenHeaders(answer.headers),
          text,
          json: cut ? undefined : parseJson(text),
          retries: 0,
          timing: { startedAt: startedAt.toISOString(), connect: -1, send: 0, wait: waited, receive: Date.now() - started - waited },
        };
        const truncated = { ...(requestCopy.cut && { request: true as const }), ...(cut && { response: true as const }) };
        judge(exchange, Object.keys(truncated).length ? truncated : undefined);
      });
    });
    answer.on('error', () => outgoing.destroy());
  });
  upstream.on('timeout', () => upstream.destroy(new Error(`no answer within ${timeoutMs} ms`)));
  upstream.on('error', (error) => {
    // The server gave no answer: nothing of it to judge; the client learns why.
    if (outgoing.headersSent) outgoing.destroy();
    else outgoing.writeHead(502, { 'content-type': 'text/plain' }).end(`oms-conformance proxy: ${redact(error.message)}\n`);
  });
  incoming.on('data', (chunk: Buffer) => requestCopy.add(chunk));
  incoming.pipe(upstream);
}

function withoutHopByHop(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const listed = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.includes(name.toLowerCase()) && !listed.includes(name.toLowerCase())));
}

/** The first bytes of a body, up to the limit, for judging; the body itself is streamed on whole. */
class BoundedCopy {
  private readonly chunks: Buffer[] = [];
  size = 0;
  cut = false;

  constructor(readonly maxBytes: number) {}

  add(chunk: Buffer): void {
    const room = this.maxBytes - this.size;
    if (chunk.length > room) this.cut = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  text(): string {
    return this.bytes().toString('utf8');
  }
}

/** The copy of a response body as text, decoded as the transport decodes it (gzip, deflate, br); cut when it went past the limit or does not decode. */
function decoded(copy: BoundedCopy, encoding: string | undefined): Promise<{ text: string; cut: boolean }> {
  const decoder = encoding ? decoderFor(encoding.trim().toLowerCase()) : undefined;
  if (!decoder) return Promise.resolve({ text: copy.text(), cut: copy.cut });
  return new Promise((done) => {
    const plain = new BoundedCopy(copy.maxBytes);
    decoder.on('data', (chunk: Buffer) => plain.add(chunk));
    decoder.on('end', () => done({ text: plain.text(), cut: copy.cut || plain.cut }));
    decoder.on('error', () => done({ text: plain.text(), cut: true }));
    decoder.end(copy.bytes());
  });
}
