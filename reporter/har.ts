import { closeSync, openSync, writeSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { operationOf } from '../contract/operations';
import { bodyBytes, holdsNonUtf8Bytes, parseJson, type Exchange, type ExchangeTiming } from '../contract/exchange';
import type { FindingContext } from '../checks/finding';
import { redact } from '../config/redaction';
import { withCredentialsMasked } from '../config/credentials';
import type { Evidence } from './evidence';
import type { ConformanceReport } from './report';
import { jsonText } from './markup';

/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) of the exchanges behind failures, to open in
 * a browser's network panel, and to judge again with `oms-conformance judge`. Every string goes through
 * redact() once more, and every credential is masked where it stands (config/credentials.ts): nothing in it
 * carries a secret. Custom fields (HAR 1.2 allows any that start with
 * "_"): `_requirement` and `_test`, the requirement the run judged the exchange for and the test that sent
 * it; `_context`, what the check knew besides the exchange; `_truncated` on a body the report cut.
 */

interface NameValue {
  name: string;
  value: string;
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
  };
}

interface HarTimings {
  blocked: number;
  dns: number;
  connect: number;
  send: number;
  wait: number;
  receive: number;
  ssl: number;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: NameValue[];
    headers: NameValue[];
    queryString: NameValue[];
    postData?: { mimeType: string; text: string; comment?: string; _truncated?: true };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: NameValue[];
    headers: NameValue[];
    content: { size: number; mimeType: string; text?: string; encoding?: string; _truncated?: true };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: HarTimings;
  comment?: string;
  _requirement?: string;
  _test?: string;
  _context?: FindingContext;
}

/** One exchange of a HAR: what was sent and answered, with the run's notes on it where the suite wrote it. */
export interface HarExchange {
  exchange: Exchange;
  requirement?: string;
  test?: string;
  context?: FindingContext;
  truncated?: { request?: true; response?: true };
}

/** The HAR document of the given exchanges, in order; `at` stands in for a start time an exchange did not record. */
export function renderHar(exchanges: HarExchange[], creator: { name: string; version: string }, at: Date = new Date()): string {
  const har: Har = { log: { version: '1.2', creator, entries: exchanges.map((exchange) => harEntry(exchange, at)) } };
  return `${jsonText(har)}\n`;
}

/**
 * A HAR file kept whole on disk as it grows (the proxy's traffic.har): each entry is written the moment it is
 * added, and the file is a complete HAR document after every entry, so a process killed at any point leaves
 * every exchange it had finished. Entries as renderHar writes them.
 */
export class HarFile {
  private readonly fd: number;
  private readonly tail: string;
  private end: number;
  private entries = 0;

  constructor(path: string, creator: { name: string; version: string }) {
    const marker = '\u0000';
    const [head, tail] = jsonText({ log: { version: '1.2', creator, entries: [marker] } }).split(JSON.stringify(marker));
    this.tail = `${tail}\n`;
    this.fd = openSync(path, 'w');
    writeSync(this.fd, `${head}${this.tail}`, 0);
    this.end = Buffer.byteLength(head);
  }

  append(exchange: HarExchange): void {
    const text = `${this.entries ? ',\n      ' : ''}${jsonText(harEntry(exchange, new Date())).replace(/\n/g, '\n      ')}`;
    // Over the closing brackets, and them after it: one write, the document whole before and after.
    writeSync(this.fd, `${text}${this.tail}`, this.end);
    this.end += Buffer.byteLength(text);
    this.entries++;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** HAR's postData is text: a body sent with bytes that are not UTF-8 keeps them as contract/exchange.ts writes them. */
const NON_UTF8_COMMENT = 'bytes that are not UTF-8 were sent: each lone UTF-16 half U+DC80 to U+DCFF in text stands for the byte 0x80 to 0xFF (Python\'s surrogateescape)';

function harEntry({ exchange: given, requirement, test, context, truncated }: HarExchange, at: Date): HarEntry {
  // Whoever recorded it, no HAR this writes carries a credential where it stands.
  const exchange = withCredentialsMasked(given);
  const url = redact(exchange.request.url);
  const requestBody = exchange.request.body === undefined ? undefined : redact(exchange.request.body);
  const responseType = header(exchange.headers, 'content-type');
  const responseBody = redact(exchange.text);
  const timings = harTimings(exchange.timing);
  return {
    startedDateTime: exchange.timing?.startedAt ?? at.toISOString(),
    time: [timings.connect, timings.send, timings.wait, timings.receive].filter((ms) => ms > 0).reduce((sum, ms) => sum + ms, 0),
    request: {
      method: exchange.request.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(exchange.request.headers),
      queryString: queryOf(url),
      ...(requestBody !== undefined && {
        postData: { mimeType: header(exchange.request.headers, 'content-type') || 'application/octet-stream', text: requestBody, ...(holdsNonUtf8Bytes(requestBody) && { comment: NON_UTF8_COMMENT }), ...(truncated?.request && { _truncated: true as const }) },
      }),
      headersSize: -1,
      bodySize: requestBody === undefined ? 0 : (exchange.request.bodyBytes ?? bodyBytes(requestBody).length),
    },
    response: {
      status: exchange.status,
      statusText: STATUS_CODES[exchange.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(exchange.headers),
      content: { size: Buffer.byteLength(responseBody), mimeType: responseType || 'x-unknown', text: responseBody, ...(truncated?.response && { _truncated: true as const }) },
      redirectURL: redact(header(exchange.headers, 'location')),
      headersSize: -1,
      bodySize: Buffer.byteLength(responseBody),
    },
    cache: {},
    timings,
    ...(exchange.operationId && { comment: exchange.operationId }),
    ...(requirement && { _requirement: requirement }),
    ...(test && { _test: redact(test) }),
    ...(context && { _context: context }),
  };
}

/** The transport's phases as HAR timings; without a recorded clock, only the unknown marker (-1) or 0 where HAR requires a number. */
function harTimings(timing: ExchangeTiming | undefined): HarTimings {
  if (!timing) return { blocked: -1, dns: -1, connect: -1, send: 0, wait: 0, receive: 0, ssl: -1 };
  return { blocked: -1, dns: -1, connect: timing.connect, send: timing.send, wait: timing.wait, receive: timing.receive, ssl: -1 };
}

function nameValues(headers: Record<string, string>): NameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value: redact(value) }));
}

function header(headers: Record<string, string>, name: string): string {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? '';
}

function queryOf(url: string): NameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** The exchanges the failures of a report show (each finding's request and response), in report order, each named by its requirement and test. */
export function failureExchanges(report: ConformanceReport): HarExchange[] {
  return report.requirements
    .filter((r) => r.status === 'failed')
    .flatMap((r) => r.findings)
    .flatMap((finding) => (finding.request && finding.response ? [fromEvidence(finding)] : []));
}

/** A finding's exchange, with the whole bodies where the record kept them for the HAR. */
function fromEvidence(evidence: Evidence): HarExchange {
  const { request, response, whole } = evidence as Required<Pick<Evidence, 'request' | 'response'>> & Evidence;
  const { truncated: requestCut, ...sent } = request;
  const requestBody = whole?.request ?? sent.body;
  const exchange: Exchange = {
    request: { ...sent, ...(requestBody !== undefined && { body: requestBody }) },
    status: response.status,
    headers: response.headers,
    text: whole?.response ?? response.body,
    json: undefined,
    retries: response.retries,
    ...(evidence.timing && { timing: evidence.timing }),
  };
  const truncated = { ...(requestCut && whole?.request === undefined && { request: true as const }), ...(response.truncated && whole?.response === undefined && { response: true as const }) };
  return {
    exchange,
    requirement: evidence.requirementId,
    test: evidence.test,
    ...(evidence.context && { context: evidence.context }),
    ...(Object.keys(truncated).length > 0 && { truncated }),
  };
}

/** A HAR file that cannot be read as one: the message names what is wrong. */
export class HarError extends Error {}

/**
 * The exchanges of a HAR 1.2 document (a browser's, a proxy's, or failures.har), each with its operation
 * of the interface where it is a request of the service: below `baseUrl` (origin and path prefix) when it
 * is given; without it, below the path up to the first /orders or /token segment, on any origin.
 */
export function readHar(text: string, baseUrl?: string): Array<HarExchange & { index: number }> {
  let har: { log?: { entries?: unknown } };
  try {
    har = JSON.parse(text) as typeof har;
  } catch (error) {
    throw new HarError(`it is not JSON (${(error as Error).message})`);
  }
  const entries = har?.log?.entries;
  if (!Array.isArray(entries)) throw new HarError('it has no log.entries: not a HAR document');
  return entries.map((entry, index) => ({ index, ...harExchange(entry as HarEntry, index, baseUrl) }));
}

function harExchange(entry: HarEntry, index: number, baseUrl: string | undefined): HarExchange {
  const { request, response } = entry ?? {};
  if (typeof request?.method !== 'string' || typeof request.url !== 'string' || typeof response?.status !== 'number') {
    throw new HarError(`entry ${index} lacks request.method, request.url or response.status`);
  }
  const path = relativePath(request.url, baseUrl);
  const content = response.content ?? { size: 0, mimeType: '' };
  const text = content.encoding === 'base64' ? Buffer.from(content.text ?? '', 'base64').toString('utf8') : (content.text ?? '');
  const exchange: Exchange = {
    operationId: path === undefined ? undefined : operationOf(request.method, path),
    request: {
      method: request.method.toUpperCase(),
      url: request.url,
      path: path ?? request.url,
      headers: headerRecord(request.headers),
      ...(request.postData?.text !== undefined && { body: request.postData.text }),
      // A body the recording cut: how large it was is kept (what a request larger than any order needs is judged by).
      ...(request.postData?._truncated && typeof request.bodySize === 'number' && request.bodySize > 0 && { bodyBytes: request.bodySize }),
    },
    status: response.status,
    headers: headerRecord(response.headers, true),
    text,
    json: parseJson(text),
    retries: 0,
    timing: timingOf(entry),
  };
  const truncated = { ...(request.postData?._truncated && { request: true as const }), ...(content._truncated && { response: true as const }) };
  return {
    exchange,
    ...(typeof entry._requirement === 'string' && { requirement: entry._requirement }),
    ...(typeof entry._test === 'string' && { test: entry._test }),
    ...(entry._context && typeof entry._context === 'object' && { context: entry._context }),
    ...(Object.keys(truncated).length > 0 && { truncated }),
  };
}

/** Path and query below the service's base URL; undefined for a URL outside it. */
function relativePath(url: string, baseUrl: string | undefined): string | undefined {
  let parsed: URL;
  let base: URL | undefined;
  try {
    parsed = new URL(url);
    base = baseUrl === undefined ? undefined : new URL(baseUrl);
  } catch {
    return undefined;
  }
  const path = parsed.pathname;
  if (base && base.origin !== parsed.origin) return undefined;
  const prefix = base ? base.pathname.replace(/\/$/, '') : /^(.*?)\/(orders|token)(\/|$)/.exec(path)?.[1];
  if (prefix === undefined || (path !== prefix && !path.startsWith(`${prefix}/`))) return undefined;
  return `${path.slice(prefix.length)}${parsed.search}`;
}

function headerRecord(headers: NameValue[] | undefined, lowerCase = false): Record<string, string> {
  const record: Record<string, string> = {};
  for (const { name, value } of Array.isArray(headers) ? headers : []) {
    if (typeof name !== 'string' || typeof value !== 'string') continue;
    const key = lowerCase ? name.toLowerCase() : name;
    record[key] = record[key] === undefined ? value : `${record[key]}, ${value}`;
  }
  return record;
}

function timingOf(entry: HarEntry): ExchangeTiming | undefined {
  const t = entry.timings;
  if (typeof entry.startedDateTime !== 'string' || !t) return undefined;
  return { startedAt: entry.startedDateTime, connect: t.connect ?? -1, send: t.send ?? 0, wait: t.wait ?? 0, receive: t.receive ?? 0 };
}

