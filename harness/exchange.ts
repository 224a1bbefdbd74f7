import type { OperationId } from '../contract/openapi';
import { excerpt } from '../contract/openapi';
import { redact } from './redaction';

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
  };
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body, or undefined when it is empty or not JSON. */
  json: unknown;
  /** 429/503 answers waited out before this one. */
  retries: number;
}

export function contentType(exchange: Exchange): string {
  return exchange.headers['content-type'] ?? '';
}

/** A copy-pasteable curl line; the token appears as $OMS_TOKEN, so it runs in the user's shell as is. */
export function curlLine(exchange: Exchange): string {
  const parts = ['curl -sS -i', '-X', exchange.request.method, quote(exchange.request.url)];
  for (const [name, value] of Object.entries(exchange.request.headers)) parts.push('-H', quote(`${name}: ${value}`));
  if (exchange.request.body !== undefined) parts.push('--data-raw', quote(exchange.request.body));
  return parts.join(' ');
}

/** The request line and a body excerpt, one line each, for failure messages. */
export function describeExchange(exchange: Exchange, maxBody = 600): string {
  const body = exchange.request.body === undefined ? '' : `\n  body: ${clip(exchange.request.body, maxBody)}`;
  const type = contentType(exchange) || 'no content type';
  return [
    `Request:  ${exchange.request.method} ${exchange.request.path}${body}`,
    `Response: ${exchange.status} (${type})${exchange.retries ? `, after ${exchange.retries} rate-limit retries` : ''}`,
    `  body: ${exchange.text === '' ? '(empty)' : clip(exchange.text, maxBody)}`,
    `Reproduce: ${curlLine(exchange)}`,
  ].join('\n');
}

export function clip(text: string, max: number): string {
  const safe = redact(text);
  return safe.length > max ? `${safe.slice(0, max)}… (${safe.length} characters)` : safe;
}

export { excerpt };

// Single quotes keep everything literal except the placeholders, which must expand: those go in double quotes.
function quote(text: string): string {
  if (!/\$OMS_[A-Z_]+/.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  const escaped = text.replace(/[\\"`]/g, (c) => `\\${c}`).replace(/\$(?!OMS_[A-Z_]+)/g, '\\$');
  return `"${escaped}"`;
}
