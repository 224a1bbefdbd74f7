import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { RecordedExchange } from '../checks/traffic';
import { parseJson, type Exchange } from '../contract/exchange';
import { operationOf } from '../contract/operations';
import { EXIT_CODE } from '../config/exit-codes';
import { redact } from '../config/redaction';
import { visible } from '../config/safe-text';
import { decoderFor, flattenHeaders } from '../harness/http/transport';
import { HarFile } from '../reporter/har';
import { exchangeViolationLines, TrafficJudge, trafficLines, type TrafficReport } from '../reporter/traffic-report';
import { checkedSettings, environmentFrom } from './environment';
import { maskCredentials } from './judge';
import { UsageError, type Parsed } from './options';

/** Hop-by-hop headers (RFC 9110 7.6.1): they belong to one connection, and are never forwarded. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

/** The files the proxy writes in --out, kept on disk as exchanges arrive. */
export const PROXY_FILES = { har: 'traffic.har', report: 'traffic-report.json' } as const;

/** How often the proxy looks whether the process that started it is still there. */
const LAUNCHER_POLL_MS = 250;
/** The probe of the service at start waits no longer than this, whatever the request timeout. */
const PROBE_TIMEOUT_MS = 5000;

/**
 * `oms-conformance proxy --base-url URL [--port N] [--out DIR] [--requests N] [--duration S]`: a reverse
 * proxy on 127.0.0.1 in front of the server. Any client sends its requests through it; each exchange is
 * judged as it happens by the checks `judge` applies to a HAR (checks/traffic.ts), each violation is printed
 * at once, and the HAR and judge's report in --out are brought up to date with it, credentials masked. It
 * ends however it is stopped (Ctrl-C, SIGTERM, SIGHUP, a bound, or the process that started it gone, as
 * when npm is killed and forwards no signal) and exits 1 when a gating requirement failed, 3 when no request
 * of the interface went through, 4 when none the client sent reached the service, 0 otherwise.
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
  const service = redact(settings.baseUrl);
  // Whoever reads the output may be gone (a killed parent's pipe): the files come first, and a lost line is no crash.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);

  const server = createServer();
  await new Promise<void>((listening, failed) => {
    server.once('error', (error: NodeJS.ErrnoException) => failed(new UsageError(listenProblem(port, error))));
    server.listen(port, '127.0.0.1', listening);
  });
  const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const source = `traffic through ${address}`;
  mkdirSync(out, { recursive: true });
  const har = new HarFile(join(out, PROXY_FILES.har), { name: 'oms-conformance proxy', version: '1' });
  const traffic = new TrafficJudge(settings.profile, settings);
  const unanswered = { requests: 0, first: '' };
  let exchanges = 0;
  const keepReport = () => writeAtomically(join(out, PROXY_FILES.report), `${JSON.stringify(withUnanswered(traffic.report(source), unanswered), null, 2)}\n`);
  keepReport();

  let finish: () => void = () => undefined;
  let open = true;
  const finished = new Promise<void>((done) => (finish = done)).then(() => void (open = false));
  const counted = () => {
    if (maxRequests !== undefined && exchanges + unanswered.requests >= maxRequests) finish();
  };
  // An exchange that completes after the end is neither judged nor written: the files are closed.
  const judge = (given: Exchange, truncated: RecordedExchange['truncated']) => {
    if (!open) return;
    const masked = [{ exchange: given }];
    maskCredentials(masked);
    const entry = { index: exchanges++, exchange: masked[0].exchange, ...(truncated && { truncated }) };
    const lines = exchangeViolationLines(entry, traffic.add(entry), settings.profile);
    if (lines.length) console.log(lines.join('\n'));
    // On disk before the next exchange: a proxy killed outright loses only what was in flight.
    har.append(entry);
    keepReport();
    counted();
  };
  const failed = (request: string, problem: string) => {
    if (!open) return;
    if (!unanswered.requests++) {
      unanswered.first = problem;
      console.error(`oms-conformance proxy: ${visible(request)} got no answer from ${service} (${visible(problem)}); the client was answered 502. Is the service running there? Check --base-url.`);
    }
    keepReport();
    counted();
  };
  server.on('request', (incoming: IncomingMessage, outgoing: ServerResponse) => {
    forward(incoming, outgoing, { base, maxBytes: settings.maxResponseBytes, timeoutMs: settings.requestTimeoutMs, judge, failed });
  });
  console.log(`oms-conformance proxy: listening on ${address}, forwarding to ${service}; point your client at ${address} instead (Ctrl-C or kill ${process.pid} to stop; the report in ${out} is kept up to date as requests go through).`);
  const reachable = await probe(base, Math.min(settings.requestTimeoutMs, PROBE_TIMEOUT_MS));
  if (reachable !== true) {
    console.error(`oms-conformance proxy: ${service} cannot be reached (${visible(reachable)}): the client's requests will be answered 502 until it can. Start the service, or check --base-url.`);
  }

  const stop = () => finish();
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of signals) process.once(signal, stop);
  const timer = durationS === undefined ? undefined : setTimeout(stop, durationS * 1000);
  const watch = watchLaunchers(stop);
  await finished;
  clearTimeout(timer);
  clearInterval(watch);
  for (const signal of signals) process.off(signal, stop);
  server.closeAllConnections();
  await new Promise((closed) => server.close(closed));
  har.close();

  const report = withUnanswered(traffic.report(source), unanswered);
  writeAtomically(join(out, PROXY_FILES.report), `${JSON.stringify(report, null, 2)}\n`);
  console.log(['', ...trafficLines(report), '', `Written: ${join(out, PROXY_FILES.har)}, ${join(out, PROXY_FILES.report)}`].join('\n'));
  if (report.entries === 0 && unanswered.requests > 0) return EXIT_CODE.serviceUnreachable;
  if (report.verdict === 'failed') return EXIT_CODE.violations;
  return report.ofTheInterface === 0 ? EXIT_CODE.inconclusive : EXIT_CODE.conformant;
}

/** The report with the requests that got no answer, where there were any. */
function withUnanswered(report: TrafficReport, unanswered: { requests: number; first: string }): TrafficReport {
  return unanswered.requests ? { ...report, unanswered: { ...unanswered } } : report;
}

/** A port that cannot be taken, said with the way out. */
function listenProblem(port: number, error: NodeJS.ErrnoException): string {
  if (error.code === 'EADDRINUSE') return `--port ${port}: port ${port} on 127.0.0.1 is already in use by another program. Give another port with --port N, or --port 0 to take any free one (the proxy prints the address it listens on).`;
  if (error.code === 'EACCES') return `--port ${port}: this user may not listen on port ${port} of 127.0.0.1 (EACCES). Give a port above 1023 with --port N, or --port 0 to take any free one.`;
  return `--port ${port}: cannot listen on 127.0.0.1 (${error.code ?? error.message})`;
}

/** True when a TCP connection to the service's host and port opens within the time; else why not (ECONNREFUSED, ENOTFOUND, a timeout). */
function probe(base: URL, timeoutMs: number): Promise<true | string> {
  const port = Number(base.port || (base.protocol === 'https:' ? 443 : 80));
  return new Promise((done) => {
    const socket = connect({ host: base.hostname.replace(/^\[|\]$/g, ''), port });
    const end = (outcome: true | string) => {
      socket.destroy();
      done(outcome);
    };
    socket.setTimeout(timeoutMs, () => end(`no connection within ${timeoutMs} ms`));
    socket.once('connect', () => end(true));
    socket.once('error', (error: NodeJS.ErrnoException) => end(error.code ?? error.message));
  });
}

/**
 * Calls `stop` once the process that started the proxy is gone. npm runs a command as `sh -c …` and forwards
 * only SIGINT and SIGTERM, to the shell: killed with SIGTERM, the shell dies and leaves the proxy behind;
 * with SIGHUP, npm dies and the shell stays. So the parent is watched, and, started by npm, its parent too.
 */
function watchLaunchers(stop: () => void): NodeJS.Timeout {
  const parent = process.ppid;
  const watched = [parent, ...(process.env.npm_execpath ? [parentOf(parent)].filter((pid): pid is number => pid !== undefined && pid > 1) : [])];
  const timer = setInterval(() => {
    if (process.ppid !== parent || watched.some((pid) => !isAlive(pid))) stop();
  }, LAUNCHER_POLL_MS);
  timer.unref();
  return timer;
}

/** The parent of a process, from ps (Linux, macOS); undefined where there is none to ask. */
function parentOf(pid: number): number | undefined {
  try {
    const ppid = Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A file replaced whole: a reader, or a process killed mid-write, never sees it half written. */
function writeAtomically(path: string, text: string): void {
  const partial = `${path}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, path);
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
  /** The service gave no answer to this request (method and path): why. */
  failed(request: string, problem: string): void;
}

/**
 * One request, forwarded to the base URL's origin and nowhere else: only a path (origin-form) is taken, the
 * answer is streamed back as it comes (a redirect included, never followed), and a copy of each body up to
 * the response limit is kept for judging.
 */
function forward(incoming: IncomingMessage, outgoing: ServerResponse, { base, maxBytes, timeoutMs, judge, failed }: Forwarding): void {
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
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (outgoing.headersSent) return void outgoing.destroy();
    // The server gave no answer: nothing of it to judge; the client learns why, and the request is counted.
    outgoing.writeHead(502, { 'content-type': 'text/plain' }).end(`oms-conformance proxy: ${redact(error.message)}\n`);
    failed(redact(`${incoming.method ?? 'GET'} ${target.split('?')[0]}`), redact(error.code ?? error.message));
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
