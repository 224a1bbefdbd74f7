import { contract, type OperationId } from '../../contract/openapi';
import { ApiError, type ApiReply, type ApiRequest, type ErrorDetail } from '../http';
import { declaredFields, project } from '../../contract/projection';
import type { StoredOrder } from '../store';
import type { Services } from '../services';

type Json = Record<string, unknown>;

/** GET /orders (4.1): page >= 1 default 1, 1 <= limit <= 100 default 10 (section 8). */
export function listOrders(request: ApiRequest, services: Services, accountId: string): ApiReply {
  const page = integerParameter(request.query, 'page');
  const limit = integerParameter(request.query, 'limit');
  const { orders, total } = services.store.page(accountId, (page - 1) * limit, limit);
  const summary = contract().schema('OrderSummary');
  return {
    status: 200,
    body: {
      success: true,
      meta: { status: 200, message: 'Orders listed', total },
      data: orders.map((order) => project(order, summary)),
    },
  };
}

/** POST /orders (4.2): stores what was sent; assigns id, user_id, status and the timestamps. */
export function createOrder(request: ApiRequest, services: Services, accountId: string): ApiReply {
  const order = newOrder(validBody(request, 'createOrder'), services, accountId, services.newId());
  services.store.insert(order);
  return { status: 201, body: order };
}

/** A new order from a create body: the fields it declares, and everything the service assigns (4.2). */
export function newOrder(body: Json, services: Services, accountId: string, id: string): StoredOrder {
  const now = services.now();
  return {
    ...pick(body, declaredFields(contract().schema('OrderCreate'))),
    id,
    user_id: accountId,
    ...(body.customer === undefined ? {} : { customer: withCustomerId(body.customer as Json, services) }),
    ...(Array.isArray(body.items) ? { items: (body.items as Json[]).map((item) => withItemFields(item, services)) } : {}),
    ...(body.payment === undefined ? {} : { payment: withPaymentType(body.payment as Json) }),
    status: 'created',
    shipments: [],
    activities: [],
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
}

/** GET /orders/{order_id} (4.3). */
export function getOrder(services: Services, accountId: string, orderId: string): ApiReply {
  return { status: 200, body: existing(services, accountId, orderId) };
}

/** PUT /orders/{order_id} (4.4): fields sent replace the stored ones; omitted fields are kept. */
export function updateOrder(request: ApiRequest, services: Services, accountId: string, orderId: string): ApiReply {
  const body = validBody(request, 'updateOrder');
  const stored = existing(services, accountId, orderId);
  const changes = pick(body, declaredFields(contract().schema('OrderUpdate')));
  if (changes.customer) changes.customer = withCustomerId(changes.customer as Json, services, stored.customer as Json);
  if (changes.items) changes.items = (changes.items as Json[]).map((item) => withItemFields(item, services));
  const updated: StoredOrder = { ...stored, ...changes, updated_at: services.later(stored.updated_at) };
  services.store.replace(updated);
  return { status: 200, body: updated };
}

/** DELETE /orders/{order_id} (4.5): a hard delete answered with the { message } shape. */
export function deleteOrder(services: Services, accountId: string, orderId: string): ApiReply {
  existing(services, accountId, orderId);
  services.store.remove(accountId, orderId);
  return { status: 200, body: { message: 'Order deleted' } };
}

function existing(services: Services, accountId: string, orderId: string): StoredOrder {
  const order = services.store.get(accountId, orderId);
  // Another account's order is reported exactly like a missing one, so ids leak nothing.
  if (!order) throw new ApiError(404, 'not_found', `No order with id ${orderId}`);
  return order;
}

function validBody(request: ApiRequest, operationId: OperationId): Json {
  let body: unknown;
  try {
    body = JSON.parse(request.bodyText);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The request body is not valid JSON', [
      { field: '(body)', error: 'not valid JSON' },
    ]);
  }
  const problems = contract().request(operationId).problems(body);
  if (problems.length) {
    const details: ErrorDetail[] = problems.map((p) => ({
      field: p.pointer.slice(1).replace(/\//g, '.') || '(body)',
      error: `expected ${p.expected}`,
    }));
    throw new ApiError(400, 'validation_failed', 'The request body is invalid', details);
  }
  return body as Json;
}

function integerParameter(query: URLSearchParams, name: 'page' | 'limit'): number {
  const schema = contract().queryParameter('listOrders', name) as { default: number; minimum: number; maximum?: number };
  const raw = query.get(name);
  if (raw === null) return schema.default;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  const bound = schema.maximum === undefined ? `>= ${schema.minimum}` : `from ${schema.minimum} to ${schema.maximum}`;
  if (!Number.isSafeInteger(value) || value < schema.minimum || (schema.maximum !== undefined && value > schema.maximum)) {
    throw new ApiError(400, 'invalid_parameter', `${name} must be an integer ${bound}`, [
      { field: name, error: `must be an integer ${bound}, got ${JSON.stringify(raw)}` },
    ]);
  }
  return value;
}

function pick(body: Json, fields: string[]): Json {
  return Object.fromEntries(fields.filter((field) => field in body).map((field) => [field, body[field]]));
}

/** Section 2.3: the service assigns customer.id, and returns it and tax_office in the full form ("" where it knows no tax office). */
function withCustomerId(customer: Json, services: Services, previous?: Json): Json {
  return { tax_office: previous?.tax_office ?? '', ...customer, id: (previous?.id as string | undefined) ?? services.newId() };
}

/** Section 2.5: payment.type is "returned in the full form"; its values are not shown, so this service calls every payment a sale. */
function withPaymentType(payment: Json): Json {
  return { type: 'sale', ...payment };
}

/**
 * Section 2.4: the service assigns the item id and returns total (quantity times unit price). A total no
 * number holds (1e308 times 2) is refused: written as JSON it would be null, a total that is not a number.
 */
function withItemFields(item: Json, services: Services): Json {
  // An item sent without a quantity or a price holds none of it: its total counts it as 0, and is still returned.
  const amount = (value: unknown) => (value === undefined ? 0 : value);
  const [quantity, price] = [amount(item.quantity), amount(item.price)];
  const total = typeof quantity === 'number' && typeof price === 'number' ? Number((quantity * price).toFixed(10)) : undefined;
  if (total !== undefined && !Number.isFinite(total)) {
    throw new ApiError(400, 'validation_failed', 'The request body is invalid', [{ field: 'items.total', error: 'quantity times price is beyond any number' }]);
  }
  return { status: 'active', ...item, id: services.newId(), ...(total === undefined ? {} : { total }) };
}
