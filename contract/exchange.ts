import type { OperationId } from './openapi';

/** One request and its response, with every secret already redacted: safe to print, attach and report. */
export interface Exchange {
  operationId?: OperationId;
  request: {
    method: string;
    url: string;
    /** Path and query, relative to the base URL. */
    path: string;
    headers: Record<string, string>;
    body?: string;
    /** Bytes of the body sent, where `body` holds only part of it (a finding or a recording cut it). */
    bodyBytes?: number;
  };
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body, or undefined when it is empty or not JSON. */
  json: unknown;
  /** 429/503 answers waited out before this one. */
  retries: number;
  /** When it started and how long each phase took (the transport's clock); absent for an exchange read from a recording without timings. */
  timing?: ExchangeTiming;
  /** The answer came before the request body was sent (harness/http/transport.ts, Expect: 100-continue). */
  answeredBeforeBody?: true;
}

/** A JSON object, as request and response bodies carry orders. */
export type Json = Record<string, unknown>;

/** A body as JSON, or undefined when it is empty or not JSON. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A request body is text; the bytes of one that is not UTF-8 (sent on purpose: generators/invalid.ts, lenientBodies)
 * stay in it as Python's surrogateescape keeps them (PEP 383): the byte b (0x80 to 0xff) as the lone UTF-16 half
 * U+DC00 + b. No body made by JSON.stringify holds a lone half (it writes one as the escape \udc80), so the text
 * says which bytes went out; reports show such a half as \udcff, curl lines and the transport send the byte itself.
 */
const NON_UTF8_BYTE = /(?<![\ud800-\udbff])[\udc80-\udcff]/;

/** The text that stands for `byte` (0x80 to 0xff), a byte that is no part of a UTF-8 sequence, in a request body. */
export function nonUtf8Byte(byte: number): string {
  if (!Number.isInteger(byte) || byte < 0x80 || byte > 0xff) throw new RangeError(`nonUtf8Byte: ${byte} is not a byte from 0x80 to 0xff`);
  return String.fromCharCode(0xdc00 + byte);
}

/** True when a request body's text stands for bytes that are not UTF-8: then it is no JSON text (RFC 8259, 8.1), whatever a lenient parser reads. */
export function holdsNonUtf8Bytes(text: string): boolean {
  return NON_UTF8_BYTE.test(text);
}

/** The bytes a request body's text stands for: UTF-8, and each byte written with nonUtf8Byte as itself. */
export function bodyBytes(text: string): Buffer {
  if (!holdsNonUtf8Bytes(text)) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (const match of text.matchAll(new RegExp(NON_UTF8_BYTE.source, 'g'))) {
    parts.push(Buffer.from(text.slice(from, match.index), 'utf8'), Buffer.of(match[0].charCodeAt(0) - 0xdc00));
    from = match.index + 1;
  }
  parts.push(Buffer.from(text.slice(from), 'utf8'));
  return Buffer.concat(parts);
}

export function contentType(exchange: Exchange): string {
  return exchange.headers['content-type'] ?? '';
}

/** Bodies kept in findings: enough to act on, bounded whatever the server sent. */
export const MAX_BODY_EXCERPT = 4000;

/** When an exchange started (ISO 8601) and how long its phases took, in ms (the transport's clock). */
export interface ExchangeTiming {
  startedAt: string;
  connect: number;
  send: number;
  wait: number;
  receive: number;
}
