import { ApiError, errorReply, type ApiReply, type ApiRequest, type ErrorDetail } from '../../../reference/http';
import { answersWhen, internalError, labelled, textPast } from './anomalies';
import { UUID } from '../variants/freedoms';
import { because, callerOf, fault, is, isSuccess, jsonBodyOf, lenientJson, operationOf, withReplyBody, type FaultDefinition, type Json } from './kit';

/** What Express's development error handler writes for a body-parser error: the message, then err.stack's frames. */
const PARSER_STACK = [
  'Unexpected end of JSON input',
  '    at JSON.parse (<anonymous>)',
  '    at parse (/app/node_modules/body-parser/lib/types/json.js:92:19)',
  '    at /app/node_modules/body-parser/lib/read.js:128:18',
].join('\n');

/** What the clean server takes at most: a body of 1 MiB, a request head of 16 KiB (reference/app.ts). */
const LARGEST_BODY = 1024 * 1024;
const LARGEST_HEAD = 16 * 1024;

/** Error answers (section 7) and the JSON body rule (section 1). */
export const ERROR_FAULTS: FaultDefinition[] = [
  fault({
    id: 'errors-malformed-json-500',
    level: 'SHOULD',
    catches: ['ORD-ERR-002'],
    collateral: [{ requirement: 'ORD-ERR-009', reason: 'JSON only a lenient parser reads (NaN, a trailing comma, an empty update) is not JSON to this handler either, and crashes it' }],
    subtle: false,
    description: 'A body that is not JSON (or empty) crashes the handler: 500 instead of a 4xx.',
    hooks: () => ({
      rewriteReply: (_request, reply) => (errorCode(reply.body) === 'invalid_json' ? internalError() : reply),
    }),
  }),
  fault({
    id: 'errors-non-utf8-body-500',
    level: 'SHOULD',
    catches: ['ORD-ERR-009'],
    subtle: true,
    description: "A create or update whose bytes are not UTF-8 crashes the handler, which catches only the JSON parser's own error (Python: a UnicodeDecodeError is no JSONDecodeError): 500.",
    hooks: () => answersWhen(['create', 'update'], (request) => request.nonUtf8Body !== undefined, () => internalError("UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 60: invalid start byte")),
  }),
  fault({
    id: 'errors-deep-nesting-500',
    level: 'SHOULD',
    catches: ['ORD-ERR-004'],
    subtle: true,
    description: "A create or update whose JSON nests deeper than the parser goes crashes the handler (Python's json raises a RecursionError, which is no JSONDecodeError; class-transformer overflows the stack): 500.",
    hooks: () => ({
      rewriteReply: (_request, reply) => (errorCode(reply.body) === 'body_too_deep' ? internalError('RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string') : reply),
    }),
  }),
  fault({
    id: 'errors-non-object-body-500',
    level: 'SHOULD',
    catches: ['ORD-ERR-004'],
    subtle: true,
    description: "A create or update whose body is JSON but no object (null, a number, true) crashes the handler, which looks fields up in it unchecked (Python: argument of type 'NoneType' is not iterable): 500.",
    hooks: () =>
      answersWhen(
        ['create', 'update'],
        (request) => {
          const body = jsonBodyOf(request);
          return body === null || typeof body === 'number' || typeof body === 'boolean';
        },
        () => internalError("TypeError: argument of type 'NoneType' is not iterable"),
      ),
  }),
  fault({
    id: 'errors-wrong-type-500',
    level: 'SHOULD',
    catches: ['ORD-ERR-004'],
    collateral: because(
      'values a server may refuse that this one refuses as of the wrong type (null for an object, a literal beyond a double: the edge catalogue) are answered 500 too',
      ['ORD-ERR-008'],
    ),
    subtle: false,
    description: 'A field of the wrong type crashes the handler: 500 instead of a 4xx.',
    hooks: () => ({
      rewriteReply: (_request, reply) => {
        const details = (reply.body as { meta?: { details?: Array<{ error: string }> } } | undefined)?.meta?.details ?? [];
        return errorCode(reply.body) === 'validation_failed' && details.some((d) => d.error.startsWith('expected type')) ? internalError() : reply;
      },
    }),
  }),
  fault({
    id: 'errors-no-envelope',
    level: 'SHOULD',
    catches: ['ORD-ERR-001'],
    subtle: false,
    description: 'Every 4xx answer is {"error": "<message>"} instead of the error envelope of section 7.',
    hooks: () => ({
      rewriteReply: (_request, reply) => {
        const meta = (reply.body as { meta?: { message?: string } } | undefined)?.meta;
        return reply.status >= 400 && reply.status < 500 ? { ...reply, body: { error: meta?.message ?? 'error' } } : reply;
      },
    }),
  }),
  fault({
    id: 'errors-unknown-id-200-empty',
    level: 'MUST',
    catches: ['ORD-GEN-001', 'ORD-GET-004'],
    collateral: [
      { requirement: 'ORD-UPDATE-006', reason: 'the get that checks an update of an unknown id created nothing answers 200' },
      { requirement: 'ORD-DELETE-002', reason: 'a get after a delete answers 200 with an empty body, neither 404/410 nor the order with deleted_at' },
      { requirement: 'ORD-ISO-001', reason: "account B's get of account A's order is, in B's account, a get of an unknown id, which answers 200" },
    ],
    subtle: false,
    description: 'Getting an id that does not exist answers 200 with an empty body.',
    hooks: () => ({
      rewriteReply: (request, reply) => (is(request, 'get') && reply.status === 404 ? { status: 200, rawBody: '' } : reply),
    }),
  }),
  fault({
    id: 'errors-401-text-plain',
    level: 'MUST',
    catches: ['ORD-GEN-001'],
    collateral: [
      { requirement: 'ORD-ERR-001', reason: 'a 401 in text/plain carries no error envelope' },
    ],
    subtle: false,
    description: 'A request without valid credentials gets 401 with a text/plain body ("Unauthorized").',
    hooks: () => ({
      rewriteReply: (_request, reply) => (reply.status === 401 ? { ...textReply(401, 'Unauthorized'), headers: { ...reply.headers, 'Content-Type': 'text/plain; charset=utf-8' } } : reply),
    }),
  }),
  fault({
    id: 'errors-405-text-plain',
    level: 'MUST',
    catches: ['ORD-GEN-001'],
    collateral: [
      { requirement: 'ORD-ERR-001', reason: 'a 405 in text/plain carries no error envelope' },
    ],
    subtle: true,
    description: 'A method the interface does not have (PATCH /orders/{id}) gets 405 with a text/plain body.',
    hooks: () => ({
      rewriteReply: (_request, reply) => (reply.status === 405 ? { ...textReply(405, 'Method Not Allowed'), headers: { ...reply.headers, 'Content-Type': 'text/plain; charset=utf-8' } } : reply),
    }),
  }),
  fault({
    id: 'errors-meta-code-number',
    level: 'MUST',
    catches: ['ORD-ERR-006'],
    subtle: false,
    description: 'The error envelope carries meta.code as a number (the HTTP status) instead of a string.',
    hooks: onErrorMeta((meta) => ({ ...meta, code: meta.status })),
  }),
  fault({
    id: 'errors-details-as-strings',
    level: 'MUST',
    catches: ['ORD-ERR-006'],
    subtle: true,
    description: 'meta.details entries are strings ("field: error") instead of objects with field and error.',
    hooks: onErrorMeta((meta) =>
      Array.isArray(meta.details) ? { ...meta, details: (meta.details as ErrorDetail[]).map((d) => `${d.field}: ${d.error}`) } : meta,
    ),
  }),
  fault({
    id: 'errors-crash-text-plain',
    level: 'SHOULD',
    catches: ['ORD-ERR-002', 'ORD-GEN-003'],
    collateral: [{ requirement: 'ORD-ERR-009', reason: 'JSON only a lenient parser reads (NaN, a trailing comma, an empty update) is not JSON to this handler either, and crashes it' }],
    subtle: false,
    description: 'A body that is not JSON crashes the handler, answered as 500 with a text/plain stack line.',
    hooks: () => ({
      rewriteReply: (_request, reply) => (errorCode(reply.body) === 'invalid_json' ? textReply(500, 'SyntaxError: Unexpected end of JSON input') : reply),
    }),
  }),
  fault({
    id: 'errors-unlabelled-body-500',
    level: 'SHOULD',
    catches: ['ORD-ERR-007'],
    subtle: true,
    description: 'A create or update whose body is labelled text/plain, as a form or not at all crashes the handler (it reads a body its JSON parser never filled): 500.',
    hooks: () => {
      const unlabelled = [labelled('text-plain'), labelled('form'), labelled('none')];
      return answersWhen(['create', 'update'], (request) => unlabelled.some((label) => label(request)), () => internalError("Cannot read properties of undefined (reading 'items')"));
    },
  }),
  fault({
    id: 'errors-json-label-with-parameter-refused',
    level: 'SHOULD',
    catches: ['ORD-GEN-004'],
    subtle: true,
    description: 'A create or update labelled application/json with a parameter (";charset=UTF-8", as Java clients send it) or in capitals is refused with 415: the server compares the header with "application/json" as text.',
    hooks: () =>
      answersWhen(['create', 'update'], (request) => labelled('with-parameter')(request) || labelled('in-capitals')(request), () =>
        errorReply(new ApiError(415, 'unsupported_media_type', 'Content-Type must be application/json')),
      ),
  }),
  fault({
    id: 'errors-long-text-html-500',
    level: 'SHOULD',
    catches: ['ORD-ERR-008'],
    collateral: [{ requirement: 'ORD-GEN-003', reason: 'the crash is answered with an HTML stack trace, a 5xx body that is not JSON' }],
    subtle: true,
    description: 'A create or update with a text over 255 characters (a note of 10,000) crashes on a VARCHAR(255) column: 500 with an HTML stack trace.',
    hooks: () =>
      answersWhen(['create', 'update'], textPast('varchar-255'), () => ({
        status: 500,
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
        rawBody: '<html><body><h1>Internal Server Error</h1><pre>DataError: value too long for type character varying(255)\n  at OrderRepository.save (orders.js:88)</pre></body></html>',
      })),
  }),
  fault({
    id: 'errors-oversized-500',
    level: 'SHOULD',
    catches: ['ORD-ERR-005'],
    subtle: false,
    description: 'An oversized request body crashes the server: 500 instead of 413.',
    hooks: () => ({
      rewriteReply: (_request, reply) => (reply.status === 413 ? internalError() : reply),
    }),
  }),
  fault({
    id: 'errors-oversized-header-500',
    level: 'SHOULD',
    catches: ['ORD-ERR-005'],
    subtle: false,
    description: 'A request whose headers are larger than the server takes (a 32 KiB header) crashes it: 500 instead of 431, as a header parser that throws past its buffer does.',
    hooks: () => ({
      rewriteReply: (_request, reply) => (reply.status === 431 ? internalError('header buffer overflow') : reply),
    }),
  }),
  fault({
    id: 'oversized-update-applied-then-refused',
    level: 'SHOULD',
    catches: ['ORD-GEN-005'],
    subtle: true,
    description:
      'An update larger than the server takes (a body over 1 MiB, headers over 16 KiB) is applied before it is refused: the body read up to the limit is stored (its note cut at 1 MiB), then the request answered 413 or 431, so a refused request changed the order.',
    hooks: () => ({
      takesLargeRequests: true,
      intercept: (request, { accounts, services }) => {
        const headerBytes = Object.entries(request.headers).reduce((sum, [name, value]) => sum + name.length + String(value).length + 4, 0);
        const status = request.bodyText.length > LARGEST_BODY ? 413 : headerBytes > LARGEST_HEAD ? 431 : undefined;
        if (status === undefined || !is(request, 'create', 'update')) return undefined;
        const caller = callerOf(request, accounts);
        const { orderId } = operationOf(request);
        const stored = caller && orderId !== undefined ? services.store.get(caller.id, orderId) : undefined;
        const body = jsonBodyOf(request);
        if (is(request, 'update') && stored && body && typeof body === 'object' && typeof (body as Json).note === 'string') {
          services.store.replace({ ...stored, note: ((body as Json).note as string).slice(0, LARGEST_BODY) });
        }
        return errorReply(status === 413 ? new ApiError(413, 'payload_too_large', 'The request body is too large') : new ApiError(431, 'headers_too_large', 'The request headers are too large'));
      },
    }),
  }),
  fault({
    id: 'errors-nan-stored-read-500',
    level: 'SHOULD',
    catches: ['ORD-ERR-009', 'ORD-GEN-003'],
    subtle: true,
    description:
      'A price of NaN is read (Python\'s json) and stored in a float column; the create or update answers as usual, but every later get of that order crashes writing NaN out (Starlette\'s JSONResponse refuses it): 500 "Internal Server Error" in text/plain.',
    hooks: () => nanStored(() => ({ status: 500, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, rawBody: 'Internal Server Error' })),
  }),
  fault({
    id: 'errors-nan-stored-read-as-nan',
    level: 'MUST',
    catches: ['ORD-ERR-009', 'ORD-GEN-001'],
    subtle: true,
    description: 'A price of NaN is read (Python\'s json) and stored; the create or update answers as usual, but every later get of that order writes it out as NaN (json.dumps does by default), which is not JSON.',
    hooks: () => nanStored((order) => ({ status: 200, rawBody: JSON.stringify({ ...order, price: NAN_MARK }).replace(JSON.stringify(NAN_MARK), 'NaN') })),
  }),
  fault({
    id: 'methods-405-without-allow',
    level: 'SHOULD',
    catches: ['ORD-GEN-006'],
    subtle: false,
    description: 'A method the interface does not define (PATCH /orders/{id}, DELETE /orders) is refused with 405 and no Allow header: the router writes the status alone (RFC 9110 15.5.6 asks for the methods the resource has).',
    hooks: () => ({
      rewriteReply: (_request, reply) => (reply.status === 405 ? { ...reply, headers: Object.fromEntries(Object.entries(reply.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'allow')) } : reply),
    }),
  }),
  fault({
    id: 'methods-patch-served-as-update',
    level: 'SHOULD',
    catches: ['ORD-GEN-006'],
    subtle: false,
    description: 'PATCH /orders/{id}, a method the interface does not define, is served as the update (a router mapping both to one handler): it answers 200 and changes the order.',
    hooks: () => ({
      rewriteRequest: (request) => (request.method === 'PATCH' && /^\/orders\/[^/]+$/.test(request.path) ? { ...request, method: 'PUT' } : request),
    }),
  }),
  fault({
    id: 'methods-on-collection-500',
    level: 'SHOULD',
    catches: ['ORD-GEN-006'],
    subtle: true,
    description: 'PUT, PATCH and DELETE /orders crash with 500 (a route for the collection with no handler for them): only a run that sends them to the collection, on an account of its own orders, sees it.',
    hooks: () => ({
      intercept: (request, { accounts }) => (request.path === '/orders' && ['PUT', 'PATCH', 'DELETE'].includes(request.method) && callerOf(request, accounts) ? internalError() : undefined),
    }),
  }),
  fault({
    id: 'errors-stack-trace-in-message',
    level: 'SHOULD',
    catches: ['ORD-ERR-010'],
    subtle: false,
    description: "A body that is not JSON is refused with 400 and the envelope, its meta.message carrying the parser's stack (Express's error handler in development: err.stack, with body-parser's files under /app).",
    hooks: () => ({
      rewriteReply: (_request, reply) =>
        errorCode(reply.body) === 'invalid_json'
          ? withReplyBody(reply, (body) => ({ ...body, meta: { ...(body.meta as Json), message: PARSER_STACK } }))
          : reply,
    }),
  }),
  fault({
    id: 'errors-sql-text-for-unknown-id',
    level: 'SHOULD',
    catches: ['ORD-ERR-010'],
    subtle: true,
    description:
      "An id that is not a UUID is answered 404 with the database's error as meta.message (PDO on PostgreSQL: SQLSTATE[22P02], invalid input syntax for type uuid, the id quoted): the id echoed is the client's, the rest is the service's internals.",
    hooks: () => ({
      rewriteReply: (request, reply) => {
        const { orderId } = operationOf(request);
        if (reply.status !== 404 || orderId === undefined || UUID.test(orderId)) return reply;
        const message = `SQLSTATE[22P02]: Invalid text representation: 7 ERROR:  invalid input syntax for type uuid: "${orderId}"`;
        return withReplyBody(reply, (body) => ({ ...body, meta: { ...(body.meta as Json), message } }));
      },
    }),
  }),
];

const NAN_MARK = '\u0000nan-stored';

/**
 * A create or update whose price is NaN (no later key replaces it) taken, price stored as 0 in its place; every later
 * successful get of such an order answered by `read` (the stored order given), as if NaN were still stored.
 */
function nanStored(read: (order: Json) => ApiReply) {
  const withNan = new Set<string>();
  const sentNan = new WeakSet<ApiRequest>();
  return {
    rewriteRequest: (request: ApiRequest) => {
      if (!is(request, 'create', 'update') || jsonBodyOf(request) !== undefined) return request;
      const body = lenientJson(request.bodyText, { nonFinite: true }) as Json | undefined;
      if (!body || typeof body !== 'object' || !Number.isNaN(body.price)) return request;
      const taken = { ...request, bodyText: JSON.stringify({ ...body, price: 0 }) };
      sentNan.add(taken);
      return taken;
    },
    rewriteReply: (request: ApiRequest, reply: ApiReply) => {
      const order = reply.body as Json | undefined;
      if (!isSuccess(reply) || !order || typeof order.id !== 'string') return reply;
      if (sentNan.has(request)) withNan.add(order.id);
      return is(request, 'get') && withNan.has(operationOf(request).orderId ?? '') ? read(order) : reply;
    },
  };
}

/** A 4xx whose meta, where it has one, is changed: the envelope carried with a wrong shape. */
function onErrorMeta(change: (meta: Json) => Json) {
  return () => ({
    rewriteReply: (_request: ApiRequest, reply: ApiReply) =>
      reply.status >= 400 && reply.status < 500 ? withReplyBody(reply, (body) => (body.meta ? { ...body, meta: change(body.meta as Json) } : body)) : reply,
  });
}

function textReply(status: number, text: string): ApiReply {
  return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, rawBody: text };
}

function errorCode(body: unknown): string | undefined {
  return (body as { meta?: { code?: string } } | undefined)?.meta?.code;
}

