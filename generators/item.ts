import fc from 'fast-check';
import { countryCode, hsCode } from './codes';
import { webAddress } from './contact';
import { amount, quantity, rate } from './numbers';
import { schemaRecord, type FieldArbitraries, type Presence } from './record';
import type { ClientField, Payload } from './schema';
import { code, text } from './text';

/** 2.4: "Fields sent when creating an item: name, quantity, category, price, hs_code, origin." */
export const CREATE_ITEM_FIELDS: ReadonlyArray<ClientField<'Item'>> = ['name', 'quantity', 'category', 'price', 'hs_code', 'origin'];

/** Item dimensions (components.schemas.Dimensions). */
export function dimensions(constraints: { optional?: Presence } = {}): fc.Arbitrary<Payload<'Dimensions'>> {
  const measure = amount({ max: 10_000 });
  return schemaRecord('Dimensions', { length: measure, width: measure, height: measure }, constraints);
}

export interface ItemConstraints {
  /** Fields besides the six a create sends: none, all, or each present or absent. */
  optional?: Presence;
}

/** An item (components.schemas.Item) with the six fields of the create example, and the others as asked. */
export function item(constraints: ItemConstraints = {}): fc.Arbitrary<Payload<'Item'>> {
  const { optional = 'any' } = constraints;
  const fields: FieldArbitraries<'Item'> = {
    sales_channel_item_id: code(),
    sales_channel_product_id: code(),
    sales_channel_product_variant_id: code(),
    external_id: fc.option(code(), { nil: null }),
    name: text({ long: true }),
    quantity: quantity(),
    category: text({ maxLength: 3 }),
    price: amount(),
    hs_code: hsCode(),
    origin: countryCode(),
    sku: code(),
    image: webAddress(),
    weight: amount({ max: 100_000 }),
    dimensions: dimensions({ optional }),
    discount: amount(),
    tax: amount(),
    tax_rate: rate(),
  };
  return schemaRecord('Item', fields, { optional, always: CREATE_ITEM_FIELDS });
}

export interface ItemsConstraints extends ItemConstraints {
  minLength?: number;
  maxLength?: number;
}

/**
 * 1..N items; about half the time two or more; now and then the first one again with its own quantity (the
 * same name and sku), which a server must keep as two items, not merge.
 */
export function items(constraints: ItemsConstraints = {}): fc.Arbitrary<Array<Payload<'Item'>>> {
  const { minLength = 1, maxLength = 4 } = constraints;
  const distinct = fc.array(item(constraints), { minLength, maxLength });
  if (maxLength < 2) return distinct;
  const repeated = fc
    .tuple(fc.array(item(constraints), { minLength: Math.max(1, minLength - 1), maxLength: maxLength - 1 }), quantity())
    .map(([list, again]) => [...list, { ...list[0], quantity: again }]);
  return fc.oneof({ arbitrary: distinct, weight: 4 }, { arbitrary: repeated, weight: 1 });
}
