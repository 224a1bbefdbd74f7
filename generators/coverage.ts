import fc from 'fast-check';
import { contract, type JsonSchema } from '../contract/openapi';
import { order, orderFields } from './order';
import { boundaryValues } from './query';
import type { ListParameter, ListQuery } from '../contract/query';
import { clientFields, componentOf, properties, requiredFields, type Payload } from './schema';

/**
 * The deterministic coverage phase (as Schemathesis runs one before its random phase): cases derived
 * from openapi.yaml, the same on every run whatever OMS_SEED says, so each bound and form is sent at
 * least once instead of when the dice allow.
 */

/** Fixed, so the phase sends the same bodies every run. */
export const COVERAGE_SEED = 20261123;

export interface CoverageCase<T> {
  /** What the case covers, as a failure names it. */
  name: string;
  input: T;
}

/** One value of an arbitrary, the same every run. */
function fixed<T>(arbitrary: fc.Arbitrary<T>, salt: number): T {
  return fc.sample(arbitrary, { seed: COVERAGE_SEED + salt, numRuns: 1 })[0];
}

/** page and limit (components.parameters Page, Limit): each bound, each bound ± 1, the default, and values no integer parser takes, one parameter at a time. */
export function queryCoverage(): Array<CoverageCase<ListQuery>> {
  return (['page', 'limit'] as ListParameter[]).flatMap((name) =>
    boundaryValues(name).map((value) => ({ name: `${name}=${JSON.stringify(value)}`, input: { [name]: value } })),
  );
}

/** Fields of a schema whose value may be null (nullable: true, type [.., 'null'], or a oneOf/anyOf with type null). */
export function nullableFields(schemas: Record<string, JsonSchema>): string[] {
  const allowsNull = (schema: JsonSchema): boolean =>
    schema.nullable === true ||
    (Array.isArray(schema.type) && schema.type.includes('null')) ||
    schema.type === 'null' ||
    [schema.oneOf, schema.anyOf].some((list) => Array.isArray(list) && (list as JsonSchema[]).some(allowsNull));
  return Object.entries(schemas)
    .filter(([, schema]) => allowsNull(schema))
    .map(([name]) => name);
}

/**
 * Create bodies (components.schemas.OrderCreate): the required fields alone; each optional field
 * present (in its fullest form); each object field in its smallest and its fullest form; each nullable
 * field as null; every field at once. The cases and their names come from the schema; each body is drawn
 * when it is first read, so loading the test file (the runner loads every one to list the tests) draws
 * nothing.
 */
export function orderCoverage(): Array<CoverageCase<Payload<'OrderCreate'>>> {
  type Forms = { minimal: Record<string, unknown>; full: Record<string, unknown>; smallest: Record<string, fc.Arbitrary<unknown>> };
  let forms: Forms | undefined;
  const drawn = (): Forms =>
    (forms ??= {
      minimal: fixed(order({ fields: 'required' }), 0),
      full: fixed(order({ fields: 'all' }), 1),
      smallest: orderFields('none') as Record<string, fc.Arbitrary<unknown>>,
    });
  const schema = properties('OrderCreate');
  const required: string[] = requiredFields('OrderCreate');
  const fields: string[] = clientFields('OrderCreate');
  // An object (or a list of objects) has forms; a $ref to a string schema (DateTime) does not.
  const isObject = (field: string) => {
    const component = componentOf(schema[field]);
    return component !== undefined && contract().schema(component).properties !== undefined;
  };
  const cases: Array<CoverageCase<Record<string, unknown>>> = [];
  const add = (name: string, draw: () => Record<string, unknown>) => {
    let input: Record<string, unknown> | undefined;
    cases.push({
      name,
      get input() {
        return (input ??= draw());
      },
    });
  };
  add('the required fields only, every optional field absent', () => drawn().minimal);
  for (const [index, field] of fields.entries()) {
    const presence = required.includes(field) ? 'required' : 'optional';
    if (isObject(field)) {
      if (presence === 'optional') add(`${field} (optional) present in its smallest form`, () => ({ ...drawn().minimal, [field]: fixed(drawn().smallest[field], 100 + index) }));
      add(`${field} (${presence}) in its fullest form`, () => ({ ...drawn().minimal, [field]: drawn().full[field] }));
    } else if (presence === 'optional') {
      add(`${field} (optional) present`, () => ({ ...drawn().minimal, [field]: drawn().full[field] }));
    }
  }
  for (const field of nullableFields(schema)) add(`${field} as null`, () => ({ ...drawn().minimal, [field]: null }));
  add('every field, at every depth', () => drawn().full);
  return cases as Array<CoverageCase<Payload<'OrderCreate'>>>;
}
