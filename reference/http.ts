import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/** A request as the routes see it: parsed once, before any route runs. */
export interface ApiRequest {
  method: string;
  /** The path routes see: trailing slashes dropped (/orders/ is /orders). */
  path: string;
  /** The path as the client wrote it, for behaviours that tell its spellings apart. */
  rawPath?: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The raw body text ('' when none was sent), decoded as Node decodes UTF-8: each bad sequence U+FFFD. */
  bodyText: string;
  /** The body's bytes, only when they are not UTF-8 (bodyText then holds U+FFFD for what did not decode). */
  nonUtf8Body?: Buffer;
}

/** What a route answers; serialised by the app, so behaviours can rewrite it first. */
export interface ApiReply {
  status: number;
  headers?: Record<string, string>;
  /** A JSON value, or undefined for no body. */
  body?: unknown;
  /** Sent as is instead of JSON.stringify(body), for behaviours that send malformed text or encoded bytes. */
  rawBody?: string | Buffer;
  /** Writes the whole response itself, status and headers included (hostile trickles, endless bodies); the fields above are then ignored. */
  stream?: (outgoing: ServerResponse) => void;
}

export interface ErrorDetail {
  field: string;
  error: string;
}

/** An error a route throws on purpose; the app turns it into the error envelope of section 7. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The error envelope of section 7: meta carries status, code, message and details. */
export function errorReply(error: ApiError): ApiReply {
  return {
    status: error.status,
    headers: error.headers,
    body: {
      success: false,
      meta: {
        status: error.status,
        code: error.code,
        message: error.message,
        ...(error.details.length ? { details: error.details } : {}),
      },
    },
  };
}
