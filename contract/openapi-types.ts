import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readOnlyFields } from './assigned';
import { contract, type JsonSchema } from './openapi';
import { operations } from './operations';

/**
 * openapi-types.generated.ts: what openapi.yaml says, as TypeScript types, so the compiler holds code to
 * the contract too: the operationIds, the property names of every schema (and which are readOnly), and
 * the form a client sends of each schema a request body reaches. `npx tsx contract/openapi-types.ts --write`
 * writes it; selftest/generators.test.ts fails when openapi.yaml changed and it was not written again.
 */

export const GENERATED_TYPES_PATH = join(__dirname, 'openapi-types.generated.ts');

/** The text of openapi-types.generated.ts for the current openapi.yaml. */
export function renderOpenapiTypes(): string {
  const withProperties = Object.keys(contract().document.components?.schemas ?? {}).filter((name) => contract().schema(name).properties);
  const requestBodies = operations().flatMap((operation) => operation.requestSchema ?? []);
  const clientForms = contract().reachableComponents(requestBodies).filter((name) => withProperties.includes(name));
  const readOnly = withProperties.map((name) => [name, readOnlyFields(name)] as const).filter(([, names]) => names.length > 0);
  return [
    '// Generated from openapi.yaml by `npx tsx contract/openapi-types.ts --write`; do not edit.',
    '// selftest/generators.test.ts fails when openapi.yaml changed and this file was not written again.',
    '',
    '/** The operationId of every operation of openapi.yaml. */',
    `export type OperationId = ${literals(operations().map((operation) => operation.id))};`,
    '',
    '/** The property names of every object schema of components.schemas. */',
    'export interface SchemaFields {',
    ...withProperties.map((name) => `  ${name}: ${literals(Object.keys(properties(contract().schema(name))))};`),
    '}',
    '',
    '/** The readOnly properties of each object schema: what the service sends and a client does not. */',
    'export interface ReadOnlySchemaFields {',
    ...readOnly.map(([name, names]) => `  ${name}: ${literals(names)};`),
    '}',
    '',
    '/** What a client sends of each schema a request body reaches: its properties but the readOnly ones, typed as the schema types them. */',
    'export interface ClientForms {',
    ...clientForms.map((name) => `  ${name}: ${objectType(contract().schema(name), clientForms)};`),
    '}',
    '',
  ].join('\n');
}

export function generatedTypesAreCurrent(): boolean {
  return readFileSync(GENERATED_TYPES_PATH, 'utf8') === renderOpenapiTypes();
}

function properties(schema: JsonSchema): Record<string, JsonSchema> {
  return (schema.properties ?? {}) as Record<string, JsonSchema>;
}

function literals(values: string[]): string {
  return values.map((value) => `'${value}'`).join(' | ');
}

/** An object schema's client form: readOnly properties left out, the required ones not optional. */
function objectType(schema: JsonSchema, clientForms: string[]): string {
  const required = (schema.required ?? []) as string[];
  const fields = Object.entries(properties(schema))
    .filter(([, property]) => property.readOnly !== true)
    .map(([name, property]) => `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)}${required.includes(name) ? '' : '?'}: ${valueType(property, clientForms)}`);
  return `{ ${fields.join('; ')} }`;
}

/** The TypeScript type of a value of a schema; a $ref to a component with a client form names it. */
function valueType(schema: JsonSchema, clientForms: string[]): string {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.slice('#/$defs/'.length);
    return clientForms.includes(name) ? `ClientForms['${name}']` : valueType(contract().schema(name), clientForms);
  }
  const branches = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (branches) return branches.map((branch) => valueType(branch, clientForms)).join(' | ');
  if (Array.isArray(schema.type)) return (schema.type as string[]).map((type) => valueType({ ...schema, type }, clientForms)).join(' | ');
  switch (schema.type) {
    case 'string':
      return Array.isArray(schema.enum) ? literals(schema.enum as string[]) : 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
    case 'null':
      return schema.type;
    case 'array': {
      const items = valueType((schema.items ?? {}) as JsonSchema, clientForms);
      return `Array<${items}>`;
    }
    case 'object':
      return schema.properties ? objectType(schema, clientForms) : 'Record<string, unknown>';
    case undefined:
      return 'unknown';
    default:
      throw new Error(`contract/openapi-types.ts: no TypeScript type for a schema of type ${JSON.stringify(schema.type)}`);
  }
}

if (require.main === module) {
  if (process.argv.includes('--write')) {
    writeFileSync(GENERATED_TYPES_PATH, renderOpenapiTypes());
    console.log(`wrote ${GENERATED_TYPES_PATH}`);
  } else {
    process.stdout.write(renderOpenapiTypes());
  }
}
