import { expect, test } from '@playwright/test';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import { startReferenceServer, type RunningReference } from '../reference/server';

let server: RunningReference;
const [accountA] = DEVELOPMENT_ACCOUNTS;
const auth = { Authorization: `Bearer ${accountA.developmentToken}` };

test.beforeAll(async () => {
  server = await startReferenceServer();
});
test.afterAll(async () => {
  await server.close();
});

test('listens on 127.0.0.1 on a free port', () => {
  expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
});

test('issues tokens from POST /token for configured clients only', async ({ request }) => {
  const issued = await request.post(`${server.url}/token`, { data: { client_id: accountA.client.id, client_secret: accountA.client.secret } });
  expect(issued.status()).toBe(200);
  const { access_token } = (await issued.json()) as { access_token: string };
  expect((await request.get(`${server.url}/orders`, { headers: { Authorization: `Bearer ${access_token}` } })).status()).toBe(200);
  const refused = await request.post(`${server.url}/token`, { data: { client_id: accountA.client.id, client_secret: 'wrong' } });
  expect(refused.status()).toBe(401);
});

test('answers 401 with the error envelope without a valid token', async ({ request }) => {
  for (const headers of [{}, { Authorization: 'Basic abc' }, { Authorization: 'Bearer nope' }] as Array<Record<string, string>>) {
    const response = await request.get(`${server.url}/orders`, { headers });
    expect(response.status()).toBe(401);
    expect(((await response.json()) as { meta: { status: number } }).meta.status).toBe(401);
  }
});

test('answers 413 for a body over 1 MiB', async ({ request }) => {
  const response = await request.post(`${server.url}/orders`, { headers: auth, data: { note: 'x'.repeat(1024 * 1024 + 1) } });
  expect(response.status()).toBe(413);
});

test('names the field at fault in details', async ({ request }) => {
  const response = await request.post(`${server.url}/orders`, { headers: auth, data: { customer: {}, items: [], currency: 'EUR', price: '1' } });
  expect(response.status()).toBe(400);
  expect(((await response.json()) as { meta: { details: unknown } }).meta.details).toEqual([{ field: 'price', error: 'expected type number' }]);
});

test('never answers a 5xx, whatever the body or query', async ({ request }) => {
  const bodies = ['', 'null', '[]', '"text"', '{', '{"customer": null}', '{"items": {}}', '\u0000\u0001', '{"price": 1e400}', JSON.stringify({ customer: { name: 'x' }, items: [{ quantity: 'a' }], currency: 1, price: 1 })];
  const paths = ['/orders', '/orders/%', '/orders/..%2f..', '/orders?limit=1e3', '/orders?page=99999999999999999999', '/orders/x/y', '/token'];
  for (const body of bodies) {
    for (const method of ['POST', 'PUT'] as const) {
      const response = await request.fetch(`${server.url}/orders${method === 'PUT' ? '/some-id' : ''}`, { method, headers: auth, data: body });
      expect(response.status(), `${method} with body ${JSON.stringify(body)}`).toBeLessThan(500);
    }
  }
  for (const path of paths) {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const) {
      const response = await request.fetch(`${server.url}${path}`, { method, headers: auth, data: method === 'GET' ? undefined : '{}' });
      expect(response.status(), `${method} ${path}`).toBeLessThan(500);
    }
  }
});
