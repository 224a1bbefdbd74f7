import { getAnswersOrderAsked, getKeepsAssignedValues, getUnknownIdAnswer, idIsOnePathSegment, storedAsSent } from '../../checks/orders';
import { check } from '../../harness/record/findings';
import { observe } from '../../harness/record/observe';
import { test } from '../../harness/fixtures';
import { createOrder, getOrder, orderToRead, ordersToRead, unknownIds } from '../../harness/requests/orders';
import { fullOrder, item, minimalOrder, nonAsciiOrder } from '../../contract/examples';
import { verifies } from '../../harness/record/verifies';
import { together } from '../../harness/requests/together';

test.describe('GET /orders/{order_id} (4.3)', () => {
  test('returns the order asked for, in the full form', verifies('ORD-GET-001', 'ORD-FORM-001'), async ({ api }) => {
    for (const created of await ordersToRead(api, 2, fullOrder)) {
      const { exchange } = await getOrder(api, created.id);
      check(getAnswersOrderAsked(created.id, exchange));
    }
  });

  test('assigns ids that fit in one path segment', verifies('ORD-GET-005'), async ({ api }) => {
    const created = await orderToRead(api);
    check(idIsOnePathSegment(created.id, created.exchange));
  });

  test('returns every field sent on create, at every depth', verifies('ORD-GET-002'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const { exchange } = await getOrder(api, created.id);
    check(storedAsSent(created.sent, exchange));
  });

  test('stores non-ASCII text exactly as sent', verifies('ORD-GET-002'), async ({ api }) => {
    const created = await createOrder(api, nonAsciiOrder());
    const { exchange } = await getOrder(api, created.id);
    check(storedAsSent(created.sent, exchange));
  });

  test('stores several items in the order sent', verifies('ORD-GET-002'), async ({ api }) => {
    const items = ['first', 'second', 'third'].map((name, index) => item({ name: `${name} item`, quantity: index + 1, price: 1.5 + index }));
    const created = await createOrder(api, minimalOrder({ items, price: 14 }));
    const { exchange } = await getOrder(api, created.id);
    check(storedAsSent({ items }, exchange));
  });

  test('keeps the id, user_id and created_at it assigned', verifies('ORD-GET-003'), async ({ api }) => {
    const created = await createOrder(api, minimalOrder());
    const { exchange } = await getOrder(api, created.id);
    check(getKeepsAssignedValues(created.body, exchange));
  });

  test('answers 404 or 410 for an unknown id (another 4xx too for an id of another form), and ids made from an order\'s id (12abc, 12-x of 12) as their readings allow', verifies('ORD-GET-004', 'ORD-OBS-018'), async ({ api }) => {
    const { ids } = await unknownIds(api);
    const answers = await together(ids.map(({ id }) => api.get(id)));
    ids.forEach(({ ownForm, madeFrom }, index) => check(getUnknownIdAnswer(ownForm, madeFrom)(answers[index])));
    const made = ids.flatMap(({ madeFrom }, index) => (madeFrom ? [`${madeFrom.name}: ${answers[index].status}`] : []));
    observe('ORD-OBS-018', `ids made from an order's id answer ${made.join(', ')}`);
  });

  test('answers 404 or another 4xx for ids outside ASCII or with a percent sign', verifies('ORD-GET-004', 'ORD-OBS-018'), async ({ api }) => {
    const answered: string[] = [];
    for (const id of api.unknownIdsOutsideAscii()) {
      const exchange = await api.get(id);
      check(getUnknownIdAnswer(false)(exchange));
      answered.push(`${JSON.stringify(id)}: ${exchange.status}`);
    }
    observe('ORD-OBS-018', `ids outside ASCII or with a percent sign answer ${answered.join(', ')}`);
  });
});
