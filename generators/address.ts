import fc from 'fast-check';
import { countryCode } from './codes';
import { schemaRecord, type FieldArbitraries } from './record';
import { clientFields, type ClientField, type Payload } from './schema';
import { code, text } from './text';

/** The forms of an address the document shows (2.3). */
export type AddressForm = 'create' | 'update' | 'full';

/** The list form and the create example carry the same fields: schema ListAddress. */
const CREATE_FORM: ReadonlyArray<ClientField<'Address'>> = clientFields('ListAddress');

/** Forms by the fields they carry; "full" is every field a client sends. */
export const ADDRESS_FORMS: Record<AddressForm, ReadonlyArray<ClientField<'Address'>>> = {
  create: CREATE_FORM,
  // 2.3: "in the update request example it also carries city_code, state_code, country".
  update: [...CREATE_FORM, 'city_code', 'state_code', 'country'],
  full: clientFields('Address'),
};

const ADDRESS_FIELDS: FieldArbitraries<'Address'> = {
  street: text({ long: true }),
  city: text({ maxLength: 3 }),
  city_code: code({ maxLength: 6 }),
  state: text({ maxLength: 3 }),
  state_code: code({ maxLength: 6 }),
  zip: code({ maxLength: 10 }),
  country: text({ maxLength: 3 }),
  country_code: countryCode(),
  tax_id: code(),
  external_id: fc.option(code(), { nil: null }),
};

export interface AddressConstraints {
  /** Which form; 'any' picks one of the three. */
  form?: AddressForm | 'any';
}

/** An address (components.schemas.Address) in one of its documented forms, every field of the form present. */
export function address(constraints: AddressConstraints = {}): fc.Arbitrary<Payload<'Address'>> {
  const { form = 'any' } = constraints;
  if (form === 'any') return fc.oneof(address({ form: 'create' }), address({ form: 'update' }), address({ form: 'full' }));
  return schemaRecord('Address', ADDRESS_FIELDS, { only: ADDRESS_FORMS[form], optional: 'all' });
}
