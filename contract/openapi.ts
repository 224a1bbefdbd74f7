import { join } from 'node:path';
import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import type { OpenAPIV3_1 } from 'openapi-types';
import { readCached, writeCached } from './cache';
import { isIso8601DateTime } from './datetime';
import type { OperationId } from './openapi-types.generated';
import { readYamlFile } from './yaml-file';

export const OPENAPI_PATH = join(__dirname, '..', 'openapi.yaml');
const SCHEMA_BASE = 'https://oms-conformance.local/openapi.json';
/** Extension on a readOnly property: the section of the document that says the service assigns it (4.2, 2.3, 2.4). */
export const ASSIGNED_BY_SERVICE = 'x-assigned-by-service';
/** Extension on a property: the section of the document that says the full form returns it. */
export const RETURNED_IN_FULL_FORM = 'x-returned-in-full-form';
/** The same components as responses are held to: formats of client-sent values dropped (see responseForm). */
const RESPONSE_BASE = 'https://oms-conformance.local/openapi-responses.json';

/**
 * The contract's own keywords (declared so ajv's strict mode stays on for everything else):
 * x-format-of-sent-value - the format or pattern holds for a value the client sent; responses are held
 *   to the type only, and the sent value is checked by round trip (an unsent one may be empty); a
 *   date-time that is not empty is still a date-time.
 * x-amount - an amount of money: a server may store it to the cent (checks/roundtrip.ts).
 * x-service-may-compute - the service may compute it from other fields: not compared by round trip.
 * x-service-may-change - beside x-assigned-by-service: the service may give it another value after the
 *   create (updated_at, status); an order keeps the others for life (contract/assigned.ts).
 * x-in-some-responses - the document says it "appears in some responses": one answer may carry it and
 *   the next not, so two answers are never compared on it.
 * x-returned-in-full-form - the section of the document that says the full form returns it (customer.id,
 *   tax_office, payment.type, item total): present wherever the full form shows the object it belongs to.
 */
export const CONTRACT_KEYWORDS = ['x-format-of-sent-value', 'x-amount', 'x-service-may-compute', 'x-service-may-change', 'x-in-some-responses', RETURNED_IN_FULL_FORM] as const;
const COMPONENT_PREFIX = '#/components/schemas/';

export type { OperationId } from './openapi-types.generated';

export type JsonSchema = { [keyword: string]: unknown };

export interface SchemaProblem {
  /** JSON pointer into the validated value ('' is the root). */
  pointer: string;
  expected: string;
  received: string;
}

/** A compiled check of one value against one schema of openapi.yaml. */
export interface SchemaCheck {
  /** Which part of openapi.yaml this checks, for messages. */
  source: string;
  problems(value: unknown): SchemaProblem[];
}

/** An operation of openapi.yaml where it sits: its path template and (lower-case) method, and its definition. */
export interface Located {
  path: string;
  method: string;
  operation: OpenAPIV3_1.OperationObject;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** openapi.yaml, parsed and its validators compiled once (then cached, see check()): the only place fields and types are written down. */
export class Contract {
  readonly document: OpenAPIV3_1.Document;
  private compiler?: Ajv2020;
  /** The two schemas every $ref resolves against: the components as written, and as responses are held to them. */
  private readonly bases: JsonSchema[];
  /** What every compiled validator is made from besides its own schema (see check()). */
  private readonly compiledFrom: string;
  private readonly cache = new Map<string, SchemaCheck>();
  private readonly schemas = new Map<string, JsonSchema>();
  private located?: Located[];

  constructor(document: OpenAPIV3_1.Document) {
    this.document = document;
    const schemas = document.components?.schemas ?? {};
    this.bases = [
      { $id: SCHEMA_BASE, $defs: rewriteRefs(schemas) },
      { $id: RESPONSE_BASE, $defs: responseForm(rewriteRefs(schemas)) },
    ];
    const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
    this.compiledFrom = JSON.stringify([version('ajv'), version('ajv-formats'), AJV_OPTIONS, VOCABULARY, this.bases]);
  }

  /** ajv with the contract's formats, keywords and components, in strict mode: built only when a validator is not in the cache. */
  private get ajv(): Ajv2020 {
    if (this.compiler) return this.compiler;
    const { default: Ajv, _ } = require('ajv/dist/2020') as typeof import('ajv/dist/2020');
    const addFormats = (require('ajv-formats') as typeof import('ajv-formats')).default;
    // Standalone code names its formats through FORMATS_MODULE (see check()).
    const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true, formats: _`require(${FORMATS_MODULE})` } });
    addFormats(ajv, ['uuid']);
    ajv.addFormat('date-time', CONTRACT_FORMATS['date-time']);
    // OpenAPI-only keywords, declared so strict mode stays on for everything else.
    ajv.addVocabulary(VOCABULARY);
    for (const base of this.bases) ajv.addSchema(base);
    this.compiler = ajv;
    return ajv;
  }

  /** The raw schema of a component, e.g. schema('Order'), with its $refs pointing into $defs. */
  schema(name: string): JsonSchema {
    let rewritten = this.schemas.get(name);
    if (!rewritten) {
      const found = this.document.components?.schemas?.[name];
      if (!found) throw new Error(`openapi.yaml has no components.schemas.${name}`);
      rewritten = rewriteRefs(found) as JsonSchema;
      this.schemas.set(name, rewritten);
    }
    return rewritten;
  }

  /** The components these reach through their $refs, at any depth: each once, depth first, in the order openapi.yaml writes them. */
  reachableComponents(names: string[]): string[] {
    const found: string[] = [];
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (!value || typeof value !== 'object') return;
      for (const [key, inner] of Object.entries(value)) {
        if (key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENT_PREFIX)) reach(inner.slice(COMPONENT_PREFIX.length));
        else visit(inner);
      }
    };
    const reach = (name: string): void => {
      if (found.includes(name)) return;
      found.push(name);
      visit(this.document.components?.schemas?.[name]);
    };
    names.forEach(reach);
    return found;
  }

  /** Resolves a {$ref} (as returned by schema()) to the referenced component, once. */
  resolve(schema: JsonSchema): JsonSchema {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    return this.schema(ref.slice('#/$defs/'.length));
  }

  /**
   * Check of a value against components.schemas.<name>: as a response carries it (the default), or as
   * a request must be written (formats of client-sent values kept).
   */
  component(name: string, form: 'response' | 'request' = 'response'): SchemaCheck {
    return this.cached(`component:${form}:${name}`, () => {
      this.schema(name);
      return this.check(`components.schemas.${name}`, { $ref: `${form === 'response' ? RESPONSE_BASE : SCHEMA_BASE}#/$defs/${name}` });
    });
  }

  /** Check of a response body of an operation for an HTTP status, or undefined if openapi.yaml defines no JSON body for it. */
  response(operationId: OperationId, status: number): SchemaCheck | undefined {
    const { path, method, operation } = this.operation(operationId);
    const responses = operation.responses ?? {};
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((candidate) => candidate in responses);
    if (!key) return undefined;
    const schema = this.responseBody(responses[key]);
    if (!schema) return undefined;
    return this.cached(`response:${operationId}:${key}`, () =>
      this.check(`${method.toUpperCase()} ${path} response ${key}`, absoluteRefs(responseForm(rewriteRefs(schema)) as JsonSchema, RESPONSE_BASE)),
    );
  }

  /** Check of a request body of an operation (used by the reference server and the generator self-tests). */
  request(operationId: OperationId): SchemaCheck {
    const { path, method, operation } = this.operation(operationId);
    const body = operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
    const schema = body?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`openapi.yaml: ${operationId} has no JSON request body`);
    return this.cached(`request:${operationId}`, () =>
      this.check(`${method.toUpperCase()} ${path} request body`, absoluteRefs(rewriteRefs(schema) as JsonSchema)),
    );
  }

  /** A query parameter's schema (page, limit), as the document bounds it. */
  queryParameter(operationId: OperationId, name: string): JsonSchema {
    const parameters = (this.operation(operationId).operation.parameters ?? []) as Array<
      OpenAPIV3_1.ParameterObject | OpenAPIV3_1.ReferenceObject
    >;
    for (const entry of parameters) {
      const parameter =
        '$ref' in entry
          ? (this.document.components?.parameters?.[entry.$ref.split('/').pop() as string] as OpenAPIV3_1.ParameterObject)
          : entry;
      if (parameter.in === 'query' && parameter.name === name) return parameter.schema as JsonSchema;
    }
    throw new Error(`openapi.yaml: ${operationId} has no query parameter ${name}`);
  }

  /** The schema of a response's JSON body (a response of components.responses followed), if it has one. */
  responseBody(response: OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject): JsonSchema | undefined {
    const resolved = '$ref' in response ? this.document.components?.responses?.[response.$ref.split('/').pop() as string] : response;
    return (resolved as OpenAPIV3_1.ResponseObject | undefined)?.content?.['application/json']?.schema as JsonSchema | undefined;
  }

  /** Every operation of openapi.yaml, in the order it lists them (contract/operations.ts makes the suite's table of them). */
  operations(): Located[] {
    this.located ??= Object.entries(this.document.paths ?? {}).flatMap(([path, item]) =>
      METHODS.flatMap((method) => (item?.[method] ? [{ path, method, operation: item[method] as OpenAPIV3_1.OperationObject }] : [])),
    );
    return this.located;
  }

  operation(operationId: OperationId): Located {
    const found = this.operations().find(({ operation }) => operation.operationId === operationId);
    if (!found) throw new Error(`openapi.yaml has no operation ${operationId}`);
    return found;
  }

  private cached(key: string, build: () => SchemaCheck): SchemaCheck {
    let check = this.cache.get(key);
    if (!check) {
      check = build();
      this.cache.set(key, check);
    }
    return check;
  }

  /**
   * Compiling the contract's validators cost each process of a run ~0.35 CPU-s; evaluating the code ajv
   * generated for them (its standalone form) takes a few ms. So that code is cached (contract/cache.ts), by
   * everything it is made from: the ajv and ajv-formats versions, the options, the declared keywords, both
   * bases and the schema. The code is ajv's own, the same it evaluates when it compiles; a schema strict
   * mode refuses never compiles, so it is never cached.
   */
  private check(source: string, schema: JsonSchema): SchemaCheck {
    const madeFrom = `${this.compiledFrom}\n${JSON.stringify(schema)}`;
    const cached = readCached('validator', madeFrom, 'js');
    let validate = cached === undefined ? undefined : evaluateStandalone(cached);
    if (!validate) {
      validate = this.ajv.compile(schema);
      const standaloneCode = (require('ajv/dist/standalone') as typeof import('ajv/dist/standalone')).default;
      writeCached('validator', madeFrom, 'js', standaloneCode(this.ajv, validate));
    }
    const compiled = validate;
    return {
      source,
      problems: (value) => (compiled(value) ? [] : describeErrors(compiled.errors ?? [])),
    };
  }
}

const AJV_OPTIONS = { strict: true, allErrors: true, verbose: true } as const;
/** OpenAPI-only keywords and the contract's own, declared so ajv's strict mode stays on for everything else. */
const VOCABULARY = ['example', 'xml', 'externalDocs', 'discriminator', ASSIGNED_BY_SERVICE, ...CONTRACT_KEYWORDS];
/** The formats ajv-formats does not give: section 2.1 says "ISO 8601 timestamp"; precision and offset are left open, so any ISO 8601 date-time passes. */
const CONTRACT_FORMATS = { 'date-time': { type: 'string' as const, validate: isIso8601DateTime } };
/** The name standalone validator code requires CONTRACT_FORMATS by. */
const FORMATS_MODULE = 'oms-conformance:contract-formats';

/** A validator from its standalone code (a CommonJS module); undefined if the code does not evaluate to one. */
function evaluateStandalone(code: string): ValidateFunction | undefined {
  const module = { exports: {} as unknown };
  const load = (name: string): unknown => (name === FORMATS_MODULE ? CONTRACT_FORMATS : require(name));
  try {
    new Function('require', 'module', 'exports', code)(load, module, module.exports);
  } catch {
    return undefined;
  }
  return typeof module.exports === 'function' ? (module.exports as ValidateFunction) : undefined;
}

/** Turns "#/components/schemas/X" into "#/$defs/X" throughout, so ajv resolves them against one schema. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] =
        key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENT_PREFIX)
          ? `#/$defs/${inner.slice(COMPONENT_PREFIX.length)}`
          : rewriteRefs(inner);
    }
    return out;
  }
  return value;
}

function absoluteRefs(value: JsonSchema, base = SCHEMA_BASE): JsonSchema {
  return JSON.parse(JSON.stringify(value).replace(/"#\/\$defs\//g, `"${base}#/$defs/`)) as JsonSchema;
}

/**
 * A schema as responses are held to it: where x-format-of-sent-value is set, the format and pattern are
 * dropped (what an unsent field holds is not shown; a sent value is compared by round trip instead), but
 * a date-time that holds anything but "" still holds a date-time: an empty value of the type is what an
 * unsent field may hold (ORD-OBS-011), other text is no timestamp at all.
 */
function responseForm(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(responseForm);
  if (!value || typeof value !== 'object') return value;
  const schema = value as JsonSchema;
  const sentOnly = schema['x-format-of-sent-value'] === true;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const emptyOrDateTime = sentOnly && schema.format === 'date-time' ? { anyOf: [{ const: '' }, { type: 'string', format: 'date-time' }] } : {};
  return Object.fromEntries(
    [...Object.entries(schema), ...Object.entries(emptyOrDateTime)]
      .filter(([key]) => !(sentOnly && (key === 'format' || key === 'pattern')))
      .map(([key, inner]) => {
        if (key !== 'properties' || !inner || typeof inner !== 'object') return [key, responseForm(inner)];
        // What an unsent optional field holds is not shown (ORD-OBS-011): at any depth it may be null.
        const properties = Object.entries(inner as Record<string, JsonSchema>).map(([name, property]) => [
          name,
          required.has(name) ? responseForm(property) : orNull(responseForm(property) as JsonSchema),
        ]);
        return [key, Object.fromEntries(properties)];
      }),
  );
}

/** A schema that also takes null (unchanged where it already does). */
function orNull(schema: JsonSchema): JsonSchema {
  const branches = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (branches?.some((branch) => branch.type === 'null')) return schema;
  if (typeof schema.type === 'string' && !schema.$ref && !branches) return { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.type)) return schema.type.includes('null') ? schema : { ...schema, type: [...(schema.type as string[]), 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** ajv errors as "at <pointer>: expected …, got …", dropping the noise of oneOf branches that were never meant. */
function describeErrors(errors: ErrorObject[]): SchemaProblem[] {
  const seen = new Set<string>();
  const problems: SchemaProblem[] = [];
  for (const error of errors) {
    let pointer = error.instancePath;
    let expected: string;
    switch (error.keyword) {
      case 'required':
        pointer = `${pointer}/${(error.params as { missingProperty: string }).missingProperty}`;
        expected = 'a required field (it is missing)';
        break;
      case 'type': {
        // null is taken where a field may be unsent (ORD-OBS-011): named only when it is all that is allowed.
        const types = ([] as string[]).concat((error.params as { type: string | string[] }).type);
        if (types.length === 1 && types[0] === 'null' && errors.length > 1) continue;
        expected = `type ${types.filter((type) => type !== 'null' || types.length === 1).join(',')}`;
        break;
      }
      case 'format':
        expected = `format ${(error.params as { format: string }).format}`;
        break;
      case 'oneOf':
      case 'anyOf':
        expected = `one of the shapes of ${error.schemaPath.replace(/\/(oneOf|anyOf)$/, '')}`;
        break;
      default:
        expected = `${error.keyword} ${JSON.stringify(error.params)}`;
    }
    const received = error.keyword === 'required' ? 'nothing' : excerpt(error.data);
    const key = `${pointer}|${expected}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ pointer, expected, received });
  }
  // "one of the shapes" says nothing a problem at or below the same place does not say better.
  return problems.filter(
    (problem) => !problem.expected.startsWith('one of the shapes') || !problems.some((other) => other !== problem && !other.expected.startsWith('one of the shapes') && (other.pointer === problem.pointer || other.pointer.startsWith(`${problem.pointer}/`))),
  );
}

/**
 * A value as its JSON text, cut at `max` characters. Written only as far as it is shown: a large value costs no
 * more than a small one, and one nested deeper than JSON.stringify's stack (a request of ORD-ERR-004's, a server
 * echoing it) is shown, not thrown on.
 */
export function excerpt(value: unknown, max = 120): string {
  const parts: string[] = [];
  let length = 0;
  // Each returns false once the text is longer than shown: the nesting it walks is never deeper than `max`.
  const emit = (piece: string): boolean => {
    parts.push(piece);
    length += piece.length;
    return length <= max;
  };
  const write = (item: unknown): boolean => {
    if (item !== null && typeof item === 'object' && typeof (item as { toJSON?: unknown }).toJSON === 'function') return write((item as { toJSON(): unknown }).toJSON());
    if (typeof item === 'string') return emit(JSON.stringify(item.slice(0, max + 1)));
    if (item === null || typeof item !== 'object') return emit(JSON.stringify(item) ?? 'null');
    if (Array.isArray(item)) {
      if (!emit('[')) return false;
      for (let index = 0; index < item.length; index++) {
        const element: unknown = item[index];
        if ((index > 0 && !emit(',')) || !write(element === undefined || typeof element === 'function' ? null : element)) return false;
      }
      return emit(']');
    }
    if (!emit('{')) return false;
    let first = true;
    for (const [key, inner] of Object.entries(item)) {
      if (inner === undefined || typeof inner === 'function') continue;
      if ((!first && !emit(',')) || !emit(`${JSON.stringify(key)}:`) || !write(inner)) return false;
      first = false;
    }
    return emit('}');
  };
  if (value === undefined) emit('undefined');
  else write(value);
  const text = parts.join('');
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export function formatProblems(problems: SchemaProblem[]): string {
  return problems.map((p) => `  at ${p.pointer || '(root)'}: expected ${p.expected}, got ${p.received}`).join('\n');
}

let loaded: Contract | undefined;

/** The process-wide contract, compiled on first use. */
export function contract(): Contract {
  loaded ??= new Contract(readYamlFile(OPENAPI_PATH) as OpenAPIV3_1.Document);
  return loaded;
}
