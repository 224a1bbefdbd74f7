import { contract, excerpt, type JsonSchema } from '../../contract/openapi';
import { requestLine } from '../../contract/operations';
import { orderRequest } from '../../harness/api';
import { missingFieldRefused, nonJsonBodyRefused, numericStringTakenAsNumber, oversizedBodyAnswered, wrongTypeRefused } from '../../checks/invalid-input';
import { isSuccess } from '../../checks/status';
import { check } from '../../harness/findings';
import { test } from '../../harness/fixtures';
import { observe } from '../../harness/observe';
import { createOrder, type Json } from '../../harness/orders';
import { fullOrder, minimalOrder } from '../../generators/examples';
import { requiredFields } from '../../generators/schema';
import { verifies } from '../../harness/verifies';

const createSchema = contract().schema('OrderCreate') as { properties: Record<string, JsonSchema> };

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
    test(`refuses a create with ${field} of the wrong type`, verifies('ORD-ERR-004'), async ({ api }) => {
      check(wrongTypeRefused(`a create with ${field} of the wrong type`)(await api.create({ ...fullOrder(), [field]: wrongTypeFor(schema) })));
    });
  }

  const nested: Array<[string, (order: Json) => void]> = [
    ['items[0].quantity as a word', (order) => ((order.items as Json[])[0].quantity = 'two')],
    ['items[0].price as a word', (order) => ((order.items as Json[])[0].price = 'twelve fifty')],
    ['customer.email as a string', (order) => ((order.customer as Json).email = 'grace@example.com')],
    ['customer.address as an array', (order) => ((order.customer as Json).address = ['1 Harbour Road'])],
    ['billing.email as an object', (order) => ((order.billing as Json).email = { main: 'billing@navy.example' })],
    ['items holding a string', (order) => (order.items = ['a mug'])],
  ];
  for (const [what, spoil] of nested) {
    test(`refuses a create with ${what}`, verifies('ORD-ERR-004'), async ({ api }) => {
      const body = fullOrder();
      spoil(body);
      check(wrongTypeRefused(`a create with ${what}`)(await api.create(body)));
    });
  }

  test('refuses a numeric string for a number, or takes it as that number', verifies('ORD-ERR-004', 'ORD-OBS-019'), async ({ api }) => {
    const body = fullOrder();
    const numeric = '12.50';
    (body.items as Json[])[0].price = numeric;
    const exchange = await api.create(body);
    const price = ((exchange.json as { items?: Json[] } | undefined)?.items ?? [])[0]?.price;
    const taken = isSuccess(exchange.status);
    check(taken ? numericStringTakenAsNumber(numeric, exchange) : wrongTypeRefused('a numeric string for items[0].price, unless taken as the number it denotes')(exchange));
    observe('ORD-OBS-019', taken ? `a numeric string for items[0].price is taken as ${excerpt(price)} (${exchange.status})` : `a numeric string for items[0].price is refused (${exchange.status})`);
  });

  test('refuses an update with a field of the wrong type', verifies('ORD-ERR-004'), async ({ api }) => {
    const created = await createOrder(api, minimalOrder());
    for (const body of [{ price: 'free' }, { items: 'none' }, { customer: 'Ada' }]) {
      check(wrongTypeRefused(`an update of ${Object.keys(body)[0]} with the wrong type`)(await api.update(created.id, body)));
    }
  });

  test('answers a very large body with a 2xx or a 4xx, never a 5xx', verifies('ORD-ERR-005', 'ORD-OBS-028'), async ({ api }) => {
    const exchange = await api.create(minimalOrder({ note: 'x'.repeat(2 * 1024 * 1024) }));
    check(oversizedBodyAnswered(exchange));
    // Sent with Expect: 100-continue (harness/http/transport.ts): an answer on the headers alone is read like any other.
    observe('ORD-OBS-028', exchange.answeredBeforeBody ? `a 2 MiB body was answered ${exchange.status} on the headers alone, before it was sent` : `a 2 MiB body was read before the answer (${exchange.status})`);
  });

  test('answers errors with the error envelope', verifies('ORD-ERR-001'), async ({ api }) => {
    // The api checks the envelope of every 4xx it receives; these are the three commonest errors.
    await api.get(api.unknownId());
    await api.create({ currency: 'EUR' });
    await api.send({ ...requestLine('listOrders'), authorization: null });
  });
});
