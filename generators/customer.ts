import fc from 'fast-check';
import { address, type AddressConstraints } from './address';
import { callingCode, emailAddress, phoneNumber } from './contact';
import { schemaRecord, type FieldArbitraries, type Presence } from './record';
import type { Payload } from './schema';
import { code, text } from './text';

/** Customer e-mail (components.schemas.Email). */
export function email(constraints: { optional?: Presence } = {}): fc.Arbitrary<Payload<'Email'>> {
  return schemaRecord('Email', { main: emailAddress(), work: emailAddress() }, constraints);
}

/** Customer phone (components.schemas.Phone). */
export function phone(constraints: { optional?: Presence } = {}): fc.Arbitrary<Payload<'Phone'>> {
  return schemaRecord('Phone', { main: phoneNumber(), work: phoneNumber(), cell: phoneNumber(), code: callingCode() }, constraints);
}

export interface CustomerConstraints {
  /** Fields besides the name: none, all, or each present or absent. */
  optional?: Presence;
  address?: AddressConstraints;
}

/** A customer (components.schemas.Customer); the name is always sent, as in every example of the document. */
export function customer(constraints: CustomerConstraints = {}): fc.Arbitrary<Payload<'Customer'>> {
  const { optional = 'any' } = constraints;
  const fields: FieldArbitraries<'Customer'> = {
    name: text({ long: true }),
    company: text({ long: true }),
    tax_id: code(),
    email: email({ optional }),
    phone: phone({ optional }),
    address: address(constraints.address),
  };
  return schemaRecord('Customer', fields, { optional, always: ['name'] });
}
