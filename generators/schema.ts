import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contract, type JsonSchema, type OperationId } from '../contract/openapi';
import type { SchemaFields } from './schema-fields.generated';

/**
 * What the generators know about openapi.yaml: the fields of each schema, read at run time, and
 * their names as TypeScript types (schema-fields.generated.ts, generated from the same file), so an
 * arbitrary that misses a field, or names one the schema does not have, does not compile.
 */

export type Component = keyof SchemaFields;
export type Field<C extends Component> = SchemaFields[C];

/**
 * Fields of the request schemas that a client does not send: the document says the service assigns
 * them, returns them, or shows them only in responses. openapi.yaml does not mark them (no readOnly),
 * so they are named here, and checked against the schema by the compiler.
 */
export const SERVICE_ASSIGNED = {
  // 2.3: customer id "assigned by the service"; tax_office "returned in the full form".
  Customer: ['id', 'tax_office'],
  // 2.4: item id "assigned by the service", total "returned"; status is the item's state (3).
  Item: ['id', 'total', 'status'],
  // 2.3: no request example carries an address status.
  Address: ['status'],
  // 2.5: type is "returned in the full form".
  Payment: ['type'],
  // 2.6: the billing id and invoice state are the service's; shipping_tax_rate "appears in some responses".
  Billing: ['id', 'invoice_status', 'shipping_tax_rate'],
  // 2.2: these three "appear in some responses".
  SalesChannel: ['use_carrier_shipment_id', 'use_carrier_shipment_id_locked', 'is_marketplace'],
} as const satisfies { readonly [C in Component]?: readonly Field<C>[] };

type Assigned<C extends Component> = C extends keyof typeof SERVICE_ASSIGNED ? (typeof SERVICE_ASSIGNED)[C][number] : never;

/** A field of a schema that a client sends. */
export type ClientField<C extends Component> = Exclude<Field<C>, Assigned<C>>;

/** A generated request object of a schema: only its client fields, each present or absent. */
export type Payload<C extends Component> = { [K in ClientField<C>]?: unknown };

/** The properties of components.schemas.<component>, with $refs left in place. */
export function properties(component: Component): Record<string, JsonSchema> {
  return (contract().schema(component).properties ?? {}) as Record<string, JsonSchema>;
}

export function requiredFields<C extends Component>(component: C): Array<Field<C>> {
  return (contract().schema(component).required ?? []) as Array<Field<C>>;
}

/** The fields a client sends, in the order openapi.yaml lists them. */
export function clientFields<C extends Component>(component: C): Array<ClientField<C>> {
  const assigned: readonly string[] = (SERVICE_ASSIGNED as Partial<Record<Component, readonly string[]>>)[component] ?? [];
  return Object.keys(properties(component)).filter((name) => !assigned.includes(name)) as Array<ClientField<C>>;
}

/** The component a property refers to (directly, or as the element of an array), if any. */
export function componentOf(schema: JsonSchema): Component | undefined {
  const target = (schema.type === 'array' ? (schema.items as JsonSchema | undefined) : schema) ?? {};
  const ref = target.$ref;
  return typeof ref === 'string' ? (ref.slice('#/$defs/'.length) as Component) : undefined;
}

/** Every component a request body of these operations reaches, the body's own first. */
export function requestComponents(operations: OperationId[] = ['createOrder', 'updateOrder']): Component[] {
  const found: Component[] = [];
  const visit = (component: Component) => {
    if (found.includes(component)) return;
    found.push(component);
    for (const property of Object.values(properties(component))) {
      const inner = componentOf(property);
      if (inner && contract().schema(inner).properties) visit(inner);
    }
  };
  for (const operation of operations) visit(requestComponent(operation));
  return found;
}

/** The component an operation's JSON request body refers to (OrderCreate for createOrder). */
export function requestComponent(operationId: OperationId): Component {
  const body = contract().operation(operationId).operation.requestBody as { content: Record<string, { schema: { $ref?: string } }> };
  const ref = body.content['application/json'].schema.$ref;
  if (!ref) throw new Error(`openapi.yaml: the request body of ${operationId} is not a $ref to a component`);
  return ref.split('/').pop() as Component;
}

export const GENERATED_FIELDS_PATH = join(__dirname, 'schema-fields.generated.ts');

/** The text of schema-fields.generated.ts for the current openapi.yaml. */
export function renderSchemaFields(): string {
  const schemas = contract().document.components?.schemas ?? {};
  const lines = Object.entries(schemas)
    .filter(([, schema]) => 'properties' in schema && schema.properties)
    .map(([name, schema]) => {
      const names = Object.keys((schema as { properties: object }).properties);
      return `  ${name}: ${names.map((field) => `'${field}'`).join(' | ')};`;
    });
  return [
    '// Generated from openapi.yaml by `npx tsx generators/schema.ts --write`; do not edit.',
    '// selftest/generators.test.ts fails when openapi.yaml changed and this file was not regenerated.',
    '',
    '/** The property names of every object schema of components.schemas. */',
    'export interface SchemaFields {',
    ...lines,
    '}',
    '',
  ].join('\n');
}

export function generatedFieldsAreCurrent(): boolean {
  return readFileSync(GENERATED_FIELDS_PATH, 'utf8') === renderSchemaFields();
}

if (require.main === module) {
  if (process.argv.includes('--write')) {
    writeFileSync(GENERATED_FIELDS_PATH, renderSchemaFields());
    console.log(`wrote ${GENERATED_FIELDS_PATH}`);
  } else {
    process.stdout.write(renderSchemaFields());
  }
}
