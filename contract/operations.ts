import { contract, type OperationId } from './openapi';

/**
 * The operations of the interface, read from openapi.yaml: the one table the suite takes an operation's
 * method, path, request schema and response schemas from. (The reference server routes on its own, on
 * purpose: it is a second implementation, not a client of this table.)
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Operation {
  id: OperationId;
  method: Method;
  /** The path template as openapi.yaml and the document write it: /orders/{order_id}. */
  path: string;
  /** How tests and messages name it: "PUT /orders/{order_id}". */
  name: string;
  /** The names of its path parameters, in order: ['order_id']. */
  parameters: string[];
  /** Its tags in openapi.yaml: 'orders' for the five operations of section 4, 'auth' for POST /token. */
  tags: string[];
  /** The component of its JSON request body (OrderCreate), if it takes one. */
  requestSchema?: string;
  /** By response key of openapi.yaml ('2XX', '4XX'), the component of the JSON body; a key without one is left out. */
  responseSchemas: Record<string, string>;
}

/** The start of a request to an operation: what harness/http/client.ts's RequestSpec needs besides a body or query. */
export interface RequestLine {
  operationId: OperationId;
  method: Method;
  /** The path below the base URL, each path parameter one percent-encoded segment. */
  path: string;
}

const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'DELETE'];
const PARAMETER = /\{[^}]+\}/g;

let table: Operation[] | undefined;

/** Every operation of openapi.yaml, in the order it lists them. */
export function operations(): Operation[] {
  table ??= contract()
    .operations()
    .map(({ path, method, operation }) => {
      const upper = method.toUpperCase() as Method;
      if (!METHODS.includes(upper)) throw new Error(`openapi.yaml: ${operation.operationId} uses ${upper}, which the suite's client does not send`);
      const requestBody = operation.requestBody as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined;
      const responseSchemas: Record<string, string> = {};
      for (const [key, response] of Object.entries(operation.responses ?? {})) {
        const name = componentOf(contract().responseBody(response));
        if (name) responseSchemas[key] = name;
      }
      return {
        id: operation.operationId as OperationId,
        method: upper,
        path,
        name: `${upper} ${path}`,
        parameters: (path.match(PARAMETER) ?? []).map((parameter) => parameter.slice(1, -1)),
        tags: operation.tags ?? [],
        requestSchema: componentOf(requestBody?.content?.['application/json']?.schema),
        responseSchemas,
      };
    });
  return table;
}

export function operation(id: OperationId): Operation {
  const found = operations().find((candidate) => candidate.id === id);
  if (!found) throw new Error(`openapi.yaml has no operation ${id}`);
  return found;
}

/** A request to an operation: its method, and its path with each parameter, in order, put in as one percent-encoded segment. */
export function requestLine(id: OperationId, ...segments: string[]): RequestLine {
  const { method } = operation(id);
  return { operationId: id, method, path: fill(id, segments.map(encodeURIComponent)) };
}

/** A request to an operation as a counterexample reads it: "PUT /orders/#2", the parameters shown as given, not encoded. */
export function requestLabel(id: OperationId, ...labels: string[]): string {
  return `${operation(id).method} ${fill(id, labels)}`;
}

/** The operation a request is, by its method and path (a query after "?" is ignored); undefined for none of the interface. */
export function operationOf(method: string, path: string): OperationId | undefined {
  const bare = path.split('?')[0];
  return operations().find((candidate) => candidate.method === method.toUpperCase() && templateMatcher(candidate.path).test(bare))?.id;
}

/** The methods a client sends: those of the interface, and PATCH, which it defines on no path. */
const CLIENT_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** A method a client may send to a path of the order operations that the interface does not define there. */
export interface UndefinedMethod {
  method: Exclude<(typeof CLIENT_METHODS)[number], 'GET'>;
  /** The path template: /orders or /orders/{order_id}. */
  path: string;
  /** The methods the interface defines on the path, in openapi.yaml's order: what an Allow header names. */
  defined: Method[];
  /** The operation of the path's GET (listOrders, getOrder): what a check counts its answer for. */
  operationId: OperationId;
}

/** For each path of the order operations (tag "orders"), each method of CLIENT_METHODS it does not have: PATCH and POST /orders/{order_id}, PUT, PATCH and DELETE /orders. */
export function undefinedMethods(): UndefinedMethod[] {
  const orderOperations = operations().filter((candidate) => candidate.tags.includes('orders'));
  const paths = [...new Set(orderOperations.map(({ path }) => path))];
  return paths.flatMap((path) => {
    const onPath = orderOperations.filter((candidate) => candidate.path === path);
    const defined = onPath.map(({ method }) => method);
    const read = onPath.find(({ method }) => method === 'GET');
    if (!read) throw new Error(`openapi.yaml: ${path} has no GET, which a check of its other methods' answers counts them for`);
    return CLIENT_METHODS.filter((method): method is UndefinedMethod['method'] => !(defined as string[]).includes(method)).map((method) => ({ method, path, defined, operationId: read.id }));
  });
}

function fill(id: OperationId, values: string[]): string {
  const { path, name, parameters } = operation(id);
  if (parameters.length !== values.length) throw new Error(`${name} takes ${parameters.length} path parameter(s), given ${values.length}`);
  let index = 0;
  return path.replace(PARAMETER, () => values[index++]);
}

function templateMatcher(template: string): RegExp {
  const pattern = template
    .split(PARAMETER)
    .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${pattern}$`);
}

/** The component a schema refers to ({ $ref: '#/components/schemas/OrderCreate' } is OrderCreate). */
function componentOf(schema: { $ref?: unknown } | undefined): string | undefined {
  return typeof schema?.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;
}
