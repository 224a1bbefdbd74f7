import fc from 'fast-check';
import { address, type AddressConstraints } from './address';
import { currencyCode } from './codes';
import { emailAddress, phoneNumber } from './contact';
import { amount } from './numbers';
import { schemaRecord, type FieldArbitraries, type Presence } from './record';
import type { Payload } from './schema';
import { code, text } from './text';

export interface BillingConstraints {
  optional?: Presence;
  address?: AddressConstraints;
}

/** Billing (components.schemas.Billing), without the fields the service keeps for itself (schema.ts). */
export function billing(constraints: BillingConstraints = {}): fc.Arbitrary<Payload<'Billing'>> {
  const fields: FieldArbitraries<'Billing'> = {
    name: text(),
    surname: text(),
    company: text(),
    email: emailAddress(),
    phone: phoneNumber(),
    tax_id: code(),
    sub_total: amount(),
    shipping: amount({ max: 10_000 }),
    tax: amount(),
    discount: amount(),
    total: amount(),
    currency: currencyCode(),
    external_id: fc.option(code(), { nil: null }),
    address: address(constraints.address),
  };
  return schemaRecord('Billing', fields, { optional: constraints.optional });
}
