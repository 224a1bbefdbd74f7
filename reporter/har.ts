import { STATUS_CODES } from 'node:http';
import type { Exchange } from '../harness/http/exchange';
import { redact } from '../harness/http/redaction';
import type { ConformanceReport } from './report';
import { jsonText } from './markup';

/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) of the exchanges behind failures, to open in
 * a browser's network panel. Every string goes through redact() once more: nothing in it carries a secret.
 */

/** An exchange with its timing, when the client recorded one. */
export type TimedExchange = Exchange & { startedAt?: string; durationMs?: number };

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

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: NameValue[];
    headers: NameValue[];
    queryString: NameValue[];
    postData?: { mimeType: string; text: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: NameValue[];
    headers: NameValue[];
    content: { size: number; mimeType: string; text: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
}

/** The HAR document of the given exchanges, in order; `at` stands in for a start time the exchange did not record. */
export function renderHar(exchanges: TimedExchange[], creator: { name: string; version: string }, at: Date = new Date()): string {
  const har: Har = { log: { version: '1.2', creator, entries: exchanges.map((exchange) => harEntry(exchange, at)) } };
  return `${jsonText(har)}\n`;
}

function harEntry(exchange: TimedExchange, at: Date): HarEntry {
  const url = redact(exchange.request.url);
  const requestBody = exchange.request.body === undefined ? undefined : redact(exchange.request.body);
  const responseType = header(exchange.headers, 'content-type');
  const responseBody = redact(exchange.text);
  const time = Math.max(0, exchange.durationMs ?? 0);
  return {
    startedDateTime: exchange.startedAt ?? at.toISOString(),
    time,
    request: {
      method: exchange.request.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(exchange.request.headers),
      queryString: queryOf(url),
      ...(requestBody === undefined ? {} : { postData: { mimeType: header(exchange.request.headers, 'content-type') || 'application/octet-stream', text: requestBody } }),
      headersSize: -1,
      bodySize: requestBody === undefined ? 0 : Buffer.byteLength(requestBody),
    },
    response: {
      status: exchange.status,
      statusText: STATUS_CODES[exchange.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(exchange.headers),
      content: { size: Buffer.byteLength(responseBody), mimeType: responseType || 'x-unknown', text: responseBody },
      redirectURL: redact(header(exchange.headers, 'location')),
      headersSize: -1,
      bodySize: Buffer.byteLength(responseBody),
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    ...(exchange.operationId ? { comment: exchange.operationId } : {}),
  };
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

/** The exchanges the failures of a report show (each finding's request and response), in report order. */
export function failureExchanges(report: ConformanceReport): Exchange[] {
  return report.requirements
    .filter((r) => r.status === 'failed')
    .flatMap((r) => r.findings)
    .flatMap(({ request, response }) =>
      request && response ? [{ request, status: response.status, headers: response.headers, text: response.body, json: undefined, retries: response.retries }] : [],
    );
}
