import { ApiError, errorReply } from '../http';
import { fault, is, type FaultDefinition } from './kit';

/** Error answers (section 7) and the JSON body rule (section 1). */
export const ERROR_FAULTS: FaultDefinition[] = [
  fault({
    id: 'errors-malformed-json-500',
    level: 'SHOULD',
    catches: ['ORD-ERR-002'],
    subtle: false,
    description: 'A body that is not JSON (or empty) crashes the handler: 500 instead of a 4xx.',
    hooks: () => ({
      rewriteReply: (_request, reply) => (errorCode(reply.body) === 'invalid_json' ? internalError() : reply),
    }),
  }),
  fault({
    id: 'errors-wrong-type-500',
    level: 'SHOULD',
    catches: ['ORD-ERR-004'],
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
    subtle: false,
    description: 'Getting an id that does not exist answers 200 with an empty body.',
    hooks: () => ({
      rewriteReply: (request, reply) => (is(request, 'get') && reply.status === 404 ? { status: 200, rawBody: '' } : reply),
    }),
  }),
];

function errorCode(body: unknown): string | undefined {
  return (body as { meta?: { code?: string } } | undefined)?.meta?.code;
}

function internalError() {
  return errorReply(new ApiError(500, 'internal_error', 'Unexpected server error'));
}
