import { contract } from '../../../contract/openapi';
import { DEVELOPMENT_ACCOUNTS } from '../../../reference/accounts';
import { ApiError, errorReply, type ApiReply, type ApiRequest } from '../../../reference/http';
import { afterHardDelete, callerOf, is, jsonBodyOf, operationOf, withAuthorization, type Hooks, type Json, type Operation } from './kit';

const [ACCOUNT_A] = DEVELOPMENT_ACCOUNTS;

/**
 * What servers get wrong with requests a client or proxy may well send but no happy path does: a body not
 * labelled application/json, an id outside ASCII, long text, another spelling of a path, a write after a
 * delete. Shared by the hand-written faults and the generated families (generated-anomalies.ts).
 */

/** The answer of a handler that crashed, still in the error envelope (so only the requirement of the request judges it). */
export function internalError(message = 'Unexpected server error'): ApiReply {
  return errorReply(new ApiError(500, 'internal_error', message));
}

/** An authenticated request of one of `operations` for which `when` holds is answered `reply()` before routing (authentication still comes first). */
export function answersWhen(operations: Operation[], when: (request: ApiRequest) => boolean, reply: () => ApiReply): Hooks {
  return {
    intercept: (request, { accounts }) => (is(request, ...operations) && callerOf(request, accounts) && when(request) ? reply() : undefined),
  };
}

/** The body labels a client or proxy sends besides application/json, and those that are application/json written otherwise. */
export const BODY_LABELS = {
  'text-plain': (type: string | undefined) => /^text\/plain\b/i.test(type ?? ''),
  form: (type: string | undefined) => /^application\/x-www-form-urlencoded\b/i.test(type ?? ''),
  none: (type: string | undefined) => type === undefined,
  'with-parameter': (type: string | undefined) => /^application\/json\s*;/i.test(type ?? ''),
  'in-capitals': (type: string | undefined) => /^application\/json\b/i.test(type ?? '') && !/^application\/json\b/.test(type ?? ''),
} as const;

export type BodyLabel = keyof typeof BODY_LABELS;

/** A request that carries a body labelled so. */
export const labelled =
  (label: BodyLabel) =>
  (request: ApiRequest): boolean =>
    request.bodyText !== '' && BODY_LABELS[label](request.headers['content-type']);

/** The kinds of order id that break a naive server, as the path names them (decoded once). */
export const ID_KINDS = {
  /** Accented Latin letters (ë, Ü, ç): a server that writes ids into a Latin-1 column or a log chokes on them. */
  letters: (id: string) => /[\u00c0-\u024f]/u.test(id),
  emoji: (id: string) => /\p{Extended_Pictographic}/u.test(id),
  /** A server that decodes the path twice cannot decode "100%". */
  percent: (id: string) => id.includes('%'),
} as const;

export type IdKind = keyof typeof ID_KINDS;

/** A request to an order whose id is of that kind. */
export const idOfKind =
  (kind: IdKind) =>
  (request: ApiRequest): boolean => {
    const { orderId } = operationOf(request);
    return orderId !== undefined && ID_KINDS[kind](orderId);
  };

/** Limits of text columns servers use: VARCHAR(255), 4,000 characters (NVARCHAR(4000), VARCHAR2), a 64 KB TEXT (in bytes). */
export const TEXT_LIMITS = {
  'varchar-255': (text: string) => text.length > 255,
  'nvarchar-4000': (text: string) => text.length > 4000,
  'text-64k': (text: string) => Buffer.byteLength(text, 'utf8') > 65_535,
} as const;

export type TextLimit = keyof typeof TEXT_LIMITS;

/**
 * A create or update whose body is valid (openapi.yaml) and holds, at any depth, a text past that limit: the
 * body passed validation and the database write fails (an invalid one is refused before it gets there).
 */
export const textPast =
  (limit: TextLimit) =>
  (request: ApiRequest): boolean => {
    const past = (value: unknown): boolean =>
      typeof value === 'string' ? TEXT_LIMITS[limit](value) : value !== null && typeof value === 'object' && Object.values(value).some(past);
    const body = jsonBodyOf(request);
    return past(body) && contract().request(is(request, 'create') ? 'createOrder' : 'updateOrder').problems(body).length === 0;
  };

/**
 * A request of `operations` without the Authorization header to its path written with a trailing slash
 * (/orders/, /orders/{id}/) is served as account A: the authentication middleware is mounted on the exact paths only.
 */
export function trailingSlashServedAsAccountA(operations: Operation[]): Hooks {
  const unauthenticatedWithSlash = (request: ApiRequest) => !request.headers.authorization && (request.rawPath ?? '').length > 1 && (request.rawPath ?? '').endsWith('/');
  return {
    rewriteRequest: (request) => (is(request, ...operations) && unauthenticatedWithSlash(request) ? withAuthorization(request, `Bearer ${ACCOUNT_A.developmentToken}`) : request),
  };
}

/** A JSON body that is an object with no field: {}. */
export function emptyObjectBody(request: ApiRequest): boolean {
  const body = jsonBodyOf(request);
  return body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0;
}

/**
 * A server that hard-deletes but keeps what it deleted (a trash table, a cache), and mishandles a later
 * `operation` of a deleted order: `revive` stores the order again and lets the request through (an update
 * that resurrects it), otherwise the handler crashes (500).
 */
export function mishandlesWriteAfterDelete(operation: 'update' | 'delete', revive: boolean): Hooks {
  return afterHardDelete(operation, (deleted, { services }) => {
    if (!revive) return internalError(`Cannot read properties of undefined (reading 'deleted_at')`);
    services.store.insert(deleted);
    return undefined;
  });
}

/** Items with the same `key` (name, or sku) merged into the first, quantities summed: what a server keyed on that field stores. */
export function mergesItemsBy(key: 'name' | 'sku'): (body: Json) => Json {
  return (body) => {
    if (!Array.isArray(body.items)) return body;
    const merged: Json[] = [];
    for (const item of body.items as unknown[]) {
      const entry = item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Json) : undefined;
      const same = entry?.[key] !== undefined ? merged.find((kept) => kept !== null && typeof kept === 'object' && (kept as Json)[key] === entry[key]) : undefined;
      if (entry && same && typeof same.quantity === 'number' && typeof entry.quantity === 'number') same.quantity += entry.quantity;
      else merged.push(entry ? { ...entry } : (item as Json));
    }
    return { ...body, items: merged };
  };
}
