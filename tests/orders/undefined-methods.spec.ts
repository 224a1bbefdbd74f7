import { anyResponseChecks } from '../../checks/body';
import { undefinedMethodAnswered, unchangedByUndefinedMethods } from '../../checks/methods';
import { REFUSED_NOTE } from '../../checks/orders';
import { excerpt } from '../../contract/openapi';
import { undefinedMethods, type UndefinedMethod } from '../../contract/operations';
import { minimalOrder } from '../../contract/examples';
import type { Exchange } from '../../contract/exchange';
import type { RequestSpec } from '../../harness/http/client';
import { check } from '../../harness/record/findings';
import { observe } from '../../harness/record/observe';
import { test } from '../../harness/fixtures';
import { orderPath } from '../../harness/requests/api';
import { createOrder } from '../../harness/requests/orders';
import { both, together } from '../../harness/requests/together';
import { verifies, whileNoOtherTestCreates } from '../../harness/record/verifies';
import { recordCut } from '../../harness/record/cuts';

/**
 * Methods the interface does not define (section 4 lists each operation's method and path; RFC 9110 15.5.6 for the
 * 405 and its Allow header), as Schemathesis' unsupported_method and allow_header_conformance checks send them:
 * each refused without a 5xx, none changing an order. To /orders/{order_id} they go to an order of this run; to
 * /orders itself only while the account holds nothing but this run's orders (OmsApi.sendToCollection).
 */
const PROBES = undefinedMethods();

test.describe('Methods the interface does not define (4)', () => {
  test(
    `refuses ${PROBES.map(({ method, path }) => `${method} ${path}`).join(', ')} without a 5xx, a 405 with an Allow header naming the path's methods, in JSON, changing no order`,
    // While the list is read for whose orders the account holds, no create of this run may be in flight (OmsApi.sendToCollection).
    whileNoOtherTestCreates(verifies('ORD-GEN-006', 'ORD-OBS-035', 'ORD-GEN-001', 'ORD-ERR-006', 'ORD-ERR-010')),
    async ({ api }) => {
      const created = await createOrder(api, minimalOrder());
      const request = ({ method, path }: UndefinedMethod): RequestSpec => ({ method, path: path === '/orders' ? path : orderPath(created.id), ...(method !== 'DELETE' && { json: { note: REFUSED_NOTE } }) });
      const onOrder = PROBES.filter(({ path }) => path !== '/orders');
      const onCollection = PROBES.filter(({ path }) => path === '/orders');
      const [answers, collection] = await both(together(onOrder.map((probe) => api.send(request(probe)))), api.sendToCollection(onCollection.map(request)));
      const answered: Array<[UndefinedMethod, Exchange]> = [...onOrder.map((probe, index): [UndefinedMethod, Exchange] => [probe, answers[index]])];
      if ('sent' in collection) answered.push(...onCollection.map((probe, index): [UndefinedMethod, Exchange] => [probe, collection.sent[index]]));
      for (const [probe, exchange] of answered) {
        // No operation of the interface: held to what sections 1 and 7 say of every answer, and to ORD-GEN-006.
        for (const judgement of anyResponseChecks(exchange)) check(judgement);
        check(undefinedMethodAnswered(probe, exchange));
      }
      check(unchangedByUndefinedMethods(created.id, answered.map(([, exchange]) => exchange), await api.get(created.id)));
      const seen = answered.map(([{ method, path }, { status, headers }]) => `${method} ${path}: ${status}${headers.allow === undefined ? '' : ` (Allow ${excerpt(headers.allow)})`}`);
      const heldBack = 'heldBack' in collection ? [`${onCollection.map(({ method, path }) => `${method} ${path}`).join(', ')}: held back for safety, not sent (${collection.heldBack})`] : [];
      // Probes held back leave ORD-GEN-006 unchecked on /orders: not passed, and the run not complete.
      if ('heldBack' in collection) {
        recordCut({
          unit: 'probes',
          made: onOrder.length,
          planned: PROBES.length,
          requests: 0,
          cause: 'configuration',
          reason: `${onCollection.map(({ method }) => method).join(', ')} /orders not sent for safety: ${collection.heldBack}`,
          belowFloor: true,
          settings: ["an account that holds only this run's orders (a fresh preview's, or one of its own)"],
        });
      }
      observe('ORD-OBS-035', [...seen, ...heldBack].join('; '));
    },
  );
});
