import { randomUUID } from 'node:crypto';
import type { ClientForms } from './openapi-types.generated';

/**
 * Hand-picked request bodies for the example-based tests; fast-check's generators/ make the rest.
 * Every call returns a fresh object with a unique reference, so orders of parallel tests never collide.
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
  return {
    sales_channel: {
      id: 'webshop',
      account_id: 'acct-42',
      order_id: ref,
      order_number: `#${ref.slice(-8)}`,
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
      item(),
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
      address: { ...createAddress(), tax_id: 'TR1234567890', external_id: null },
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
