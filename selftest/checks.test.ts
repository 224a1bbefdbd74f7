import { expect, test } from '@playwright/test';
import { goneFromList } from '../checks/deletion';
import { otherAccountCannotList } from '../checks/isolation';
import { listedAfterCreate, readPage, searchOfPage, type ListSearch } from '../checks/listing';
import { updateVisibleOnGet } from '../checks/orders';
import { CHECKED_ON_ANNOTATION } from '../harness/checked-on';
import { REACHED_ANNOTATION } from '../harness/findings';
import type { Exchange } from '../harness/http/exchange';

/** Judgements of checks/ on made-up answers: what they count, and where they refuse to conclude. */

function answer(operationId: Exchange['operationId'], status: number, json: unknown): Exchange {
  return {
    operationId,
    request: { method: 'GET', url: 'http://127.0.0.1/', path: '/', headers: {} },
    status,
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify(json),
    json,
    retries: 0,
  };
}

test('a judgement counts as checked on the responses it names, never on those the test only passed through', () => {
  // A create that set the order up, then the update and the get that show it: only the last two are judged.
  answer('createOrder', 201, { id: 'a' });
  updateVisibleOnGet({ note: 'n' }, answer('getOrder', 200, { id: 'a', note: 'n' }), 'the order', answer('updateOrder', 200, { id: 'a', note: 'n' }));
  const cells = test.info().annotations.filter((a) => a.type === CHECKED_ON_ANNOTATION).map((a) => a.description);
  expect(cells.sort()).toEqual(['ORD-UPDATE-003 getOrder/2xx', 'ORD-UPDATE-003 updateOrder/2xx']);
});

test('an order not found by a search that could not read the whole list gets no verdict; read whole, its absence is judged', () => {
  const page = readPage({ page: 1, limit: 100 }, answer('listOrders', 200, { data: [{ id: 'other' }], meta: { total: 5000 } }));
  const bounded: ListSearch = { found: new Map(), searched: [page.exchange], complete: false };
  expect([listedAfterCreate('mine', bounded), goneFromList('mine', bounded), otherAccountCannotList('order mine', 'account B', bounded, 'mine')]).toEqual([undefined, undefined, undefined]);
  expect(test.info().annotations.filter((a) => a.type === REACHED_ANNOTATION)).toEqual([]);
  // One page holding the whole list is a complete search: the order is absent from it.
  const whole = searchOfPage(readPage({ page: 1, limit: 100 }, answer('listOrders', 200, { data: [{ id: 'other' }], meta: { total: 1 } })));
  expect(whole.complete).toBe(true);
  expect(listedAfterCreate('mine', whole)?.requirementId).toBe('ORD-LIST-008');
  expect(goneFromList('mine', whole)).toBeUndefined();
});
