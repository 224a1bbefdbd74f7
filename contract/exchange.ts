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
