import { contract, type JsonSchema } from './openapi';

/**
 * Keeps only what a schema of openapi.yaml declares, recursively: how the list summary (2.7)
 * is derived from the full form without writing its field list a second time.
 */
export function project(value: unknown, schema: JsonSchema): unknown {
  const resolved = contract().resolve(schema);
  if (value === null || value === undefined) return value;
  const branches = (resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined;
  if (branches) {
    const objectBranch = branches.map((b) => contract().resolve(b)).find((b) => b.type === 'object');
    return objectBranch ? project(value, objectBranch) : value;
  }
  if (Array.isArray(value) && resolved.items) return value.map((v) => project(v, resolved.items as JsonSchema));
  const properties = resolved.properties as Record<string, JsonSchema> | undefined;
  if (properties && typeof value === 'object' && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(properties)) {
      if (key in (value as object)) out[key] = project((value as Record<string, unknown>)[key], inner);
    }
    return out;
  }
  return value;
}

/** Top-level fields a request schema declares, so unknown request fields are ignored (section 4 is silent on them). */
export function declaredFields(schema: JsonSchema): string[] {
  return Object.keys((contract().resolve(schema).properties as object | undefined) ?? {});
}
