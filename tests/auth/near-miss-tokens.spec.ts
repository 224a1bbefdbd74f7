import { test } from '../../harness/fixtures';
import { orderToRead } from '../../harness/requests/orders';
import { ORDER_OPERATIONS, refusedAndUnchanged } from '../../harness/requests/operations';
import { verifies } from '../../harness/record/verifies';
import { skipTest } from '../../harness/record/skips';
import { NEAR_MISSES } from '../../generators/near-miss-tokens';

/**
 * Section 5.1: only a token obtained from POST /token is valid. Tokens one edit away were never issued:
 * a server that compares a prefix, all but the last character, or without case accepts them.
 */

test.describe('Exact token comparison (5.1)', () => {
  for (const { name: operation, request } of ORDER_OPERATIONS) {
    for (const { what, alter } of NEAR_MISSES) {
      test(`${operation} refuses the valid token with ${what}`, verifies('ORD-AUTH-004', 'ORD-AUTH-006'), async ({ api, settings }) => {
        const altered = alter(settings.token as string);
        if ('skip' in altered) skipTest({ kind: 'precondition', reason: altered.skip });
        const created = await orderToRead(api);
        const exchange = await api.send({ ...request(created.id), authorization: `Bearer ${altered.token}` });
        await refusedAndUnchanged(api, 'ORD-AUTH-004', operation, created.id, exchange);
      });
    }
  }
});
