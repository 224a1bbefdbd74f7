import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contract, type JsonSchema, type OperationId } from '../contract/openapi';
import { readOnlyFields } from '../contract/assigned';
import type { ReadOnlySchemaFields, SchemaFields } from './schema-fields.generated';

/**
 * What the generators know about openapi.yaml: the fields of each schema, read at run time, and
 * their names as TypeScript types (schema-fields.generated.ts, generated from the same file), so an
 * arbitrary that misses a field, or names one the schema does not have, does not compile.
 */

export type Component = keyof SchemaFields;
export type Field<C extends Component> = SchemaFields[C];

/**
 * Fields a client does not send: the document says the service assigns them, returns them, or shows
 * them only in responses. openapi.yaml marks them readOnly (the only place they are written down);
 * schema-fields.generated.ts carries the same names as types, so the compiler knows them too.
 */
type Assigned<C extends Component> = C extends keyof ReadOnlySchemaFields ? ReadOnlySchemaFields[C] : never;

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
  const assigned = readOnlyFields(component);
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
  const withProperties = Object.entries(schemas).filter(([, schema]) => 'properties' in schema && schema.properties);
  const lines = withProperties.map(([name, schema]) => {
    const names = Object.keys((schema as { properties: object }).properties);
    return `  ${name}: ${names.map((field) => `'${field}'`).join(' | ')};`;
  });
  const readOnlyLines = withProperties
    .map(([name]) => [name, readOnlyFields(name)] as const)
    .filter(([, names]) => names.length > 0)
    .map(([name, names]) => `  ${name}: ${names.map((field) => `'${field}'`).join(' | ')};`);
  return [
    '// Generated from openapi.yaml by `npx tsx generators/schema.ts --write`; do not edit.',
    '// selftest/generators.test.ts fails when openapi.yaml changed and this file was not regenerated.',
    '',
    '/** The property names of every object schema of components.schemas. */',
    'export interface SchemaFields {',
    ...lines,
    '}',
    '',
    '/** The readOnly properties of each object schema: what the service sends and a client does not. */',
    'export interface ReadOnlySchemaFields {',
    ...readOnlyLines,
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
