import type { Account, AccountRegistry } from '../../../reference/accounts';
import type { Behaviour, HookContext } from '../../../reference/app';
import type { ApiReply, ApiRequest } from '../../../reference/http';
import type { Services } from '../../../reference/services';
import { InMemoryOrderStore, type OrderStore, type StoredOrder } from '../../../reference/store';

/**
 * What faults and variants share: which operation a request is, and small rewrites of JSON bodies.
 * Kept here so each fault or variant reads as the one thing it changes.
 */

type Json = Record<string, unknown>;
export type { Json };

export type Operation = 'list' | 'create' | 'get' | 'update' | 'delete' | 'token' | 'other';

const ORDER_PATH = /^\/orders\/([^/]+)$/;

/** The order operation a request asks for (section 4), and the order id of the path where there is one. */
export function operationOf(request: Pick<ApiRequest, 'method' | 'path'>): { operation: Operation; orderId?: string } {
  if (request.path === '/token') return { operation: 'token' };
  if (request.path === '/orders') {
    if (request.method === 'GET') return { operation: 'list' };
    if (request.method === 'POST') return { operation: 'create' };
    return { operation: 'other' };
  }
  const match = ORDER_PATH.exec(request.path);
  if (!match) return { operation: 'other' };
  const byMethod: Record<string, Operation> = { GET: 'get', PUT: 'update', DELETE: 'delete' };
  return { operation: byMethod[request.method] ?? 'other', orderId: decoded(match[1]) };
}

/** A path segment decoded; one with broken percent-encoding stays as sent (the app answers it with 400). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function is(request: ApiRequest, ...operations: Operation[]): boolean {
  return operations.includes(operationOf(request).operation);
}

export const isSuccess = (reply: ApiReply): boolean => reply.status >= 200 && reply.status < 300;

/** The request's body as JSON, or undefined where it is not JSON. */
export function jsonBodyOf(request: ApiRequest): unknown {
  try {
    return JSON.parse(request.bodyText) as unknown;
  } catch {
    return undefined;
  }
}

/** What JSON.stringify would write as null for a number beyond a double, kept as a literal that reads back as it (1e400). */
const BEYOND_DOUBLE = { [Infinity]: '1e400', [-Infinity]: '-1e400' } as Record<string, string>;

/**
 * The request with its JSON body changed; a body that is not a JSON object is left alone (validation answers it). A
 * number beyond a double the body was sent with (1e400, read as Infinity) stays such a literal, not null: a rewrite
 * by one knob never turns it into another value for the next.
 */
export function withJsonBody(request: ApiRequest, change: (body: Json) => Json): ApiRequest {
  const body = jsonBodyOf(request);
  if (!body || typeof body !== 'object' || Array.isArray(body)) return request;
  const marker = (value: number) => `@@oms-beyond-double:${BEYOND_DOUBLE[String(value)]}@@`;
  const text = JSON.stringify(change(body as Json), (_key, value: unknown) => (typeof value === 'number' && BEYOND_DOUBLE[String(value)] ? marker(value) : value));
  return { ...request, bodyText: text.replace(/"@@oms-beyond-double:(-?1e400)@@"/g, '$1') };
}

/** The reply with its JSON body changed (a copy: the stored order is never touched by a reply rewrite). */
export function withReplyBody(reply: ApiReply, change: (body: Json) => unknown): ApiReply {
  if (!reply.body || typeof reply.body !== 'object') return reply;
  return { ...reply, body: change(structuredClone(reply.body) as Json) };
}

/** The reply with another status, in the status line and in meta.status alike (section 4.1). */
export function withStatus(reply: ApiReply, status: number): ApiReply {
  return withReplyBody({ ...reply, status }, (body) => ({ ...body, meta: { ...(body.meta as Json), status } }));
}

/** Applies a change to the full-form order of a successful create, get or update (section 2.1). */
export function onFullForm(request: ApiRequest, reply: ApiReply, change: (order: Json) => unknown): ApiReply {
  if (!is(request, 'create', 'get', 'update') || !isSuccess(reply)) return reply;
  return withReplyBody(reply, change);
}

/** Applies a change to every order summary of a successful list (section 2.7). */
export function onSummaries(request: ApiRequest, reply: ApiReply, change: (summary: Json) => unknown): ApiReply {
  if (!is(request, 'list') || !isSuccess(reply)) return reply;
  return withReplyBody(reply, (body) => ({ ...body, data: (body.data as Json[]).map(change) }));
}

/** The request with some query parameters set. */
export function withQuery(request: ApiRequest, parameters: Record<string, string>): ApiRequest {
  const query = new URLSearchParams(request.query);
  for (const [name, value] of Object.entries(parameters)) query.set(name, value);
  return { ...request, query };
}

/** The services with some store operations replaced; the rest go to the store as it was. */
export function withStore(services: Services, change: (store: OrderStore) => Partial<OrderStore>): Services {
  const base = services.store;
  const store: OrderStore = {
    insert: (order) => base.insert(order),
    get: (accountId, orderId) => base.get(accountId, orderId),
    replace: (order) => base.replace(order),
    remove: (accountId, orderId) => base.remove(accountId, orderId),
    page: (accountId, offset, limit) => base.page(accountId, offset, limit),
    ...change(base),
  };
  return { ...services, store };
}

/**
 * A list served from a search index that takes `lagMs` to learn of each write, while get, update and delete
 * by id see the store at once (as a service whose list reads a replica does). `reaches` says which creates
 * the index ever learns of (a fault drops some); stop() forgets what is still on its way.
 */
export function listFromLaggingIndex(lagMs: number, reaches: (created: number) => boolean = () => true): Hooks {
  const index = new InMemoryOrderStore();
  const pending = new Set<NodeJS.Timeout>();
  let creates = 0;
  const later = (write: () => void) => {
    const timer = setTimeout(() => {
      pending.delete(timer);
      write();
    }, lagMs);
    timer.unref();
    pending.add(timer);
  };
  return {
    wrapServices: (services) =>
      withStore(services, (store) => ({
        // The index learns each order as the store holds it (another behaviour may have rewritten it on the way in).
        insert: (order) => {
          store.insert(order);
          const copy = structuredClone(store.get(order.user_id, order.id) ?? order);
          if (reaches(++creates)) later(() => index.insert(copy));
        },
        replace: (order) => {
          store.replace(order);
          const copy = structuredClone(store.get(order.user_id, order.id) ?? order);
          later(() => index.replace(copy));
        },
        remove: (accountId, orderId) => {
          const removed = store.remove(accountId, orderId);
          if (removed) later(() => index.remove(accountId, orderId));
          return removed;
        },
        page: (accountId, offset, limit) => index.page(accountId, offset, limit),
      })),
    stop: () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    },
  };
}

/**
 * A request of `operation` to an order this server hard-deleted (the caller's, gone from the store) is answered
 * by `answer`, given the order as it was when deleted; undefined lets the request through to routing. What
 * faults and variants that remember deleted orders share (a trash table, a set of deleted ids).
 */
export function afterHardDelete(operation: Operation, answer: (deleted: StoredOrder, context: HookContext) => ApiReply | undefined): Hooks {
  const removed = new Map<string, StoredOrder>();
  const key = (accountId: string, orderId: string) => `${accountId}\n${orderId}`;
  return {
    wrapServices: (services) =>
      withStore(services, (store) => ({
        remove: (accountId, orderId) => {
          const order = store.get(accountId, orderId);
          const done = store.remove(accountId, orderId);
          if (order && done && !store.get(accountId, orderId)) removed.set(key(accountId, orderId), order);
          return done;
        },
      })),
    intercept: (request, context) => {
      const caller = callerOf(request, context.accounts);
      const { orderId } = operationOf(request);
      if (!is(request, operation) || !caller || orderId === undefined || context.services.store.get(caller.id, orderId)) return undefined;
      const deleted = removed.get(key(caller.id, orderId));
      return deleted ? answer(deleted, context) : undefined;
    },
  };
}

/** Every order of an account, newest first, as the store pages them. */
export function allOrders(store: OrderStore, accountId: string): StoredOrder[] {
  return store.page(accountId, 0, Number.MAX_SAFE_INTEGER).orders;
}

/** The request with another Authorization header. */
export function withAuthorization(request: ApiRequest, authorization: string): ApiRequest {
  return { ...request, headers: { ...request.headers, authorization } };
}

/** The bearer token of a request, if it has one. */
export function bearerToken(request: ApiRequest): string | undefined {
  return /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
}

/** Every string in a JSON value, changed; keys are kept. */
export function mapStrings(value: unknown, change: (text: string) => string): unknown {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) return value.map((inner) => mapStrings(inner, change));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, mapStrings(inner, change)]));
  }
  return value;
}

/** The hooks of a behaviour; its name is the fault id or variant name. */
export type Hooks = Omit<Behaviour, 'name'>;

/**
 * A requirement a fault may make fail besides the ones it declares, and why: the defect breaks a second
 * statement too, or a check of another requirement stands on what the defect broke (a body that is not
 * JSON has no fields to compare). Never a false alarm of the suite: that is fixed in the suite.
 */
export interface Collateral {
  requirement: string;
  reason: string;
}

/** A deliberate violation of the interface, and the requirements of the catalogue that must report it. */
export interface FaultDefinition {
  /** kebab-case; the value of OMS_FAULT. */
  id: string;
  /** The level of the requirements it violates: MUST faults fail the core profile, SHOULD faults the strict one. */
  level: 'MUST' | 'SHOULD';
  /** Requirement ids (requirements/catalogue.yaml) whose tests must fail against it. */
  catches: string[];
  /** Requirements that may fail with it, each with its reason; any other failure is a false alarm of the suite. */
  collateral: Collateral[];
  description: string;
  /** Shows only in some conditions: page 3 or later, two or more items, non-ASCII text, after an update… */
  subtle: boolean;
  /**
   * Why, where many tests run side by side (the matrix across a network, OMS_MATRIX_LATENCY), the fault reaches
   * whichever test reads back an order another test made at the same moment: any requirement may fail with it then,
   * which one depends on timing. Its declared requirements must still fail; at 0 ms its collateral is the declared one.
   */
  acrossTests?: string;
  /** A fresh behaviour (with fresh state) for one server. */
  behaviour(): Behaviour;
}

export function fault(definition: Omit<FaultDefinition, 'behaviour' | 'collateral'> & { collateral?: Collateral[]; hooks: () => Hooks }): FaultDefinition {
  const { hooks, collateral = [], ...meta } = definition;
  return { ...meta, collateral, behaviour: () => ({ name: meta.id, ...hooks() }) };
}

/** Several requirements that may fail with a fault for one reason. */
export function because(reason: string, requirements: string[]): Collateral[] {
  return requirements.map((requirement) => ({ requirement, reason }));
}

/**
 * Requirements a run against the fault failed that it neither declares nor names as collateral: each is a
 * false alarm of the suite (or collateral still to declare, with its reason).
 */
export function unrelatedFailures(fault: FaultDefinition, failed: string[], sideBySide = false): string[] {
  if (sideBySide && fault.acrossTests !== undefined) return [];
  return failed.filter((id) => !fault.catches.includes(id) && !fault.collateral.some((c) => c.requirement === id));
}

/** What a server that is not Unicode-clean does to text: every non-ASCII character becomes '?'. */
export function mangleNonAscii(text: string): string {
  return text.replace(/[^\x00-\x7F]/gu, '?');
}

/** The account a request's bearer token belongs to, as the server will authenticate it. */
export function callerOf(request: ApiRequest, accounts: AccountRegistry | undefined): Account | undefined {
  const token = bearerToken(request);
  return token ? accounts?.accountFor(token) : undefined;
}

/** Where the string that opens at `start` (a double quote) ends: the index after its closing quote. */
function endOfString(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index++) {
    if (text[index] === '\\') index++;
    else if (text[index] === '"') return index + 1;
  }
  return text.length;
}

const NON_FINITE = /-?Infinity|NaN/y;
const TRAILING_COMMA = /,\s*(?=[}\]])/y;
const NON_FINITE_MARK = '\u0000oms-lenient-non-finite-';

/**
 * JSON text as a lenient parser reads it (ORD-OBS-033): NaN, Infinity and -Infinity as numbers where `nonFinite`
 * (Python's json), a comma before a closing bracket ignored where `trailingComma`; of a key given twice the last
 * value (as JSON.parse, Python and Go keep it). undefined where it does not read even so.
 */
export function lenientJson(text: string, { nonFinite = false, trailingComma = false } = {}): unknown {
  const numbers: number[] = [];
  let strict = '';
  for (let index = 0; index < text.length; ) {
    if (text[index] === '"') {
      const end = endOfString(text, index);
      strict += text.slice(index, end);
      index = end;
      continue;
    }
    NON_FINITE.lastIndex = TRAILING_COMMA.lastIndex = index;
    const word = nonFinite ? NON_FINITE.exec(text) : null;
    const comma = trailingComma ? TRAILING_COMMA.exec(text) : null;
    if (word) {
      strict += JSON.stringify(`${NON_FINITE_MARK}${numbers.push(Number(word[0])) - 1}`);
      index += word[0].length;
    } else if (comma) {
      index += comma[0].length;
    } else {
      strict += text[index++];
    }
  }
  try {
    return JSON.parse(strict, (_key, value: unknown) => (typeof value === 'string' && value.startsWith(NON_FINITE_MARK) ? numbers[Number(value.slice(NON_FINITE_MARK.length))] : value));
  } catch {
    return undefined;
  }
}

/** True when a JSON object of the text gives one key twice (RFC 8259 4: names SHOULD be unique; parsers differ on it). */
export function duplicateKeyIn(text: string): boolean {
  const open: Array<Set<string> | undefined> = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '{') open.push(new Set());
    else if (char === '[') open.push(undefined);
    else if (char === '}' || char === ']') open.pop();
    else if (char === '"') {
      const end = endOfString(text, index);
      const keys = open[open.length - 1];
      if (keys && /^\s*:/.test(text.slice(end, end + 32))) {
        const key = text.slice(index, end);
        if (keys.has(key)) return true;
        keys.add(key);
      }
      index = end - 1;
    }
  }
  return false;
}
