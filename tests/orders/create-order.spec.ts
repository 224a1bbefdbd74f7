import { contract, excerpt } from '../../contract/openapi';
import { orderAssignedFields } from '../../contract/assigned';
import {
  assignsNonEmptyString,
  createAnswersWhatWasSent,
  distinctIds,
  holdsItsOwnCustomer,
  idAssigned,
  itemsOf,
  oneUserIdPerAccount,
  repeatedIds,
  requiredOnlyCreateAccepted,
  serviceAssignedParts,
} from '../../checks/orders';
import { check, ensure } from '../../harness/record/findings';
import { test } from '../../harness/fixtures';
import { EXAMPLE_MARK, observe } from '../../harness/record/observe';
import { createOrder, getOrder } from '../../harness/requests/orders';
import type { Json } from '../../contract/exchange';
import { fullOrder, item, minimalOrder, nonAsciiOrder } from '../../contract/examples';
import { verifies } from '../../harness/record/verifies';
import { atOnce, together } from '../../harness/requests/together';

test.describe('POST /orders (4.2)', () => {
  test('accepts an order with every documented field', verifies('ORD-CREATE-001', 'ORD-FORM-001', 'ORD-OBS-001', 'ORD-OBS-010'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    observe('ORD-OBS-001', `create answers ${created.exchange.status}`);
    const documented = Object.keys((contract().schema('Order').properties as object) ?? {});
    const extra = Object.keys(created.body).filter((field) => !documented.includes(field));
    observe('ORD-OBS-010', extra.length ? `full form carries extra fields: ${extra.sort().join(', ')}` : 'no extra fields in the full form');
  });

  test('accepts an order with only the required fields', verifies('ORD-CREATE-002', 'ORD-OBS-011'), async ({ api }) => {
    const created = await createOrder(api, minimalOrder(), requiredOnlyCreateAccepted);
    const schema = contract().schema('Order') as { properties: object; required: string[] };
    const optional = Object.keys(schema.properties).filter((field) => !schema.required.includes(field) && !(field in created.sent));
    const shown = optional.map((field) => `${field}: ${!(field in created.body) ? 'absent' : created.body[field] === null ? 'null' : 'a value'}`);
    observe('ORD-OBS-011', `optional fields not sent come back as ${shown.join('; ')}`);
  });

  test('assigns id, user_id, status and timestamps', verifies('ORD-CREATE-003', 'ORD-OBS-007'), async ({ api }) => {
    const first = await createOrder(api, minimalOrder());
    const second = await createOrder(api, minimalOrder());
    for (const { exchange } of [first, second]) {
      for (const { path: [field] } of orderAssignedFields()) check(assignsNonEmptyString(field)(exchange));
    }
    check(oneUserIdPerAccount(first.exchange, second.exchange));
    observe('ORD-OBS-007', `order ids look like ${idFormat(first.id)}${EXAMPLE_MARK}${first.id})`);
  });

  test('returns every field sent, at every depth', verifies('ORD-CREATE-004'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    check(createAnswersWhatWasSent(created.sent, created.exchange));
  });

  test('returns non-ASCII text exactly as sent', verifies('ORD-CREATE-004'), async ({ api }) => {
    const created = await createOrder(api, nonAsciiOrder());
    check(createAnswersWhatWasSent(created.sent, created.exchange));
  });

  test('returns two items of one name and sku as two items, each with its quantity', verifies('ORD-CREATE-004'), async ({ api }) => {
    const twin = item({ name: 'Ceramic mug', sku: 'MUG-1' });
    const created = await createOrder(api, minimalOrder({ items: [twin, { ...twin, quantity: 5 }], price: 87.5 }));
    check(createAnswersWhatWasSent(created.sent, created.exchange));
  });

  test('assigns customer.id, item ids and item totals', verifies('ORD-CREATE-005'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    check(serviceAssignedParts(created.exchange));
  });

  test('observes how each item total relates to quantity and price', verifies('ORD-CREATE-006'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const totals = itemsOf(created.body).map((item, index) => {
      const product = Number(item.quantity) * Number(item.price);
      const relation = typeof item.total !== 'number' ? 'no number' : Math.abs(item.total - product) <= 0.005 + 1e-9 ? 'quantity × price' : 'another value';
      return `items[${index}]: ${item.quantity} × ${item.price} → total ${excerpt(item.total)} (${relation})`;
    });
    observe('ORD-CREATE-006', totals.join('; '));
  });

  test('gives distinct ids to orders created in parallel', verifies('ORD-CREATE-007'), async ({ api }) => {
    const sent = Array.from({ length: 12 }, () => minimalOrder());
    // At once, whatever else the worker has in flight: a race for ids shows only between creates that meet the server together.
    const exchanges = await atOnce(() => sent.map((body) => api.create(body)));
    exchanges.forEach((exchange) => {
      ensure(requiredOnlyCreateAccepted(exchange));
      ensure(idAssigned(exchange));
    });
    const ids = exchanges.map((exchange) => (exchange.json as Json).id as string);
    check(distinctIds(ids, exchanges));
    // Each id must also lead to its own order, not to whichever parallel create wrote last.
    const duplicates = repeatedIds(ids);
    const distinct = [...ids.entries()].filter(([, id]) => !duplicates.includes(id));
    const got = await together(distinct.map(([, id]) => getOrder(api, id)));
    distinct.forEach(([index, id], n) => check(holdsItsOwnCustomer(id, sent[index], got[n].exchange)));
  });

  test('ignores or rejects an unknown request field', verifies('ORD-OBS-012'), async ({ api }) => {
    const exchange = await api.create({ ...minimalOrder(), oms_conformance_unknown_field: 'probe' });
    const echoed = (exchange.json as Json | undefined)?.oms_conformance_unknown_field !== undefined;
    observe(
      'ORD-OBS-012',
      exchange.status < 300 ? `unknown field accepted (${exchange.status})${echoed ? ' and echoed back' : ' and dropped'}` : `unknown field rejected with ${exchange.status}`,
    );
  });
});

function idFormat(id: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return 'UUIDs';
  if (/^\d+$/.test(id)) return 'numbers in a string';
  if (/^[a-z]+[_-]/i.test(id)) return `prefixed strings (${id.split(/[_-]/)[0]}…)`;
  return 'opaque strings';
}
