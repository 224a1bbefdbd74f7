import type { OperationId } from '../../contract/openapi';
import { excerpt } from '../../contract/openapi';
import { placeholders, redact } from '../../config/redaction';
import { clipText } from '../../config/safe-text';
import { printfSubstitution, shellWord } from './shell';
import type { ExchangeTiming } from './transport';

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
  /** When it started and how long each phase took (the transport's clock); absent for an exchange read from a recording without timings. */
  timing?: ExchangeTiming;
  /** The answer came before the request body was sent (harness/http/transport.ts, Expect: 100-continue). */
  answeredBeforeBody?: true;
}

/** A body as JSON, or undefined when it is empty or not JSON. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function contentType(exchange: Exchange): string {
  return exchange.headers['content-type'] ?? '';
}

/**
 * A copy-pasteable curl line, built from the request the suite sent (never from text a server could
 * shape): every argument one shell word. Only in headers, where the suite itself puts credentials, does a
 * placeholder expand (the token as ${OMS_TOKEN}); the URL and body, which may quote server values, stay literal.
 */
export function curlLine(request: Exchange['request']): string {
  const known = placeholders();
  const words = ['curl', '-sS', '-i', '-X', shellWord(request.method), shellWord(request.url)];
  for (const [name, value] of Object.entries(request.headers)) words.push('-H', shellWord(`${name}: ${value}`, known));
  if (request.body?.includes('\u0000')) words.push('--data-binary', `@${printfSubstitution(request.body)}`);
  else if (request.body !== undefined) words.push('--data-raw', shellWord(request.body));
  return words.join(' ');
}

/** Bodies kept in findings: enough to act on, bounded whatever the server sent. */
export const MAX_BODY_EXCERPT = 4000;

export function clip(text: string, max: number): string {
  return clipText(redact(text), max);
}

export { excerpt };
