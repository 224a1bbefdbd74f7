import fc from 'fast-check';
import { withOwnReferences } from '../contract/examples';
import { orderFields } from './order';
import { schemaRecord, sharedFields } from './record';
import { clientFields, type Payload } from './schema';

export interface OrderUpdateConstraints {
  /** 'one': a single field; 'all': every field; 'any': a non-empty subset (the default). */
  fields?: 'one' | 'all' | 'any';
}

/**
 * A valid update request body (components.schemas.OrderUpdate): its fields are generated as a
 * create's are, the references it carries its own (as order()'s). Items are never empty: the effect of an
 * empty items array is not shown (4.4).
 */
export function orderUpdate(constraints: OrderUpdateConstraints = {}): fc.Arbitrary<Payload<'OrderUpdate'>> {
  return updateFields(constraints).map((body) => withOwnReferences(body));
}

function updateFields(constraints: OrderUpdateConstraints): fc.Arbitrary<Payload<'OrderUpdate'>> {
  const { fields = 'any' } = constraints;
  const shared = sharedFields('OrderUpdate', orderFields(fields === 'all' ? 'all' : 'any'));
  if (fields === 'all') return schemaRecord('OrderUpdate', shared, { optional: 'all' });
  if (fields === 'one') {
    return fc.oneof(...clientFields('OrderUpdate').map((name) => schemaRecord('OrderUpdate', shared, { only: [name], optional: 'all' })));
  }
  return schemaRecord('OrderUpdate', shared, { optional: 'any' }).filter((body) => Object.keys(body).length > 0);
}

/** Any valid update: one field alone, every field, or a subset. */
export function anyOrderUpdate(): fc.Arbitrary<Payload<'OrderUpdate'>> {
  return fc.oneof({ withCrossShrink: true }, orderUpdate({ fields: 'one' }), orderUpdate({ fields: 'all' }), orderUpdate({ fields: 'any' }));
}
