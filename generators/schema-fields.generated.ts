// Generated from openapi.yaml by `npx tsx generators/schema.ts --write`; do not edit.
// selftest/generators.test.ts fails when openapi.yaml changed and this file was not regenerated.

/** The property names of every object schema of components.schemas. */
export interface SchemaFields {
  Email: 'main' | 'work';
  Phone: 'main' | 'work' | 'cell' | 'code';
  Address: 'street' | 'city' | 'city_code' | 'state' | 'state_code' | 'zip' | 'country' | 'country_code' | 'tax_id' | 'external_id' | 'status';
  ListAddress: 'street' | 'city' | 'state' | 'zip' | 'country_code';
  Customer: 'id' | 'name' | 'company' | 'tax_id' | 'tax_office' | 'email' | 'phone' | 'address';
  Dimensions: 'length' | 'width' | 'height';
  Item: 'id' | 'sales_channel_item_id' | 'sales_channel_product_id' | 'sales_channel_product_variant_id' | 'external_id' | 'name' | 'quantity' | 'category' | 'price' | 'total' | 'hs_code' | 'origin' | 'sku' | 'image' | 'weight' | 'dimensions' | 'status' | 'discount' | 'tax' | 'tax_rate';
  Payment: 'method' | 'status' | 'type';
  Billing: 'id' | 'name' | 'surname' | 'company' | 'email' | 'phone' | 'tax_id' | 'sub_total' | 'shipping' | 'shipping_tax_rate' | 'tax' | 'discount' | 'total' | 'currency' | 'external_id' | 'address' | 'invoice_status';
  SalesChannel: 'id' | 'account_id' | 'order_id' | 'order_number' | 'delivery_option' | 'name' | 'url' | 'logo' | 'mark_as_paid' | 'brand_color' | 'updated_at' | 'use_carrier_tracking_page' | 'use_carrier_shipment_id' | 'use_carrier_shipment_id_locked' | 'is_marketplace';
  Order: 'id' | 'user_id' | 'sales_channel' | 'customer' | 'items' | 'note' | 'language' | 'currency' | 'price' | 'payment' | 'billing' | 'placed_at' | 'status' | 'shipments' | 'activities' | 'created_at' | 'updated_at' | 'deleted_at';
  OrderSummary: 'id' | 'customer' | 'items' | 'currency' | 'price' | 'payment' | 'status' | 'created_at' | 'updated_at';
  ListMeta: 'status' | 'message' | 'total';
  OrderList: 'success' | 'meta' | 'data';
  ErrorDetail: 'field' | 'error';
  ErrorEnvelope: 'success' | 'meta';
  DeleteMessage: 'message';
  DeleteEnvelope: 'success' | 'meta';
  OrderCreate: 'sales_channel' | 'customer' | 'items' | 'note' | 'language' | 'currency' | 'price' | 'payment' | 'billing' | 'placed_at';
  OrderUpdate: 'customer' | 'items' | 'note' | 'currency' | 'price';
  TokenRequest: 'client_id' | 'client_secret' | 'grant_type';
  TokenResponse: 'access_token';
}

/** The readOnly properties of each object schema: what the service sends and a client does not. */
export interface ReadOnlySchemaFields {
  Address: 'status';
  Customer: 'id' | 'tax_office';
  Item: 'id' | 'total' | 'status';
  Payment: 'type';
  Billing: 'id' | 'shipping_tax_rate' | 'invoice_status';
  SalesChannel: 'use_carrier_shipment_id' | 'use_carrier_shipment_id_locked' | 'is_marketplace';
  Order: 'id' | 'user_id' | 'status' | 'created_at' | 'updated_at';
}
