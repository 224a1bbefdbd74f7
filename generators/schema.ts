import { contract, type JsonSchema, type OperationId } from '../contract/openapi';
import { readOnlyFields } from '../contract/assigned';
import type { ReadOnlySchemaFields, SchemaFields } from '../contract/openapi-types.generated';
import { operation } from '../contract/operations';

/**
 * What the generators know about openapi.yaml: the fields of each schema, read at run time, and
 * their names as TypeScript types (contract/openapi-types.generated.ts, generated from the same file), so an
 * arbitrary that misses a field, or names one the schema does not have, does not compile.
 */

export type Component = keyof SchemaFields;
export type Field<C extends Component> = SchemaFields[C];

/**
 * Fields a client does not send: the document says the service assigns them, returns them, or shows
 * them only in responses. openapi.yaml marks them readOnly (the only place they are written down);
 * contract/openapi-types.generated.ts carries the same names as types, so the compiler knows them too.
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

/** Every object component a request body of these operations reaches, the body's own first. */
export function requestComponents(operations: OperationId[] = ['createOrder', 'updateOrder']): Component[] {
  return contract()
    .reachableComponents(operations.map(requestComponent))
    .filter((name) => contract().schema(name).properties) as Component[];
}

/** The component an operation's JSON request body refers to (OrderCreate for createOrder). */
export function requestComponent(operationId: OperationId): Component {
  const component = operation(operationId).requestSchema;
  if (!component) throw new Error(`openapi.yaml: the request body of ${operationId} is not a $ref to a component`);
  return component as Component;
}
