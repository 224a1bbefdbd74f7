import { pathName, returnedInFullForm, serviceAssignedFields, serviceTimestamps, withValueAt } from '../../../contract/assigned';
import { hasOffset } from '../../../contract/datetime';
import { contract, type JsonSchema } from '../../../contract/openapi';
import { ApiError, errorReply, type ApiReply, type ApiRequest } from '../../../reference/http';
import {
  answersWhen,
  BODY_LABELS,
  ID_KINDS,
  idOfKind,
  internalError,
  labelled,
  mergesItemsBy,
  mishandlesWriteAfterDelete,
  TEXT_LIMITS,
  textPast,
  trailingSlashServedAsAccountA,
  type BodyLabel,
  type IdKind,
  type TextLimit,
} from './anomalies';
import { honoursClientValueOnCreate, reassignsKeptIds } from './assigned';
import { answersEveryOrderWhen } from './list';
import { because, fault, is, isSuccess, onFullForm, onSummaries, withJsonBody, withReplyBody, type FaultDefinition, type Hooks, type Json, type Operation } from './kit';

/**
 * The systematic fault space: faults derived from openapi.yaml and the catalogue rather than written one
 * by one. Each belongs to a family (one class of defect) and declares the requirement it violates, plus
 * its collateral: the requirements that may fail with it because they check the same bytes another way
 * (a mistyped field that the client sent is also a broken round trip). selftest/fault-space.test.ts runs them.
 */
export interface GeneratedFault extends FaultDefinition {
  family: Family;
}

export type Family =
  | 'field-dropped'
  | 'field-wrong-type'
  | 'field-null'
  | 'field-wrong-format'
  | 'assigned-taken-on-create'
  | 'assigned-changed-on-update'
  | 'bound-not-enforced'
  | 'near-miss-token'
  | 'non-json-body'
  | 'envelope-field'
  | 'promised-field-dropped'
  | 'repeated-items-merged'
  | 'write-after-delete'
  | 'body-label'
  | 'odd-id'
  | 'long-text'
  | 'path-spelling'
  | 'timestamp-without-offset';

/** What checks the bytes of client-sent fields by round trip: they fail with any corruption of a sent field. */
const ROUND_TRIP_IDS = ['ORD-CREATE-004', 'ORD-GET-002', 'ORD-UPDATE-002', 'ORD-UPDATE-003', 'ORD-LIST-008', 'ORD-CREATE-005', 'ORD-CREATE-003', 'ORD-GET-003', 'ORD-UPDATE-005', 'ORD-CREATE-006', 'ORD-GEN-002'];
const ROUND_TRIP = because('it compares the same field another way (round trip, summary against full form, assigned values), so the broken field fails it too', ROUND_TRIP_IDS);

/**
 * The response forms and where their fields sit: the full form (2.1), the summary (2.7), the list meta
 * (4.1). `roundTrip`: the requirement that compares a field the client sent with what the form shows.
 */
const FORMS: Array<{ component: string; requirement: string; roundTrip?: string; apply: (request: ApiRequest, reply: ApiReply, change: (value: Json) => unknown) => ApiReply }> = [
  { component: 'Order', requirement: 'ORD-FORM-001', roundTrip: 'ORD-CREATE-004', apply: onFullForm },
  { component: 'OrderSummary', requirement: 'ORD-FORM-002', roundTrip: 'ORD-LIST-008', apply: onSummaries },
  {
    component: 'ListMeta',
    requirement: 'ORD-LIST-001',
    apply: (request, reply, change) => (is(request, 'list') && isSuccess(reply) ? withReplyBody(reply, (body) => ({ ...body, meta: change(body.meta as Json) })) : reply),
  },
];

/** `formatOfSentValue`: the format holds for a value the client sent (x-format-of-sent-value), not for every answer. */
function typeOf(schema: JsonSchema): { type?: string; nullable: boolean; format?: string; formatOfSentValue: boolean } {
  const resolved = contract().resolve(schema);
  const branches = ((resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined)?.map((b) => contract().resolve(b));
  const main = branches ? (branches.find((b) => b.type !== 'null') ?? {}) : resolved;
  const types = branches ? branches.map((b) => b.type) : Array.isArray(resolved.type) ? (resolved.type as string[]) : [resolved.type as string | undefined];
  return {
    type: (branches ? main.type : types.find((t) => t !== 'null')) as string | undefined,
    nullable: types.includes('null'),
    format: main.format as string | undefined,
    formatOfSentValue: main['x-format-of-sent-value'] === true,
  };
}

const WRONG_TYPE: Record<string, unknown> = { string: 12345, number: '12.5', integer: '7', boolean: 'true', object: 'an object as text', array: { not: 'an array' } };
const WRONG_FORMAT: Record<string, string> = { 'date-time': 'last Tuesday', uuid: 'not-a-uuid' };

function fieldFaults(): GeneratedFault[] {
  const faults: GeneratedFault[] = [];
  const sentByClient = Object.keys(contract().schema('OrderCreate').properties as object);
  for (const form of FORMS) {
    const schema = contract().schema(form.component);
    const required = (schema.required ?? []) as string[];
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      const { type, nullable, format, formatOfSentValue } = typeOf(property);
      // A field the schema does not require may be null in a response (ORD-OBS-011: what an unsent or cleared field
      // holds is not shown); one the client sent must still come back as sent, which the round trip judges.
      const nullInResponses = nullable || !required.includes(name);
      const roundTrip = form.roundTrip && sentByClient.includes(name) ? form.roundTrip : undefined;
      const where = `${form.component}.${name}`;
      const id = (what: string) => `generated-${form.component.toLowerCase()}-${name.replace(/_/g, '-')}-${what}`;
      const mutate = (change: (value: unknown) => unknown): Hooks => ({
        rewriteReply: (request, reply) => form.apply(request, reply, (value) => (value && typeof value === 'object' && name in value ? withValueAt(value, [name], change) : value)),
      });
      const make = (family: Family, what: string, description: string, change: (value: unknown) => unknown, requirement = form.requirement) =>
        faults.push({
          ...fault({ id: id(what), level: 'MUST', catches: [requirement], collateral: ROUND_TRIP.filter((c) => c.requirement !== requirement), subtle: false, description, hooks: () => mutate(change) }),
          family,
        });
      if (required.includes(name)) {
        faults.push({
          ...fault({
            id: id('dropped'),
            level: 'MUST',
            catches: [form.requirement],
            subtle: false,
            description: `${where}, required by openapi.yaml, is left out.`,
            collateral: ROUND_TRIP,
            hooks: () => ({ rewriteReply: (request, reply) => form.apply(request, reply, (value) => omit(value, name)) }),
          }),
          family: 'field-dropped',
        });
      }
      if (type && WRONG_TYPE[type] !== undefined) make('field-wrong-type', 'wrong-type', `${where} (${type}) is answered as ${JSON.stringify(WRONG_TYPE[type])}.`, () => WRONG_TYPE[type]);
      if (!nullInResponses) make('field-null', 'null', `${where}, not nullable, is answered as null.`, () => null);
      else if (roundTrip) make('field-null', 'null', `${where}, which the client sends, is answered as null.`, () => null, roundTrip);
      if (format && WRONG_FORMAT[format]) {
        const description = `${where} (format ${format}) is answered as ${JSON.stringify(WRONG_FORMAT[format])}.`;
        // The format of a field the client sends holds for the value sent: the round trip judges it, not the schema.
        if (!formatOfSentValue) make('field-wrong-format', 'wrong-format', description, () => WRONG_FORMAT[format]);
        else if (roundTrip) make('field-wrong-format', 'wrong-format', description, () => WRONG_FORMAT[format], roundTrip);
      }
    }
  }
  return faults;
}

function assignedFaults(): GeneratedFault[] {
  const fields = serviceAssignedFields();
  const onCreate = fields.map((field) => ({
    ...fault({
      id: `generated-create-takes-client-${pathName(field.path).replace(/\[\]/g, '').replace(/[._]/g, '-')}`,
      level: 'MUST' as const,
      catches: ['ORD-CREATE-008'],
      subtle: true,
      description: `A create keeps a client-sent ${pathName(field.path)} (assigned by the service, section ${field.section}).`,
      collateral: because('the value taken from the client is what get, the checks of assigned values and the round trip of the create compare', ['ORD-GET-001', 'ORD-GET-003', 'ORD-CREATE-003', 'ORD-CREATE-004']),
      hooks: () => honoursClientValueOnCreate(field.path),
    }),
    family: 'assigned-taken-on-create' as const,
  }));
  const onUpdate = fields
    .filter((field) => field.path.length > 1)
    .map((field) => ({
      ...fault({
        id: `generated-update-changes-kept-${pathName(field.path).replace(/\[\]/g, '').replace(/[._]/g, '-')}`,
        level: 'MUST' as const,
        catches: ['ORD-UPDATE-007'],
        subtle: true,
        description: `An update that does not resend ${field.path[0]} gives ${pathName(field.path)} a new value.`,
        collateral: because('the next get shows the new value, which the check that an update is visible compares', ['ORD-UPDATE-003']),
        hooks: () => reassignsKeptIds([field.path]),
      }),
      family: 'assigned-changed-on-update' as const,
    }));
  return [...onCreate, ...onUpdate];
}

/** Each bound of the list parameters (section 8) not enforced: the out-of-range value answered with no limit at all. */
function boundFaults(): GeneratedFault[] {
  const faults: GeneratedFault[] = [];
  for (const name of ['limit', 'page'] as const) {
    const schema = contract().queryParameter('listOrders', name) as { minimum?: number; maximum?: number };
    for (const [bound, outside] of [
      ['minimum', (value: number) => schema.minimum !== undefined && value < schema.minimum],
      ['maximum', (value: number) => schema.maximum !== undefined && value > schema.maximum],
    ] as const) {
      if (schema[bound] === undefined) continue;
      faults.push({
        ...fault({
          id: `generated-list-${name}-${bound}-not-enforced`,
          level: 'MUST',
          catches: ['ORD-LIST-005'],
          subtle: true,
          description: `A ${name} beyond its ${bound} (${schema[bound]}) is served with no limit: every order of the account.`,
          collateral: because('a value out of range answered with every order is neither refused nor clamped, and that page holds more than any limit', ['ORD-LIST-004', 'ORD-LIST-010']),
          hooks: () => answersEveryOrderWhen((query) => /^-?\d+$/.test(query.get(name) ?? '') && outside(Number(query.get(name)))),
        }),
        family: 'bound-not-enforced',
      });
    }
  }
  return faults;
}

/** Token comparisons that accept a near miss of a valid token (section 5.1). */
function nearMissFaults(): GeneratedFault[] {
  const comparisons: Array<[string, (sent: string, valid: string) => boolean]> = [
    ['last-character', (sent, valid) => sent.length === valid.length && sent.slice(0, -1) === valid.slice(0, -1)],
    ['appended', (sent, valid) => sent.startsWith(valid)],
    ['removed', (sent, valid) => sent.length >= 8 && valid.startsWith(sent)],
    ['case', (sent, valid) => sent.toLowerCase() === valid.toLowerCase()],
  ];
  return comparisons.map(([what, resembles]) => ({
    ...fault({
      id: `generated-auth-token-${what}-accepted`,
      level: 'MUST' as const,
      catches: ['ORD-AUTH-004'],
      subtle: true,
      description: `A bearer token that differs from a valid one by ${what} is accepted.`,
      hooks: (): Hooks => ({
        rewriteRequest: (request, { accounts }) => {
          const token = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
          if (!token || accounts.accountFor(token)) return request;
          const match = accounts.validTokens().find(([valid]) => resembles(token, valid));
          return match ? { ...request, headers: { ...request.headers, authorization: `Bearer ${match[0]}` } } : request;
        },
      }),
    }),
    family: 'near-miss-token' as const,
    collateral: because('the near-miss token is accepted, so it does not get 401 either', ['ORD-AUTH-006']),
  }));
}

const OPERATIONS: Operation[] = ['delete', 'update', 'get', 'create', 'list'];

/** For each operation and response kind the suite provokes: a text/plain body. */
function nonJsonFaults(): GeneratedFault[] {
  return OPERATIONS.flatMap((operation) =>
    (['2xx', '4xx'] as const).map((kind) => ({
      ...fault({
        id: `generated-${operation}-${kind}-text-plain`,
        level: 'MUST' as const,
        catches: ['ORD-GEN-001'],
        subtle: false,
        description: `Every ${kind} of ${operation} is answered in text/plain.`,
        hooks: (): Hooks => ({
          rewriteReply: (request, reply) =>
            is(request, operation) && Math.floor(reply.status / 100) === Number(kind[0])
              ? { status: reply.status, headers: { ...reply.headers, 'Content-Type': 'text/plain; charset=utf-8' }, rawBody: `status ${reply.status}` }
              : reply,
        }),
      }),
      family: 'non-json-body' as const,
      collateral: because('a body that is not JSON leaves every check of that body without a body', ['ORD-ERR-001', 'ORD-LIST-001', 'ORD-FORM-001', 'ORD-FORM-002', 'ORD-DELETE-001', 'ORD-AUTH-002', 'ORD-AUTH-005', ...ROUND_TRIP_IDS, 'ORD-CREATE-001', 'ORD-CREATE-002', 'ORD-GET-001', 'ORD-UPDATE-001', 'ORD-DELETE-002', 'ORD-DELETE-004', 'ORD-LIST-002', 'ORD-LIST-003', 'ORD-LIST-004', 'ORD-LIST-005', 'ORD-LIST-006', 'ORD-LIST-007', 'ORD-LIST-009', 'ORD-LIST-010', 'ORD-LIST-011', 'ORD-CREATE-007', 'ORD-CREATE-008', 'ORD-UPDATE-004', 'ORD-UPDATE-007', 'ORD-ISO-001', 'ORD-ISO-002', 'ORD-ISO-003', 'ORD-GET-004', 'ORD-UPDATE-006', 'ORD-DELETE-003', 'ORD-ERR-009']),
    })),
  );
}

/** Each field of the error envelope (schema ErrorEnvelope, section 7) left out or mistyped on every 4xx. */
function envelopeFaults(): GeneratedFault[] {
  const meta = contract().resolve((contract().schema('ErrorEnvelope').properties as Record<string, JsonSchema>).meta);
  const required = (meta.required ?? []) as string[];
  const faults: GeneratedFault[] = [];
  for (const [name, property] of Object.entries((meta.properties ?? {}) as Record<string, JsonSchema>)) {
    const { type } = typeOf(property);
    const onMeta = (change: (meta: Json) => Json): Hooks => ({
      rewriteReply: (_request, reply) =>
        reply.status >= 400 && reply.status < 500 ? withReplyBody(reply, (body) => (body.meta ? { ...body, meta: change(body.meta as Json) } : body)) : reply,
    });
    const collateral = name === 'status' ? because('meta.status left out or mistyped is not the HTTP status either', ['ORD-GEN-002']) : [];
    const add = (what: string, description: string, change: (meta: Json) => Json) =>
      faults.push({
        ...fault({ id: `generated-errors-meta-${name}-${what}`, level: 'MUST', catches: ['ORD-ERR-006'], collateral, subtle: false, description, hooks: () => onMeta(change) }),
        family: 'envelope-field',
      });
    if (required.includes(name)) add('missing', `meta.${name} is left out of the error envelope.`, (m) => omit(m, name) as Json);
    if (type === 'array') {
      add('entries-mistyped', `meta.${name} entries carry numbers for field and error.`, (m) => ({ ...m, [name]: [{ field: 1, error: 2 }] }));
    } else if (type && WRONG_TYPE[type] !== undefined) {
      add('mistyped', `meta.${name} (${type}) is ${JSON.stringify(WRONG_TYPE[type])} in the error envelope.`, (m) => ({ ...m, [name]: WRONG_TYPE[type] }));
    }
  }
  return faults;
}

/** The id part a path gives a fault: customer.tax_office is customer-tax-office, items[].total items-total. */
const idPart = (path: string[]) => pathName(path).replace(/\[\]/g, '').replace(/[._]/g, '-');

/** Each field the full form promises (x-returned-in-full-form), left out of the full form of one operation (2.3 to 2.5). */
function promisedFieldFaults(): GeneratedFault[] {
  const also: Record<string, Partial<Record<Operation, string[]>>> = {
    'customer.id': { create: ['ORD-CREATE-005'], update: ['ORD-CREATE-005', 'ORD-UPDATE-007'], get: ['ORD-UPDATE-007'] },
    'items[].total': { create: ['ORD-CREATE-005'], update: ['ORD-CREATE-005'] },
  };
  return returnedInFullForm().flatMap(({ path, section }) =>
    (['create', 'get', 'update'] as const).map((operation) => ({
      ...fault({
        id: `generated-${operation}-omits-${idPart(path)}`,
        level: 'MUST' as const,
        catches: ['ORD-FORM-003'],
        collateral: because(`${pathName(path)} is also a value the service assigns or returns there, which another check looks for`, also[pathName(path)]?.[operation] ?? []),
        subtle: true,
        description: `The ${operation} answer leaves out ${pathName(path)}, which section ${section} says the full form returns.`,
        hooks: (): Hooks => ({
          rewriteReply: (request, reply) =>
            is(request, operation)
              ? onFullForm(request, reply, (order) => withValueAt(order, path.slice(0, -1), (parent) => (parent && typeof parent === 'object' ? omit(parent, path[path.length - 1]) : parent)))
              : reply,
        }),
      }),
      family: 'promised-field-dropped' as const,
    })),
  );
}

/** Two items of one name (or sku) stored as one, quantities summed, on create or on update: caught only when two such items are sent. */
function repeatedItemFaults(): GeneratedFault[] {
  return (['create', 'update'] as const).flatMap((operation) =>
    (['name', 'sku'] as const).map((key) => ({
      ...fault({
        id: `generated-${operation}-merges-items-by-${key}`,
        level: 'MUST' as const,
        catches: [operation === 'create' ? 'ORD-CREATE-004' : 'ORD-UPDATE-002'],
        collateral: because('the merged items are what is stored, so the next get shows them too', [operation === 'create' ? 'ORD-GET-002' : 'ORD-UPDATE-003']),
        subtle: true,
        description: `A ${operation} stores items of one ${key} as one item, their quantities summed.`,
        hooks: (): Hooks => ({ rewriteRequest: (request) => (is(request, operation) ? withJsonBody(request, mergesItemsBy(key)) : request) }),
      }),
      family: 'repeated-items-merged' as const,
    })),
  );
}

/** A later update or delete of a deleted order answered 500, or an update that brings the order back (4.5). */
function writeAfterDeleteFaults(): GeneratedFault[] {
  return ([['update', false], ['update', true], ['delete', false]] as const).map(([operation, revive]) => ({
    ...fault({
      id: `generated-${operation}-after-delete-${revive ? 'revives' : '500'}`,
      level: 'SHOULD' as const,
      catches: ['ORD-DELETE-005'],
      subtle: true,
      description: revive ? 'An update of a deleted order answers 200 and brings it back, though get answered 404.' : `A ${operation} of an order already deleted answers 500.`,
      hooks: () => mishandlesWriteAfterDelete(operation, revive),
    }),
    family: 'write-after-delete' as const,
  }));
}

/** For create and update, each label of a body a client may send: a crash (500) where the body is not labelled JSON, a 415 where it is, spelled otherwise. */
function bodyLabelFaults(): GeneratedFault[] {
  return (['create', 'update'] as const).flatMap((operation) =>
    (Object.keys(BODY_LABELS) as BodyLabel[]).map((label) => {
      const json = label === 'with-parameter' || label === 'in-capitals';
      return {
        ...fault({
          id: `generated-${operation}-body-${label}-${json ? '415' : '500'}`,
          level: 'SHOULD' as const,
          catches: [json ? 'ORD-GEN-004' : 'ORD-ERR-007'],
          subtle: true,
          description: json
            ? `A ${operation} whose body is labelled application/json ${label === 'with-parameter' ? 'with a parameter' : 'in capitals'} is refused with 415.`
            : `A ${operation} whose body is labelled ${label === 'none' ? 'not at all' : label === 'form' ? 'as a form' : 'text/plain'} crashes: 500.`,
          hooks: () =>
            answersWhen([operation], labelled(label), () =>
              json ? errorReply(new ApiError(415, 'unsupported_media_type', 'Content-Type must be application/json')) : internalError(),
            ),
        }),
        family: 'body-label' as const,
      };
    }),
  );
}

/** For get, update and delete, each kind of id a naive server chokes on (letters outside ASCII, an emoji, a percent sign): 500. */
function oddIdFaults(): GeneratedFault[] {
  const unknownId = { get: 'ORD-GET-004', update: 'ORD-UPDATE-006', delete: 'ORD-DELETE-003' } as const;
  return (['get', 'update', 'delete'] as const).flatMap((operation) =>
    (Object.keys(ID_KINDS) as IdKind[]).map((kind) => ({
      ...fault({
        id: `generated-${operation}-id-${kind}-500`,
        level: 'SHOULD' as const,
        catches: [unknownId[operation]],
        subtle: true,
        description: `A ${operation} of an id with ${kind === 'letters' ? 'letters outside ASCII' : kind === 'emoji' ? 'an emoji' : 'a percent sign'} answers 500 (other unknown ids 404).`,
        hooks: () => answersWhen([operation], idOfKind(kind), () => internalError()),
      }),
      family: 'odd-id' as const,
    })),
  );
}

/** For create and update, each common text column limit: a text past it crashes the handler (500). */
function longTextFaults(): GeneratedFault[] {
  return (['create', 'update'] as const).flatMap((operation) =>
    (Object.keys(TEXT_LIMITS) as TextLimit[]).map((limit) => ({
      ...fault({
        id: `generated-${operation}-text-past-${limit}-500`,
        level: 'SHOULD' as const,
        catches: ['ORD-ERR-008'],
        subtle: true,
        description: `A ${operation} with a text past ${limit} answers 500.`,
        hooks: () => answersWhen([operation], textPast(limit), () => internalError('value too long for the column')),
      }),
      family: 'long-text' as const,
    })),
  );
}

/** For list, get, update and delete: the path spelled with a trailing slash served without credentials (section 4). */
function pathSpellingFaults(): GeneratedFault[] {
  return (['list', 'get', 'update', 'delete'] as const).map((operation) => ({
    ...fault({
      id: `generated-${operation}-trailing-slash-unauthenticated`,
      level: 'MUST' as const,
      catches: ['ORD-AUTH-007'],
      subtle: true,
      description: `A ${operation} without the Authorization header, its path written with a trailing slash, is served as account A.`,
      hooks: () => trailingSlashServedAsAccountA([operation]),
    }),
    family: 'path-spelling' as const,
  }));
}

/** Each date-time the service writes, in the full form or the summary, as a local time without offset (a live deleted_at, null, as the creation time). */
function offsetFaults(): GeneratedFault[] {
  const withoutOffset = (value: unknown) => (typeof value === 'string' && hasOffset(value) ? value.replace(/(Z|[+-]\d{2}(:?\d{2})?)$/, '') : value);
  return FORMS.filter((form) => form.component === 'Order' || form.component === 'OrderSummary').flatMap((form) =>
    serviceTimestamps(form.component as 'Order' | 'OrderSummary').map((path) => ({
      ...fault({
        id: `generated-${form.component.toLowerCase()}-${idPart(path)}-without-offset`,
        level: 'SHOULD' as const,
        catches: ['ORD-FORM-004'],
        subtle: false,
        description: `${form.component}.${pathName(path)} is written without an offset (a local time, no instant).`,
        hooks: (): Hooks => ({
          rewriteReply: (request, reply) => form.apply(request, reply, (value) => withValueAt(value, path, (at) => withoutOffset(at ?? (value as Json).created_at))),
        }),
      }),
      family: 'timestamp-without-offset' as const,
    })),
  );
}

function omit(value: unknown, name: string): unknown {
  if (!value || typeof value !== 'object') return value;
  const { [name]: _dropped, ...rest } = value as Json;
  return rest;
}

export const GENERATED_FAULTS: GeneratedFault[] = [
  ...fieldFaults(),
  ...assignedFaults(),
  ...boundFaults(),
  ...nearMissFaults(),
  ...nonJsonFaults(),
  ...envelopeFaults(),
  ...promisedFieldFaults(),
  ...repeatedItemFaults(),
  ...writeAfterDeleteFaults(),
  ...bodyLabelFaults(),
  ...oddIdFaults(),
  ...longTextFaults(),
  ...pathSpellingFaults(),
  ...offsetFaults(),
];
