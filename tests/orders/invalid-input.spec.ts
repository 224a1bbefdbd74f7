import { contract, excerpt, type JsonSchema } from '../../contract/openapi';
import { requestLine, type RequestLine } from '../../contract/operations';
import { orderRequest, type OmsApi } from '../../harness/requests/api';
import {
  jsonLabelTaken,
  lenientBodyAnswered,
  readBackAfterLenientBody,
  missingFieldRefused,
  nonJsonBodyRefused,
  oversizedBodyAnswered,
  oversizedHeadersAnswered,
  oversizedRefusalsLeftOrder,
  refusableBodyAnswered,
  refusedUpdateLeftOrder,
  unlabelledBodyAnswered,
  unlabelledUpdateLeftOrder,
  wrongTypeRefused,
  invalidBodyAnswered,
} from '../../checks/invalid-input';
import { placeAt, readingsOf, valueAt, type ValueKind } from '../../checks/readings';
import { mayBeRefused } from '../../checks/orders';
import { isClientError, isSuccess } from '../../checks/status';
import { check } from '../../harness/record/findings';
import { test } from '../../harness/fixtures';
import { observe } from '../../harness/record/observe';
import { createOrder, createOrders, getOrder } from '../../harness/requests/orders';
import { both, together } from '../../harness/requests/together';
import { controlCreate, controlUpdate, withNeighbourAnswers } from '../../harness/requests/neighbours';
import { contentType, type Exchange, type Json } from '../../contract/exchange';
import { fullOrder, minimalOrder, withOwnReferences } from '../../contract/examples';
import { requiredFields } from '../../generators/schema';
import { deeplyNestedBodies, DEEP_NESTING, lenientBodies } from '../../generators/invalid';
import { verifies } from '../../harness/record/verifies';

const createSchema = contract().schema('OrderCreate') as { properties: Record<string, JsonSchema> };

/** Whole bodies that are JSON but no object: a handler that looks fields up in the body unchecked crashes on null or a number. */
const NON_OBJECT_BODIES: Array<[string, string]> = [
  ['null', 'null'],
  ['a number', '7'],
  ['true', 'true'],
  ['a string', '"an order"'],
  ['an empty array', '[]'],
];

/** Sends `rawBody` as JSON and checks that it is refused as of the wrong type (ORD-ERR-004). */
async function sendRefused(api: OmsApi, line: RequestLine, what: string, rawBody: string): Promise<void> {
  check(wrongTypeRefused(what)(await api.send({ ...line, rawBody, contentType: 'application/json' })));
}

/** The order an update is sent to: its id, the order as it stood, and how a twin in the same state is made (a create as it was made). */
interface UpdateTarget {
  id: string;
  before: Json;
  twin: () => Promise<Exchange>;
}

/**
 * Sends a create or update whose value at `pointer` is of the wrong kind, and judges the answer by that value's
 * readings (ORD-ERR-004): refused, or taken as a reading allows, or as the same service answers the neighbour a
 * reading names (the same create without the value, or the same update without it sent to a twin of `target`),
 * sent only where no fixed reading explains the answer. `rawBody`, where given, is sent instead of `body`, `body`
 * then standing for it in the judgement.
 */
async function sendWrong(api: OmsApi, sent: { what: string; body: unknown; pointer: string; kind: ValueKind; denotes?: unknown; rawBody?: string }, target?: UpdateTarget): Promise<Exchange> {
  const denotes = 'denotes' in sent ? sent.denotes : valueAt(sent.body, sent.pointer);
  const value = { name: sent.what, pointer: sent.pointer, kind: sent.kind, denotes, readings: readingsOf(sent.kind, placeAt(sent.pointer, target ? 'update' : 'create')) };
  const invalid = { kind: 'wrong-type' as const, description: sent.what, requirementId: 'ORD-ERR-004' as const, body: sent.body, value };
  const line = target === undefined ? requestLine('createOrder') : orderRequest('updateOrder', target.id);
  const exchange = await api.send({ ...line, rawBody: sent.rawBody ?? JSON.stringify(sent.body), contentType: 'application/json' });
  const control = target === undefined ? controlCreate(api) : controlUpdate(api, target.twin);
  const [circumstances] = await withNeighbourAnswers([{ values: [value], body: sent.body, answer: exchange, circumstances: { before: target?.before }, control }]);
  check(invalidBodyAnswered(invalid, exchange, circumstances));
  return exchange;
}

/** Each body sent as an update of an order of its own, all side by side, each order made from a body of `made` (and its twin from the same body). */
async function sendWrongUpdates(api: OmsApi, made: () => Json, updates: Array<Parameters<typeof sendWrong>[1]>): Promise<void> {
  const bodies = updates.map(() => made());
  const orders = await createOrders(api, bodies);
  await together(updates.map((update, index) => sendWrong(api, update, { id: orders[index].id, before: orders[index].body, twin: () => api.create(withOwnReferences(bodies[index])) })));
}

/** Labels of a JSON body that are not application/json, as clients and proxies send them (null: no Content-Type at all). */
const OTHER_LABELS: Array<[string, string | null]> = [
  ['Content-Type text/plain', 'text/plain;charset=UTF-8'],
  ['a form Content-Type', 'application/x-www-form-urlencoded'],
  ['no Content-Type', null],
];

/**
 * Fields of a create or update (4.4 takes customer and note too) whose limits are not shown (2.7): text past
 * the columns servers use (VARCHAR(255), 10,000 characters, a 64 KB TEXT, in bytes outside ASCII), blank text.
 */
function refusableValues(): Array<[string, Json]> {
  const { customer } = fullOrder();
  return [
    ['a customer name of 300 characters', { customer: { ...customer, name: 'Grace '.repeat(50) } }],
    ['a note of 10,000 characters', { note: 'Lorem ipsum '.repeat(834).slice(0, 10_000) }],
    ['a note of 70,000 characters outside ASCII (120 KB)', { note: 'ğüşiöç '.repeat(10_000) }],
    ['a blank customer name', { customer: { ...customer, name: '   ' } }],
  ];
}

/**
 * A value of the wrong JSON type for a schema that denotes no value of the right one: a word where a
 * number belongs, an object where a string does (a numeric string may be taken as its number, ORD-OBS-019).
 */
function wrongTypeFor(schema: JsonSchema): unknown {
  const type = contract().resolve(schema).type;
  if (type === 'string') return { not: 'a string' };
  if (type === 'number' || type === 'integer') return 'not a number';
  if (type === 'array') return { not: 'an array' };
  if (type === 'object') return 'not an object';
  return ['unexpected'];
}

test.describe('Invalid input (4.2, 4.4, 7)', () => {
  test('refuses a body that is not JSON on create', verifies('ORD-ERR-002', 'ORD-OBS-002'), async ({ api }) => {
    const exchange = await api.send({ ...requestLine('createOrder'), rawBody: '{"customer": {"name": "Ada"', contentType: 'application/json' });
    check(nonJsonBodyRefused('a create body that is not JSON')(exchange));
    observe('ORD-OBS-002', `malformed JSON on create: ${exchange.status}`);
  });

  test('refuses an empty body on create', verifies('ORD-ERR-002'), async ({ api }) => {
    check(nonJsonBodyRefused('an empty create body')(await api.send({ ...requestLine('createOrder'), rawBody: '', contentType: 'application/json' })));
  });

  test('takes or refuses JSON a lenient parser reads (NaN, Infinity, a key twice, a trailing comma, bytes that are not UTF-8, an empty update), never a 5xx, and reads back what it took in JSON', verifies('ORD-ERR-009', 'ORD-OBS-033'), async ({ api }) => {
    // Each body on an order of its own, all side by side: an update read back meets no other body's value.
    const updateBodies = lenientBodies({ note: 'read leniently', price: 19.5 }, 'updateOrder');
    const [creates, orders] = await both(
      together(
        lenientBodies(minimalOrder(), 'createOrder').map(async ({ name, rawBody }) => {
          const what = `a create with ${name}`;
          const created = await api.send({ ...requestLine('createOrder'), rawBody, contentType: 'application/json' });
          check(lenientBodyAnswered(what)(created));
          const id = (created.json as { id?: unknown } | undefined)?.id;
          if (isSuccess(created.status) && (typeof id === 'string' || typeof id === 'number')) {
            check(readBackAfterLenientBody(what)(await api.get(String(id))));
            await api.delete(String(id));
          }
          return `${what}: ${created.status}`;
        }),
      ),
      createOrders(api, updateBodies.map(() => minimalOrder())),
    );
    const updates = await together(
      updateBodies.map(async ({ name, rawBody }, index) => {
        const what = `an update with ${name}`;
        const updated = await api.send({ ...orderRequest('updateOrder', orders[index].id), rawBody, contentType: 'application/json' });
        check(lenientBodyAnswered(what)(updated));
        if (isSuccess(updated.status)) check(readBackAfterLenientBody(what)(await api.get(orders[index].id)));
        return `${what}: ${updated.status}`;
      }),
    );
    observe('ORD-OBS-033', [...creates, ...updates].join('; '));
  });

  test('refuses a body that is not JSON on update', verifies('ORD-ERR-002'), async ({ api }) => {
    const created = await createOrder(api, minimalOrder());
    const exchange = await api.send({ ...orderRequest('updateOrder', created.id), rawBody: '{"note": ', contentType: 'application/json' });
    check(nonJsonBodyRefused('an update body that is not JSON')(exchange));
  });

  for (const field of requiredFields('OrderCreate')) {
    test(`refuses a create without ${field}`, verifies('ORD-ERR-003', 'ORD-OBS-002'), async ({ api }) => {
      const { [field]: _removed, ...body } = fullOrder();
      const exchange = await api.create(body);
      check(missingFieldRefused(`a create without ${field}`)(exchange));
      observe('ORD-OBS-002', `create without ${field}: ${exchange.status}`);
    });
  }

  for (const [field, schema] of Object.entries(createSchema.properties)) {
    const required = requiredFields('OrderCreate').includes(field as never);
    test(`refuses a create with ${field} of the wrong type${required ? '' : ', or reads it as not sent'}`, verifies('ORD-ERR-004'), async ({ api }) => {
      await sendWrong(api, { what: `a create with ${field} of the wrong type`, body: { ...fullOrder(), [field]: wrongTypeFor(schema) }, pointer: `/${field}`, kind: 'wrong-type' });
    });
  }

  const nested: Array<[string, string, unknown]> = [
    ['items[0].quantity as a word', '/items/0/quantity', 'two'],
    ['items[0].price as a word', '/items/0/price', 'twelve fifty'],
    ['customer.email as a string', '/customer/email', 'grace@example.com'],
    ['customer.address as an array', '/customer/address', ['1 Harbour Road']],
    ['billing.email as an object', '/billing/email', { main: 'billing@navy.example' }],
    ['items holding a string', '/items', ['a mug']],
  ];
  for (const [what, pointer, wrong] of nested) {
    test(`refuses a create with ${what}${pointer === '/items' ? '' : ', or reads it as not sent'}`, verifies('ORD-ERR-004'), async ({ api }) => {
      const body = fullOrder() as Json;
      const [field, ...rest] = pointer.slice(1).split('/');
      if (rest.length === 0) body[field] = wrong;
      else (valueAt(body, `/${[field, ...rest.slice(0, -1)].join('/')}`) as Json)[rest[rest.length - 1]] = wrong;
      await sendWrong(api, { what: `a create with ${what}`, body, pointer, kind: 'wrong-type' });
    });
  }

  test('refuses a numeric string for a number, or takes it as that number, or reads it as not sent', verifies('ORD-ERR-004', 'ORD-OBS-019'), async ({ api }) => {
    const body = fullOrder();
    const numeric = '12.50';
    (body.items as Json[])[0].price = numeric;
    const exchange = await sendWrong(api, { what: `a numeric string ${JSON.stringify(numeric)} for items[0].price`, body, pointer: '/items/0/price', kind: 'coercible', denotes: Number(numeric) });
    const price = ((exchange.json as { items?: Json[] } | undefined)?.items ?? [])[0]?.price;
    observe('ORD-OBS-019', isSuccess(exchange.status) ? `a numeric string for items[0].price is taken as ${excerpt(price)} (${exchange.status})` : `a numeric string for items[0].price is refused (${exchange.status})`);
  });

  test('refuses an update with a field of the wrong type, or leaves that field as it was', verifies('ORD-ERR-004'), async ({ api }) => {
    const bodies = [{ price: 'free' }, { items: 'none' }, { customer: 'Ada' }];
    await sendWrongUpdates(api, minimalOrder, bodies.map((body) => ({ what: `an update of ${Object.keys(body)[0]} with the wrong type`, body, pointer: `/${Object.keys(body)[0]}`, kind: 'wrong-type' as const })));
  });

  test('refuses a create whose whole body is JSON but no object (null, a number, true, a string, []), and an update whose body is a number, true or a string, or reads that update as one of no fields', verifies('ORD-ERR-004'), async ({ api }) => {
    // null and [] on a create only: a server may read either as an update of nothing, as it may an empty body (ORD-OBS-033).
    const updates = NON_OBJECT_BODIES.filter(([, text]) => text !== 'null' && text !== '[]').map(([what, rawBody]) => ({ what: `an update whose body is ${what}`, body: JSON.parse(rawBody) as unknown, pointer: '', kind: 'non-object-body' as const }));
    await both(
      together(NON_OBJECT_BODIES.map(([what, rawBody]) => sendRefused(api, requestLine('createOrder'), `a create whose body is ${what}`, rawBody))),
      sendWrongUpdates(api, minimalOrder, updates),
    );
  });

  test(`refuses the body, a string or a number as a value nested ${DEEP_NESTING.toLocaleString('en')} deep, on create and update, with a 4xx or as its readings allow, never a 5xx`, verifies('ORD-ERR-004'), async ({ api }) => {
    const valid = minimalOrder();
    const change = { note: 'nested', price: 19.5 };
    const updates = deeplyNestedBodies(change).map(({ name, rawBody, pointer, kind }) => ({ what: `an update with ${name}`, body: pointer === '' ? [] : { ...change, [pointer.slice(1)]: {} }, pointer, kind, rawBody }));
    await both(
      together(
        deeplyNestedBodies(valid).map(({ name, rawBody, pointer, kind }) =>
          pointer === '' ? sendRefused(api, requestLine('createOrder'), `a create with ${name}`, rawBody) : sendWrong(api, { what: `a create with ${name}`, body: { ...valid, [pointer.slice(1)]: {} }, pointer, kind, rawBody }).then(() => undefined),
        ),
      ),
      sendWrongUpdates(api, minimalOrder, updates),
    );
  });

  test('takes a JSON body labelled text/plain, as a form or not at all as JSON, or refuses it with 415, 400 or 422', verifies('ORD-ERR-007', 'ORD-OBS-030'), async ({ api }) => {
    // An order per label, the labels side by side: a refused update is compared with a get no other label's update follows.
    const orders = await createOrders(api, OTHER_LABELS.map(() => minimalOrder()));
    const seen = await together(
      OTHER_LABELS.map(async ([label, contentType], index) => {
        const { id } = orders[index];
        const [created, { body: before }] = await both(api.send({ ...requestLine('createOrder'), rawBody: JSON.stringify(minimalOrder()), contentType }), getOrder(api, id));
        check(unlabelledBodyAnswered(`${label} on create`, created));
        const change = { note: `sent with ${label}` };
        const updated = await api.send({ ...orderRequest('updateOrder', id), rawBody: JSON.stringify(change), contentType });
        check(unlabelledBodyAnswered(`${label} on update`, updated));
        if (!isSuccess(updated.status)) check(unlabelledUpdateLeftOrder(label, before, await api.get(id), updated));
        return `${label}: create ${created.status}, update ${updated.status}`;
      }),
    );
    observe('ORD-OBS-030', seen.join('; '));
  });

  test('takes a JSON body labelled application/json with a charset or in capitals', verifies('ORD-GEN-004'), async ({ api }) => {
    for (const label of ['application/json;charset=UTF-8', 'Application/JSON']) {
      // First the same body labelled application/json: a server that refuses it (ORD-CREATE-001's to judge) says nothing of labels.
      const order = await createOrder(api, minimalOrder());
      const created = await api.send({ ...requestLine('createOrder'), rawBody: JSON.stringify(minimalOrder()), contentType: label });
      check(jsonLabelTaken(`${label} on create`)(created));
      check(jsonLabelTaken(`${label} on update`)(await api.send({ ...orderRequest('updateOrder', order.id), rawBody: JSON.stringify({ note: label }), contentType: label })));
    }
  });

  test('answers long text and other values a server may refuse with a 2xx, or a 4xx that leaves the order as it was', verifies('ORD-ERR-008'), async ({ api }) => {
    const values = refusableValues();
    for (const [what, fields] of values) if (!mayBeRefused(fields)) throw new Error(`invalid-input: ${what} is not a value a correct server may refuse; fix the sample`);
    // An order per value, the values side by side: a refused update is compared with a get no other value's update follows.
    const orders = await createOrders(api, values.map(() => minimalOrder()));
    await together(
      values.map(async ([what, fields], index) => {
        const { id } = orders[index];
        const [created, { body: before }] = await both(api.create(minimalOrder(fields)), getOrder(api, id));
        check(refusableBodyAnswered(`a create with ${what}`, created));
        const updated = await api.update(id, fields);
        check(refusableBodyAnswered(`an update with ${what}`, updated));
        if (isClientError(updated.status)) check(refusedUpdateLeftOrder(what, before, await api.get(id), updated));
      }),
    );
  });

  test('answers a very large body or header with a 2xx or a 4xx, never a 5xx, and a refused one changes nothing', verifies('ORD-ERR-005', 'ORD-GEN-005', 'ORD-OBS-028'), async ({ api }) => {
    const large = { note: 'x'.repeat(2 * 1024 * 1024) };
    // Sent with Expect: 100-continue (harness/http/transport.ts): an answer on the headers alone is read like any other.
    const [created, order] = await both(api.create(minimalOrder(large)), createOrder(api, minimalOrder()));
    // The header on an update alone: the HTTP layer meets it before any operation, and an update shows what a refusal left.
    const sent = [large, { note: `sent with a ${OVERSIZED_HEADER_BYTES / 1024} KiB header` }];
    const updates = await together([
      api.update(order.id, sent[0]),
      api.send({ ...orderRequest('updateOrder', order.id), json: sent[1], headers: { [OVERSIZED_HEADER]: 'x'.repeat(OVERSIZED_HEADER_BYTES) } }),
    ]);
    for (const exchange of [created, updates[0]]) check(oversizedBodyAnswered(exchange));
    check(oversizedHeadersAnswered(updates[1]));
    if (updates.some((update) => update.status >= 400 && update.status < 500)) check(oversizedRefusalsLeftOrder(order.body, sent, updates, await api.get(order.id)));
    observe('ORD-OBS-028', `a 2 MiB body: create ${answeredWith(created)}, update ${answeredWith(updates[0])}; a ${OVERSIZED_HEADER_BYTES / 1024} KiB header: update ${answeredWith(updates[1])}`);
  });

  test('answers errors with the error envelope', verifies('ORD-ERR-001'), async ({ api }) => {
    // The api checks the envelope of every 4xx it receives; these are the three commonest errors.
    await api.get(api.unknownId());
    await api.create({ currency: 'EUR' });
    await api.send({ ...requestLine('listOrders'), authorization: null });
  });
});

/** A header larger than any order needs (over 8 KiB, checks/body.ts) and past Node's own 16 KiB limit on a request head. */
const OVERSIZED_HEADER = 'X-Oms-Conformance-Padding';
const OVERSIZED_HEADER_BYTES = 32 * 1024;

/**
 * What answered a request larger than any order needs, and how, in the suite's words (ORD-OBS-028): taken, or its
 * status, whether it came on the headers alone, the Content-Type and what the body is, an HTML page's title and the
 * Server header where there are (quoted: server text).
 */
function answeredWith(exchange: Exchange): string {
  const json = exchange.json as { meta?: unknown } | undefined;
  const body =
    exchange.text === ''
      ? 'no body'
      : json !== undefined
        ? typeof json === 'object' && json !== null && typeof json.meta === 'object' && json.meta !== null
          ? 'JSON with the error envelope'
          : 'JSON without the error envelope'
        : /^text\/html\b/i.test(contentType(exchange))
          ? `an HTML page${titleOf(exchange.text)}`
          : 'a body that is not JSON';
  const server = exchange.headers.server === undefined ? '' : `, Server ${excerpt(exchange.headers.server)}`;
  const when = exchange.answeredBeforeBody ? ' on the headers alone, before the body was sent' : '';
  return isSuccess(exchange.status) ? `${exchange.status}, taken` : `${exchange.status}${when} (${contentType(exchange) || 'no Content-Type'}: ${body}${server})`;
}

function titleOf(html: string): string {
  const title = /<title>([^<]*)<\/title>/i.exec(html)?.[1].trim();
  return title ? ` titled ${excerpt(title)}` : '';
}
