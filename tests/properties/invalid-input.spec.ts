import { requestLine } from '../../contract/operations';
import { invalidBodyAnswered } from '../../checks/invalid-input';
import { isSuccess } from '../../checks/status';
import { invalidOrder, invalidOrderUpdate } from '../../generators/invalid';
import { orderRequest, type OmsApi } from '../../harness/requests/api';
import { forAll } from '../../harness/property';
import { controlCreate, controlUpdate, withNeighbourAnswers } from '../../harness/requests/neighbours';
import type { Exchange } from '../../contract/exchange';
import { test } from '../../harness/fixtures';
import { createOrder } from '../../harness/requests/orders';
import { minimalOrder, withOwnReferences } from '../../contract/examples';
import { verifies } from '../../harness/record/verifies';
import { quoted } from '../../config/safe-text';

// Each generated body breaks openapi.yaml in one way, whatever the parser: a required field missing, one field
// of the wrong type or shape at any depth, JSON cut short or otherwise malformed, or no create body at all. JSON a
// lenient parser reads (NaN, a key twice, a trailing comma, an empty update) is ORD-OBS-033's, sent on purpose in
// tests/orders/invalid-input.spec.ts.
test.describe('generated invalid input (4.2, 4.4, 7)', () => {
  test('answers any invalid create with a 4xx, or as a reading of its wrong value allows (a lax binder drops it), never a 5xx', verifies('ORD-ERR-002', 'ORD-ERR-003', 'ORD-ERR-004'), async ({ api, settings }) => {
    await forAll(settings, {
      input: invalidOrder(),
      runsFactor: 2,
      run: async (invalid, trail) => {
        const own = trail.api(api);
        const exchange =
          invalid.rawBody === undefined
            ? await own.create(invalid.body)
            : await own.send({ ...requestLine('createOrder'), rawBody: invalid.rawBody });
        if (invalid.rawBody !== undefined) await deleteIfCreated(api, exchange);
        // A value a lax binder may have dropped, answered with a value no fixed reading explains: the same create without it tells.
        const [circumstances] = await withNeighbourAnswers([{ values: invalid.value ? [invalid.value] : [], body: invalid.body, answer: exchange, control: controlCreate(own) }]);
        return invalidBodyAnswered(invalid, exchange, circumstances);
      },
    });
  });

  test('answers any invalid update with a 4xx, or as a reading of its wrong value allows (dropped, a field every order holds kept, a body that is no object an update of no fields), never a 5xx', verifies('ORD-ERR-002', 'ORD-ERR-004'), async ({ api, settings }) => {
    const made = minimalOrder();
    const target = await createOrder(api, made);
    // The order as it stands: an update that read its wrong value as not sent still applied the rest of its body.
    let current: unknown = target.body;
    await forAll(settings, {
      input: invalidOrderUpdate(),
      runsFactor: 2,
      run: async (invalid, trail) => {
        const own = trail.api(api);
        const exchange =
          invalid.rawBody === undefined
            ? await own.update(target.id, invalid.body)
            : await own.send({ ...orderRequest('updateOrder', target.id), rawBody: invalid.rawBody });
        // A twin is made as the target was: a control is sent only where the update neither kept the field nor showed it
        // without a value, so where it clears what it omits, which it does whatever the field held.
        const twin = () => own.create(withOwnReferences(made));
        const [circumstances] = await withNeighbourAnswers([{ values: invalid.value ? [invalid.value] : [], body: invalid.body, answer: exchange, circumstances: { before: current }, control: controlUpdate(own, twin) }]);
        const judgement = invalidBodyAnswered(invalid, exchange, circumstances);
        if (isSuccess(exchange.status)) current = exchange.json;
        return judgement;
      },
    });
  });
});

/** An order wrongly created from an invalid raw body is deleted at once, through the api: its answer is judged as every answer is. */
async function deleteIfCreated(api: OmsApi, exchange: Exchange): Promise<void> {
  const id = (exchange.json as { id?: unknown } | undefined)?.id;
  if (exchange.status >= 300 || (typeof id !== 'string' && typeof id !== 'number')) return;
  const deleted = await api.delete(String(id));
  if (deleted.status >= 300) console.warn(`oms-conformance: could not delete order ${quoted(String(id))} created from an invalid body (${deleted.status})`);
}
