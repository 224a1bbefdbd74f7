import fc from 'fast-check';
import { withOwnReferences } from '../contract/examples';
import { billing } from './billing';
import { currencyCode, languageTag } from './codes';
import { customer } from './customer';
import { items } from './item';
import { amount } from './numbers';
import { payment } from './payment';
import { schemaRecord, type FieldArbitraries, type Presence } from './record';
import { salesChannel } from './sales-channel';
import type { Payload } from './schema';
import { text } from './text';
import { dateTime } from './timestamp';

export type OrderFields = 'required' | 'all' | 'any';

export interface OrderConstraints {
  /**
   * 'required': customer, items, currency and price only, nested objects as small as the examples;
   * 'all': every field a client sends, at every depth; 'any': each optional field present or absent.
   */
  fields?: OrderFields;
  minItems?: number;
  maxItems?: number;
}

/** The field arbitraries of a create (components.schemas.OrderCreate) for a presence of optional fields. */
export function orderFields(optional: Presence, constraints: Omit<OrderConstraints, 'fields'> = {}): FieldArbitraries<'OrderCreate'> {
  const address = { form: optional === 'all' ? 'full' : optional === 'none' ? 'create' : 'any' } as const;
  return {
    sales_channel: salesChannel({ optional }),
    customer: customer({ optional, address }),
    items: items({ optional, minLength: constraints.minItems, maxLength: constraints.maxItems }),
    note: text({ maxLength: 10, long: true }),
    language: languageTag(),
    currency: currencyCode(),
    price: amount(),
    payment: payment({ optional }),
    billing: billing({ optional, address }),
    placed_at: dateTime(),
  };
}

const PRESENCE: Record<OrderFields, Presence> = { required: 'none', all: 'all', any: 'any' };

/**
 * A valid create request body (components.schemas.OrderCreate). The references it carries (sales_channel.order_id
 * and order_number, external ids) are its own, made afresh for each body drawn or shrunk (withOwnReferences): a
 * service may refuse a second live order with one (ORD-OBS-032), and two tests drawing with one seed draw alike.
 */
export function order(constraints: OrderConstraints = {}): fc.Arbitrary<Payload<'OrderCreate'>> {
  const { fields = 'any', ...rest } = constraints;
  const optional = PRESENCE[fields];
  return schemaRecord('OrderCreate', orderFields(optional, rest), { optional }).map((body) => withOwnReferences(body));
}

/** Any valid create: required fields only, everything, or a mix, in proportion 1:1:2. */
export function anyOrder(constraints: Omit<OrderConstraints, 'fields'> = {}): fc.Arbitrary<Payload<'OrderCreate'>> {
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: order({ ...constraints, fields: 'required' }), weight: 1 },
    { arbitrary: order({ ...constraints, fields: 'all' }), weight: 1 },
    { arbitrary: order({ ...constraints, fields: 'any' }), weight: 2 },
  );
}
