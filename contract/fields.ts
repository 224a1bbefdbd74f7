import { contract, type JsonSchema } from './openapi';

/** What openapi.yaml says of one field of the full form, for comparing values (checks/roundtrip.ts). */
export interface FieldRule {
  /** x-amount: an amount of money, which a server may store to the cent. */
  amount: boolean;
  /** x-service-may-compute: the service may compute it, so a sent value need not come back. */
  computed: boolean;
  /** x-in-some-responses: one answer may carry it and the next not. */
  inSomeResponses: boolean;
}

let rules: Map<string, FieldRule> | undefined;

/**
 * The rules of the fields of the full form (components.schemas.Order), by path: '/billing/total',
 * '/items/* /price' (written without the space; an array index is '*'). Summaries use the same paths.
 */
export function fieldRules(): Map<string, FieldRule> {
  if (rules) return rules;
  rules = new Map();
  collect(contract().schema('Order'), '', rules, 0);
  return rules;
}

/** The rule of the field at a JSON pointer of an order ('/items/3/total'), if openapi.yaml gives it one. */
export function ruleAt(pointer: string): FieldRule | undefined {
  return fieldRules().get(pointer.replace(/\/\d+(?=\/|$)/g, '/*'));
}

function collect(schema: JsonSchema, path: string, into: Map<string, FieldRule>, depth: number): void {
  if (depth > 12) return;
  const resolved = contract().resolve(schema);
  const amount = resolved['x-amount'] === true;
  const computed = resolved['x-service-may-compute'] === true;
  const inSomeResponses = resolved['x-in-some-responses'] === true;
  if (path && (amount || computed || inSomeResponses)) into.set(path, { amount, computed, inSomeResponses });
  for (const branch of ((resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined) ?? []) collect(branch, path, into, depth + 1);
  if (resolved.items) collect(resolved.items as JsonSchema, `${path}/*`, into, depth + 1);
  for (const [key, inner] of Object.entries((resolved.properties as Record<string, JsonSchema> | undefined) ?? {})) {
    collect(inner, `${path}/${key}`, into, depth + 1);
  }
}
