import { ASSIGNED_BY_SERVICE, contract, type JsonSchema } from './openapi';

/**
 * The values the service assigns (openapi.yaml properties marked readOnly with x-assigned-by-service),
 * found by walking the full form of an order: read from the contract, never listed by hand.
 */
export interface AssignedField {
  /** Where the value sits in an order: ['id'], ['customer', 'id'], ['items', '*', 'id'] ('*' is every element). */
  path: string[];
  /** The section of the document that says the service assigns it. */
  section: string;
  /** The property's schema (its type and format decide what a client would send). */
  schema: JsonSchema;
  /** The service may give it another value after the create (x-service-may-change): updated_at, status. */
  mayChange: boolean;
}

export function serviceAssignedFields(component = 'Order'): AssignedField[] {
  const found: AssignedField[] = [];
  const visit = (schema: JsonSchema, path: string[], seen: Set<string>) => {
    const ref = typeof schema.$ref === 'string' ? schema.$ref : undefined;
    if (ref && seen.has(ref)) return;
    const resolved = contract().resolve(schema);
    const inner = new Set(ref ? [...seen, ref] : seen);
    const branch = ((resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined)?.find((b) => contract().resolve(b).type === 'object');
    if (branch) return visit(branch, path, inner);
    if (resolved.type === 'array' && resolved.items) return visit(resolved.items as JsonSchema, [...path, '*'], inner);
    for (const [name, property] of Object.entries((resolved.properties ?? {}) as Record<string, JsonSchema>)) {
      const section = property[ASSIGNED_BY_SERVICE];
      if (property.readOnly === true && typeof section === 'string') {
        found.push({ path: [...path, name], section, schema: property, mayChange: property['x-service-may-change'] === true });
      } else visit(property, [...path, name], inner);
    }
  };
  visit(contract().schema(component), [], new Set());
  return found;
}

/** The values of the order itself that the service assigns (4.2): id, user_id, status and the timestamps. */
export function orderAssignedFields(): AssignedField[] {
  return serviceAssignedFields().filter((field) => field.path.length === 1);
}

/** Those an order keeps for life as the create assigned them: id, user_id, created_at (not marked x-service-may-change). */
export function keptAssignedFields(): AssignedField[] {
  return orderAssignedFields().filter((field) => !field.mayChange);
}

/** A timestamp field: compared as an instant, not as text. */
export function isTimestamp(field: AssignedField): boolean {
  return contract().resolve(field.schema).format === 'date-time';
}

/** The names of the readOnly properties of a component: sent by the service, never by a client. */
export function readOnlyFields(component: string): string[] {
  const properties = (contract().schema(component).properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties)
    .filter(([, property]) => property.readOnly === true)
    .map(([name]) => name);
}

/** A path written as a reader would: customer.id, items[].id. */
export function pathName(path: string[]): string {
  return path.join('.').replace(/\.\*/g, '[]');
}

/** A value a client might send for an assigned field: of the field's type and format, and unmistakably the client's. */
export function clientValue(field: AssignedField, tag: string): string {
  const resolved = contract().resolve(field.schema);
  if (resolved.format === 'date-time') return '2001-02-03T04:05:06.000Z';
  if (resolved.format === 'uuid') return tag;
  return `client-chosen-${field.path.filter((p) => p !== '*').join('-')}-${tag.slice(0, 8)}`;
}

/** Every value at a path of a JSON value ('*' fans out over array elements); missing steps give undefined. */
export function valuesAt(value: unknown, path: string[]): unknown[] {
  if (path.length === 0) return [value];
  const [step, ...rest] = path;
  if (step === '*') return Array.isArray(value) ? value.flatMap((element) => valuesAt(element, rest)) : [];
  const inner = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[step] : undefined;
  return valuesAt(inner, rest);
}

/** A copy of a JSON value with the value at a path set (through every array element for '*'), creating objects on the way. */
export function withValueAt(value: unknown, path: string[], set: (previous: unknown) => unknown): unknown {
  if (path.length === 0) return set(value);
  const [step, ...rest] = path;
  if (step === '*') return Array.isArray(value) ? value.map((element) => withValueAt(element, rest, set)) : value;
  const object = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return { ...object, [step]: withValueAt(object[step], rest, set) };
}
