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

/** A body as JSON, or undefined when it is empty or not JSON; nested no deeper than MAX_JSON_DEPTH (withinDepth). */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  return withinDepth(value);
}

/**
 * How deep the arrays and objects of a parsed body go. No order nests past 5 levels; a server may still answer
 * (and the suite sends, ORD-ERR-004) thousands, past the stack of every check that walks a body. Each array or
 * object below this depth is then TOO_DEEP, a string, so no check overflows and none judges what no field declares.
 */
export const MAX_JSON_DEPTH = 64;
export const TOO_DEEP = `(nested deeper than ${MAX_JSON_DEPTH} levels)`;

/** How deep JSON text nests its arrays and objects (brackets inside strings not counted), read without parsing it. */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 0x22) {
      // A string: to its closing quote, past each escaped character.
      for (index++; index < text.length && text.charCodeAt(index) !== 0x22; index++) if (text.charCodeAt(index) === 0x5c) index++;
    } else if (char === 0x5b || char === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x5d || char === 0x7d) depth--;
  }
  return deepest;
}

/** `value` with every array or object below MAX_JSON_DEPTH made TOO_DEEP, in place, walked without recursion. */
function withinDepth(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const pending: Array<[Record<string, unknown>, number]> = [[value as Record<string, unknown>, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [container, depth] = next;
    for (const key of Object.keys(container)) {
      const inner = container[key];
      if (inner === null || typeof inner !== 'object') continue;
      // defineProperty: a key "__proto__" of JSON text is an own property, and stays one.
      if (depth >= MAX_JSON_DEPTH) Object.defineProperty(container, key, { value: TOO_DEEP, enumerable: true, writable: true, configurable: true });
      else pending.push([inner as Record<string, unknown>, depth + 1]);
    }
  }
  return value;
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
