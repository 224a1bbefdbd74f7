import { orderCoverage, queryCoverage } from '../../generators/coverage';
import { createAcceptedFor, createAnswersWhatWasSent, refusalProvesNothing } from '../../checks/orders';
import { acceptedUnlessRefusable } from '../../checks/invalid-input';
import { check } from '../../harness/findings';
import { test } from '../../harness/fixtures';
import { listAnswerHolds } from '../../harness/listing';
import { verifies } from '../../harness/verifies';

// Runs before the generated tests (its file sorts first): the same cases every run, each one sent once.
const QUERIES = queryCoverage();
const ORDERS = orderCoverage();

test.describe(`coverage phase: ${QUERIES.length + ORDERS.length} deterministic cases from openapi.yaml`, () => {
  test(
    `answers each of ${QUERIES.length} page and limit bounds (and bound ± 1) with a 2xx page in range, or a 4xx or a clamped page out of range`,
    verifies('ORD-LIST-002', 'ORD-LIST-004', 'ORD-LIST-005', 'ORD-LIST-010'),
    async ({ api }) => {
      for (const { input } of QUERIES) check(await listAnswerHolds(api, input, await api.list(input as Record<string, string | number>)));
    },
  );

  test(
    `accepts each of ${ORDERS.length} create bodies (required only, each optional field, each object form, each nullable as null) and returns what it was sent`,
    verifies('ORD-CREATE-001', 'ORD-CREATE-002', 'ORD-CREATE-004'),
    async ({ api }) => {
      for (const { name, input } of ORDERS) {
        const created = await api.create(input);
        // Required-ness and length limits of nested fields are not shown (2.7): refusing exotic values proves nothing.
        if (refusalProvesNothing(input, created)) continue;
        const accepted = acceptedUnlessRefusable(input, createAcceptedFor(input))(created);
        check(accepted && { ...accepted, expected: `${accepted.expected} (coverage case: ${name})` });
        if (!accepted) check(createAnswersWhatWasSent(input, created, `the create response (coverage case: ${name})`));
      }
    },
  );
});
