import fc from 'fast-check';
import { colorCode } from './codes';
import { webAddress } from './contact';
import { schemaRecord, type Presence } from './record';
import type { Payload } from './schema';
import { code, text } from './text';
import { dateTime } from './timestamp';

/** Sales channel (components.schemas.SalesChannel), without the fields shown only in responses. */
export function salesChannel(constraints: { optional?: Presence } = {}): fc.Arbitrary<Payload<'SalesChannel'>> {
  return schemaRecord(
    'SalesChannel',
    {
      id: code({ maxLength: 12 }),
      account_id: code(),
      order_id: code(),
      order_number: code({ maxLength: 12 }),
      delivery_option: text({ maxLength: 3 }),
      name: text(),
      url: webAddress(),
      logo: webAddress(),
      mark_as_paid: fc.boolean(),
      brand_color: colorCode(),
      updated_at: dateTime(),
      use_carrier_tracking_page: fc.boolean(),
    },
    constraints,
  );
}
