import { randomUUID } from 'node:crypto';
import type { ClientForms } from './openapi-types.generated';

/**
 * Hand-picked request bodies for the example-based tests; fast-check's generators/ make the rest.
 * Every call returns a fresh object with references of its own (ownReferences), so orders of parallel tests never collide.
 * Each is typed as the client form of its schema (generated from openapi.yaml), so a misnamed or
 * mistyped field does not compile.
 */

type Address = ClientForms['Address'];
type Item = ClientForms['Item'];
type OrderCreate = ClientForms['OrderCreate'];

/** What reference() puts in a body: a text no other client's order carries, by which the suite finds its own orders (harness/http/ledger.ts markerOf). */
export const REFERENCE_PATTERN = /oms-conformance-[0-9a-f]{8}\b/;

function reference(): string {
  return `oms-conformance-${randomUUID().slice(0, 8)}`;
}

/**
 * The references of one order, all from one reference(): the order's identifier and number in its sales channel, and
 * the external ids of its items, billing and addresses. A service may hold any of them unique among live orders (a
 * second order with one sales_channel.id and order_id refused with 409, ORD-OBS-032), so no two orders of a run
 * share one; one reference's digits in each, so a body still reads as its example but for them (sameButReferences).
 */
export function ownReferences(ref: string = reference()) {
  return {
    orderId: ref,
    orderNumber: `#${ref.slice(-8)}`,
    item: (index: number) => `${ref}-item-${index + 1}`,
    billing: `${ref}-billing`,
    billingAddress: `${ref}-billing-address`,
    customerAddress: `${ref}-customer-address`,
  };
}

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `body` (a create or an update, any client form) with each reference it carries made its own (ownReferences): the
 * drawn or copied value replaced, a field left out or null (neither names anything) left as it is. Generators and
 * the coverage phase pass every body through it, as the examples write theirs.
 */
export function withOwnReferences<T>(body: T, references = ownReferences()): T {
  if (!isJson(body)) return body;
  const own = structuredClone(body) as Json;
  const replace = (holder: unknown, field: string, value: string) => {
    if (isJson(holder) && typeof holder[field] === 'string') holder[field] = value;
  };
  replace(own.sales_channel, 'order_id', references.orderId);
  replace(own.sales_channel, 'order_number', references.orderNumber);
  if (Array.isArray(own.items)) own.items.forEach((item, index) => replace(item, 'external_id', references.item(index)));
  replace(own.billing, 'external_id', references.billing);
  replace(isJson(own.billing) ? own.billing.address : undefined, 'external_id', references.billingAddress);
  replace(isJson(own.customer) ? own.customer.address : undefined, 'external_id', references.customerAddress);
  return own as T;
}

/**
 * A body as JSON text with its references (the digits of its REFERENCE_PATTERN, wherever they occur) written as one
 * placeholder: two bodies alike but for their own references read the same.
 */
export function sameButReferences(body: unknown): string {
  const text = JSON.stringify(body);
  const digits = REFERENCE_PATTERN.exec(text)?.[0].slice(-8);
  return digits ? text.split(digits).join('#') : text;
}

/** The five-field address of the create example (2.3). */
export function createAddress(): Address {
  return { street: '1 Harbour Road', city: 'Izmir', state: 'Izmir', zip: '35210', country_code: 'TR' };
}

/** The eight-field address of the update example (2.3). */
export function updateAddress(): Address {
  return { ...createAddress(), city_code: '35', state_code: '35', country: 'Turkey', street: '22 Kordon Street' };
}

export function item(overrides: Item = {}): Item {
  return { name: 'Ceramic mug', quantity: 2, category: 'kitchen', price: 12.5, hs_code: '691200', origin: 'TR', ...overrides };
}

/**
 * Only the required fields of 4.2. The nested customer is as filled as fullOrder's: which nested fields a
 * server requires is not shown (ORD-OBS-026), and a correct server accepts fullOrder's customer.
 */
export function minimalOrder(overrides: Partial<OrderCreate> = {}): OrderCreate {
  return {
    customer: { ...fullOrder().customer, name: `Ada ${reference()}` },
    items: [item()],
    currency: 'EUR',
    price: 25,
    ...overrides,
  };
}

/** Every documented create field, nested objects filled (sections 2.2 to 2.6): leaving one out does not compile. */
export function fullOrder(overrides: Partial<OrderCreate> = {}): Required<OrderCreate> {
  const ref = reference();
  const own = ownReferences(ref);
  return {
    sales_channel: {
      id: 'webshop',
      account_id: 'acct-42',
      order_id: own.orderId,
      order_number: own.orderNumber,
      delivery_option: 'standard',
      name: 'Example Shop',
      url: 'https://shop.example',
      logo: 'https://shop.example/logo.png',
      mark_as_paid: true,
      brand_color: '#FF6600',
      updated_at: '2026-11-20T09:30:00Z',
      use_carrier_tracking_page: false,
    },
    customer: {
      name: `Grace Hopper ${ref}`,
      company: 'Navy Ltd',
      tax_id: 'TR1234567890',
      email: { main: 'grace@example.com', work: 'grace@navy.example' },
      phone: { main: '+905551112233', work: '+902321112233', cell: '+905559998877', code: '90' },
      address: createAddress(),
    },
    items: [
      item({ external_id: own.item(0) }),
      // The other item's external id null: the value a nullable field may take, sent as the example's second form.
      item({
        name: 'Linen towel',
        quantity: 3,
        price: 7.25,
        category: 'home',
        hs_code: '630260',
        sku: 'TOWEL-L',
        weight: 0.4,
        dimensions: { length: 50, width: 30, height: 2.5 },
        external_id: null,
      }),
    ],
    note: 'Leave at the door',
    language: 'en',
    currency: 'EUR',
    price: 46.75,
    payment: { method: 'card', status: 'completed' },
    billing: {
      name: 'Grace',
      surname: 'Hopper',
      company: 'Navy Ltd',
      email: 'billing@navy.example',
      phone: '+902321112233',
      tax_id: 'TR1234567890',
      sub_total: 46.75,
      shipping: 5,
      tax: 8.42,
      discount: 0,
      total: 60.17,
      currency: 'EUR',
      external_id: own.billing,
      address: { ...createAddress(), tax_id: 'TR1234567890', external_id: own.billingAddress },
    },
    placed_at: '2026-11-20T09:30:00.000Z',
    ...overrides,
  };
}

/** Text that breaks naive servers: accents, combining marks, emoji, right-to-left, quotes and backslashes. */
export function nonAsciiOrder(): Required<OrderCreate> {
  const base = fullOrder();
  return fullOrder({
    customer: {
      ...base.customer,
      name: 'Zoë Ångström-Łukasiewicz 😀 e\u0301',
      company: 'שלום "quoted" \\ back\\slash',
      // Realistic text in other scripts; an e-mail address outside ASCII is exotic (ORD-OBS-017) and left to generators.
      email: { main: 'zoe@example.com', work: 'zoe.angstrom@example.org' },
      address: { ...createAddress(), street: 'İstiklal Caddesi №5 — 東京', city: 'Üsküdar' },
    },
    items: [item({ name: 'Çay bardağı ☕ 🍵' }), item({ name: 'مرحبا', quantity: 1, price: 3.99 })],
    note: 'Ünïcödé ✓ \u200f עברית',
    price: 28.99,
  });
}
