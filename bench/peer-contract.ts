import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import type { ClientForms } from '../contract/openapi-types.generated';
import { fullOrder, item } from '../contract/examples';

/**
 * openapi.yaml as the peer tools of the network bench get it, made from the repository's file at bench
 * time (never a copy kept in the tree, so it cannot drift). Every tool gets the same adaptation; the few a
 * tool needs on top are options, each explained where it is asked for (bench/peers.ts).
 */
export interface PeerContractOptions {
  /** The server under test: the one entry of `servers`. */
  baseUrl: string;
  /**
   * The example of the order_id path parameter. The tools send a parameter's example as its value, and no
   * fixed id names an order on a fresh server: each tool swaps in the id its create returned, through
   * this value (a hooks placeholder, a capture template).
   */
  orderIdExample: string;
  /** Write each `2XX` response as this status (for tools that pick the response to check by a numeric code). */
  successStatus?: string;
  /** Parameters by value, in every operation (for tools that neither follow a parameter's $ref nor read path-level parameters). */
  inlineParameters?: boolean;
}

type OpenApi = {
  servers?: unknown;
  paths: Record<string, Record<string, Operation | Parameter[]>>;
  components: { parameters: Record<string, Parameter & { example?: string }> };
};
type Operation = { operationId?: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { example?: unknown }> }; responses?: Record<string, unknown> };
type Parameter = { $ref?: string; name?: string };

const OPENAPI = join(__dirname, '..', 'openapi.yaml');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** The five order operations, in the order a tool should run them so that get, update and delete have an order. */
export const ORDER_OPERATIONS = ['listOrders', 'createOrder', 'getOrder', 'updateOrder', 'deleteOrder'] as const;

/** A create with every documented field filled, and an update of items, note and price (contract/examples.ts). */
export function createExample(): ClientForms['OrderCreate'] {
  return fullOrder();
}
export function updateExample(): ClientForms['OrderUpdate'] {
  return { items: [item({ name: 'Stoneware bowl', quantity: 1, price: 9.5 })], note: 'Ring twice', price: 9.5 };
}

export function peerContract(options: PeerContractOptions): string {
  const doc = YAML.parse(readFileSync(OPENAPI, 'utf8')) as OpenApi;
  doc.servers = [{ url: options.baseUrl }];
  // Every tool is given the bearer token of account A, so POST /token (whose request format the document leaves open, 5.3) is not theirs to test.
  delete doc.paths['/token'];
  doc.components.parameters.OrderId.example = options.orderIdExample;
  // openapi.yaml has no request examples (its bodies come from generators/); the tools send an operation's example as its body.
  operation(doc, 'createOrder').requestBody!.content['application/json'].example = createExample();
  operation(doc, 'updateOrder').requestBody!.content['application/json'].example = updateExample();
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared = (item.parameters ?? []) as Parameter[];
    if (options.inlineParameters) delete item.parameters;
    for (const method of METHODS.filter((m) => m in item)) {
      const op = item[method] as Operation;
      if (options.inlineParameters) {
        op.parameters = [...shared, ...(op.parameters ?? [])].map((parameter) => (parameter.$ref ? resolveParameter(doc, parameter.$ref) : parameter));
      }
      if (options.successStatus && op.responses && '2XX' in op.responses) {
        op.responses = Object.fromEntries(Object.entries(op.responses).map(([status, response]) => [status === '2XX' ? options.successStatus! : status, response]));
      }
      if (!op.operationId) throw new Error(`bench: openapi.yaml ${method.toUpperCase()} ${path} has no operationId`);
    }
  }
  return YAML.stringify(doc);
}

function operation(doc: OpenApi, id: string): Operation {
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) if ((item[method] as Operation | undefined)?.operationId === id) return item[method] as Operation;
  }
  throw new Error(`bench: openapi.yaml has no operation ${id}`);
}

function resolveParameter(doc: OpenApi, ref: string): Parameter {
  const name = ref.replace('#/components/parameters/', '');
  const parameter = doc.components.parameters[name];
  if (!parameter) throw new Error(`bench: openapi.yaml has no parameter ${ref}`);
  return { ...parameter };
}
