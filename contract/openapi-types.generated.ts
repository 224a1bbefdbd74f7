// Generated from openapi.yaml by `npx tsx contract/openapi-types.ts --write`; do not edit.
// selftest/generators.test.ts fails when openapi.yaml changed and this file was not written again.

/** The operationId of every operation of openapi.yaml. */
export type OperationId = 'listOrders' | 'createOrder' | 'getOrder' | 'updateOrder' | 'deleteOrder' | 'issueToken';

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

/** What a client sends of each schema a request body reaches: its properties but the readOnly ones, typed as the schema types them. */
export interface ClientForms {
  OrderCreate: { sales_channel?: ClientForms['SalesChannel']; customer: ClientForms['Customer']; items: Array<ClientForms['Item']>; note?: string; language?: string; currency: string; price: number; payment?: ClientForms['Payment']; billing?: ClientForms['Billing']; placed_at?: string };
  SalesChannel: { id?: string; account_id?: string; order_id?: string; order_number?: string; delivery_option?: string; name?: string; url?: string; logo?: string; mark_as_paid?: boolean; brand_color?: string; updated_at?: string; use_carrier_tracking_page?: boolean };
  Customer: { name?: string; company?: string; tax_id?: string; email?: ClientForms['Email']; phone?: ClientForms['Phone']; address?: ClientForms['Address'] };
  Email: { main?: string; work?: string };
  Phone: { main?: string; work?: string; cell?: string; code?: string };
  Address: { street?: string; city?: string; city_code?: string; state?: string; state_code?: string; zip?: string; country?: string; country_code?: string; tax_id?: string; external_id?: string | null };
  Item: { sales_channel_item_id?: string; sales_channel_product_id?: string; sales_channel_product_variant_id?: string; external_id?: string | null; name?: string; quantity?: number; category?: string; price?: number; hs_code?: string; origin?: string; sku?: string; image?: string; weight?: number; dimensions?: ClientForms['Dimensions']; discount?: number; tax?: number; tax_rate?: number };
  Dimensions: { length?: number; width?: number; height?: number };
  Payment: { method?: string; status?: string };
  Billing: { name?: string; surname?: string; company?: string; email?: string; phone?: string; tax_id?: string; sub_total?: number; shipping?: number; tax?: number; discount?: number; total?: number; currency?: string; external_id?: string | null; address?: ClientForms['Address'] };
  OrderUpdate: { customer?: ClientForms['Customer']; items?: Array<ClientForms['Item']>; note?: string; currency?: string; price?: number };
  TokenRequest: { client_id?: string; client_secret?: string; grant_type?: string };
}
