import fc from 'fast-check';
import { schemaRecord, type Presence } from './record';
import type { Payload } from './schema';

/**
 * Payment (components.schemas.Payment). Allowed values are not shown (2.5): the generated ones are
 * those the document and its examples use, so a server with a closed list still takes them.
 */
export function payment(constraints: { optional?: Presence } = {}): fc.Arbitrary<Payload<'Payment'>> {
  return schemaRecord(
    'Payment',
    { method: fc.constantFrom('card', 'bank_transfer', 'cash_on_delivery'), status: fc.constantFrom('completed', 'pending') },
    constraints,
  );
}
