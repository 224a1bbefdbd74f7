import { excerpt } from '../../contract/openapi';
import { idIsOnePathSegment, isUnknownAnswer } from '../../checks/body';
import { check, unless } from '../../harness/findings';
import { test } from '../../harness/fixtures';
import { carriesWhatWasSent, createOrder, getOrder, keepsAssignedValues, unknownIds } from '../../harness/orders';
import { fullOrder, item, minimalOrder, nonAsciiOrder } from '../../generators/examples';
import { verifies } from '../../harness/verifies';

test.describe('GET /orders/{order_id} (4.3)', () => {
  test('returns the order asked for, in the full form', verifies('ORD-GET-001', 'ORD-FORM-001'), async ({ api }) => {
    const older = await createOrder(api, fullOrder());
    const newer = await createOrder(api, fullOrder());
    for (const created of [older, newer]) {
      const { body, exchange } = await getOrder(api, created.id);
      check(
        unless('ORD-GET-001', body.id === created.id, () => ({
          expected: `the order ${created.id}`,
          received: `the order ${excerpt(body.id)}`,
          exchange,
        })),
      );
    }
  });

  test('assigns ids that fit in one path segment', verifies('ORD-GET-005'), async ({ api }) => {
    const created = await createOrder(api, minimalOrder());
    check(idIsOnePathSegment(created.id));
  });

  test('returns every field sent on create, at every depth', verifies('ORD-GET-002'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const { exchange } = await getOrder(api, created.id);
    check(carriesWhatWasSent('ORD-GET-002', created.sent, exchange, 'the stored order'));
  });

  test('stores non-ASCII text exactly as sent', verifies('ORD-GET-002'), async ({ api }) => {
    const created = await createOrder(api, nonAsciiOrder());
    const { exchange } = await getOrder(api, created.id);
    check(carriesWhatWasSent('ORD-GET-002', created.sent, exchange, 'the stored order'));
  });

  test('stores several items in the order sent', verifies('ORD-GET-002'), async ({ api }) => {
    const items = ['first', 'second', 'third'].map((name, index) => item({ name: `${name} item`, quantity: index + 1, price: 1.5 + index }));
    const created = await createOrder(api, minimalOrder({ items, price: 14 }));
    const { exchange } = await getOrder(api, created.id);
    check(carriesWhatWasSent('ORD-GET-002', { items }, exchange, 'the stored order'));
  });

  test('keeps the id, user_id and created_at it assigned', verifies('ORD-GET-003'), async ({ api }) => {
    const created = await createOrder(api, minimalOrder());
    const { exchange } = await getOrder(api, created.id);
    check(keepsAssignedValues('ORD-GET-003', created.body, exchange, 'as the create response gave them'));
  });

  test('answers 404 or 410 for an unknown id (another 4xx too for an id of another form)', verifies('ORD-GET-004'), async ({ api }) => {
    for (const { id, ownForm } of await unknownIds(api)) check(isUnknownAnswer('ORD-GET-004', ownForm)(await api.get(id)));
  });
});
