import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { fullOrder, minimalOrder, nonAsciiOrder } from '../contract/examples';
import { apart, asUpdate, createEdgeBodies, orderCoverage, type EdgeBody } from '../generators/coverage';
import { anyOrder } from '../generators/order';
import { anyOrderUpdate } from '../generators/update';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import { startReferenceServer } from '../reference/server';
import { behavioursFromEnvironment } from './reference/behaviours';

/**
 * Issue 38 (3): a service may refuse a second live order with one sales-channel reference (ORD-OBS-032), or hold an
 * external id unique; every order the suite makes carries references of its own, so a correct service of that kind
 * refuses none of them.
 */

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The references a body carries, each named by where it sits: a service may hold any of them unique. */
function referencesOf(body: unknown): string[] {
  if (!isJson(body)) return [];
  const at = (holder: unknown, field: string, where: string) => (isJson(holder) && typeof holder[field] === 'string' ? [`${where} ${String(holder[field])}`] : []);
  const channel = body.sales_channel;
  const billing = body.billing;
  return [
    ...(isJson(channel) && typeof channel.order_id === 'string' ? [`sales_channel ${String(channel.id)} / ${channel.order_id}`] : []),
    ...at(channel, 'order_number', 'order_number'),
    ...(Array.isArray(body.items) ? body.items.flatMap((item) => at(item, 'external_id', 'items[].external_id')) : []),
    ...at(billing, 'external_id', 'billing.external_id'),
    ...at(isJson(billing) ? billing.address : undefined, 'external_id', 'billing.address.external_id'),
    ...at(isJson(body.customer) ? body.customer.address : undefined, 'external_id', 'customer.address.external_id'),
  ];
}

/** Each reference that more than one place of `bodies` carries, with how many carry it. */
function repeated(bodies: unknown[]): string[] {
  const counts = new Map<string, number>();
  for (const reference of bodies.flatMap(referencesOf)) counts.set(reference, (counts.get(reference) ?? 0) + 1);
  return [...counts].filter(([, count]) => count > 1).map(([reference, count]) => `${reference} (${count} times)`);
}

/** An edge body and every part it is sent again as when refused, to the end (as the coverage phase sends them). */
const withParts = (body: EdgeBody): EdgeBody[] => [body, ...apart(body).flatMap(withParts)];

test('the bodies of one run carry pairwise distinct sales-channel references and external ids: examples, coverage cases, edge bodies and their parts, generated orders and updates', () => {
  const examples = [...Array.from({ length: 5 }, () => [minimalOrder(), fullOrder(), nonAsciiOrder()]).flat()];
  const coverage = orderCoverage().map(({ input }) => input);
  const edges = createEdgeBodies(() => minimalOrder() as Json).flatMap(withParts);
  const fullEdges = createEdgeBodies(() => fullOrder() as Json).flatMap(withParts);
  const updates = [...edges, ...fullEdges].map((body) => asUpdate(body).denoted);
  // Two tests drawing with one seed draw alike: their orders must still differ in their references.
  const generated = [1, 2].flatMap(() => [...fc.sample(anyOrder(), { seed: 7, numRuns: 100 }), ...fc.sample(anyOrderUpdate(), { seed: 7, numRuns: 100 })]);
  const bodies = [...examples, ...coverage, ...[...edges, ...fullEdges].map((body) => body.denoted), ...generated];
  // The test means something only if the bodies carry each kind of reference, many times over.
  const kinds = new Set(bodies.flatMap(referencesOf).map((reference) => reference.split(' ')[0]));
  expect([...kinds].sort()).toEqual(['billing.address.external_id', 'billing.external_id', 'customer.address.external_id', 'items[].external_id', 'order_number', 'sales_channel'].sort());
  expect(bodies.flatMap(referencesOf).length).toBeGreaterThan(500);
  expect(repeated(bodies), 'references that two bodies (or two places of one) carry').toEqual([]);
  // An update resends its order's fields; it too carries references of its own.
  expect(repeated([...bodies, ...updates]), 'references an update shares with a create').toEqual([]);
});

test('the reference knob (channel-reference=unique-409) still refuses a real duplicate with 409, and frees the reference once the order is deleted', async ({ request }) => {
  const server = await startReferenceServer({ behaviours: behavioursFromEnvironment({ OMS_KNOBS: 'channel-reference=unique-409' }) });
  try {
    const headers = { Authorization: `Bearer ${DEVELOPMENT_ACCOUNTS[0].developmentToken}` };
    const first = await request.post(`${server.url}/orders`, { headers, data: fullOrder() });
    expect(first.status()).toBe(201);
    const { id, sales_channel } = (await first.json()) as { id: string; sales_channel: Json };
    const again = fullOrder({ sales_channel: { ...fullOrder().sales_channel, id: String(sales_channel.id), order_id: String(sales_channel.order_id) } });
    const refused = await request.post(`${server.url}/orders`, { headers, data: again });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { meta: { status: number } }).meta.status).toBe(409);
    // Another order of its own is taken beside it; the same reference again once the first order is deleted.
    expect((await request.post(`${server.url}/orders`, { headers, data: fullOrder() })).status()).toBe(201);
    expect((await request.delete(`${server.url}/orders/${id}`, { headers })).status()).toBeLessThan(300);
    expect((await request.post(`${server.url}/orders`, { headers, data: again })).status()).toBe(201);
  } finally {
    await server.close();
  }
});
