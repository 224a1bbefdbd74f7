import { ASSIGNED_BY_SERVICE, contract, RETURNED_IN_FULL_FORM, type JsonSchema } from './openapi';

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

/** A property of a schema and where it sits: ['customer', 'id'], ['items', '*', 'total'] ('*' is every element). */
export interface PropertyAt {
  path: string[];
  /** As openapi.yaml writes it (a $ref with its siblings, or a oneOf). */
  schema: JsonSchema;
}

const propertiesOf = new Map<string, PropertyAt[]>();

/** Every property of a component at any depth, depth first, through object branches of oneOf/anyOf and array elements; a $ref cycle is followed once. */
export function everyProperty(component: string): PropertyAt[] {
  const known = propertiesOf.get(component);
  if (known) return known;
  const found: PropertyAt[] = [];
  const visit = (schema: JsonSchema, path: string[], seen: Set<string>) => {
    const ref = typeof schema.$ref === 'string' ? schema.$ref : undefined;
    if (ref && seen.has(ref)) return;
    const resolved = contract().resolve(schema);
    const inner = new Set(ref ? [...seen, ref] : seen);
    const branch = ((resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined)?.find((b) => contract().resolve(b).type === 'object');
    if (branch) return visit(branch, path, inner);
    if (resolved.type === 'array' && resolved.items) return visit(resolved.items as JsonSchema, [...path, '*'], inner);
    for (const [name, property] of Object.entries((resolved.properties ?? {}) as Record<string, JsonSchema>)) {
      found.push({ path: [...path, name], schema: property });
      visit(property, [...path, name], inner);
    }
  };
  visit(contract().schema(component), [], new Set());
  propertiesOf.set(component, found);
  return found;
}

export function serviceAssignedFields(component = 'Order'): AssignedField[] {
  return everyProperty(component).flatMap(({ path, schema }) => {
    const section = schema[ASSIGNED_BY_SERVICE];
    return schema.readOnly === true && typeof section === 'string' ? [{ path, section, schema, mayChange: schema['x-service-may-change'] === true }] : [];
  });
}

/** A field the document says the full form returns (x-returned-in-full-form): customer.id, customer.tax_office, payment.type, items[].total. */
export interface PromisedField {
  path: string[];
  /** The section of the document that says so. */
  section: string;
}

export function returnedInFullForm(): PromisedField[] {
  return everyProperty('Order').flatMap(({ path, schema }) => {
    const section = schema[RETURNED_IN_FULL_FORM];
    return typeof section === 'string' ? [{ path, section }] : [];
  });
}

/**
 * The date-times a form of an order carries that the client never sends: created_at, updated_at, deleted_at
 * (a date-time the client sends, placed_at, is marked x-format-of-sent-value and judged by round trip).
 */
export function serviceTimestamps(component: 'Order' | 'OrderSummary'): string[][] {
  const dateTimes = (schema: JsonSchema): JsonSchema[] => {
    const resolved = contract().resolve(schema);
    const branches = (resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined;
    if (branches) return branches.flatMap(dateTimes);
    return resolved.format === 'date-time' ? [resolved] : [];
  };
  return everyProperty(component)
    .filter(({ schema }) => {
      const found = dateTimes(schema);
      return found.length > 0 && found.every((resolved) => resolved['x-format-of-sent-value'] !== true);
    })
    .map(({ path }) => path);
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
  return valuesWhere(value, path).map((found) => found.value);
}

/** Every value at a path, with where it sits as a reader writes it: customer.id, items[1].total. */
export function valuesWhere(value: unknown, path: string[], where = ''): Array<{ where: string; value: unknown }> {
  if (path.length === 0) return [{ where, value }];
  const [step, ...rest] = path;
  if (step === '*') return Array.isArray(value) ? value.flatMap((element, index) => valuesWhere(element, rest, `${where}[${index}]`)) : [];
  const inner = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[step] : undefined;
  return valuesWhere(inner, rest, where ? `${where}.${step}` : step);
}

/** A copy of a JSON value with the value at a path set (through every array element for '*'), creating objects on the way. */
export function withValueAt(value: unknown, path: string[], set: (previous: unknown) => unknown): unknown {
  if (path.length === 0) return set(value);
  const [step, ...rest] = path;
  if (step === '*') return Array.isArray(value) ? value.map((element) => withValueAt(element, rest, set)) : value;
  const object = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return { ...object, [step]: withValueAt(object[step], rest, set) };
}
