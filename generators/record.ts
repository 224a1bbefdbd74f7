import fc from 'fast-check';
import { clientFields, requiredFields, type ClientField, type Component, type Payload } from './schema';

/**
 * One arbitrary for every field of a schema that a client sends, and for no other field: the compiler
 * checks the keys against contract/openapi-types.generated.ts, and schemaRecord checks them against openapi.yaml.
 */
export type FieldArbitraries<C extends Component> = { readonly [K in ClientField<C>]: fc.Arbitrary<unknown> };

/** Which of the fields that are not always sent are sent: none, all, or each one present or absent. */
export type Presence = 'none' | 'all' | 'any';

export interface RecordConstraints<C extends Component> {
  /** Optional fields: none, all, or each present or absent ('any', the default). */
  optional?: Presence;
  /** Fields sent every time besides the schema's required ones (what the document's examples always carry). */
  always?: ReadonlyArray<ClientField<C>>;
  /** Generate only these fields (a form of the object, such as the five-field address). */
  only?: ReadonlyArray<ClientField<C>>;
}

/** An object of components.schemas.<component>, field by field from `fields`. */
export function schemaRecord<C extends Component>(
  component: C,
  fields: FieldArbitraries<C>,
  constraints: RecordConstraints<C> = {},
): fc.Arbitrary<Payload<C>> {
  assertCoversSchema(component, fields);
  const { optional = 'any', always = [], only } = constraints;
  const chosen = only ?? clientFields(component);
  const required = chosen.filter((name) => (requiredFields(component) as string[]).includes(name) || always.includes(name));
  const present = optional === 'none' ? required : chosen;
  const model = Object.fromEntries(present.map((name) => [name, fields[name]])) as Record<string, fc.Arbitrary<unknown>>;
  return fc.record(model, { requiredKeys: [...(optional === 'all' ? present : required)] }) as fc.Arbitrary<Payload<C>>;
}

/** The same check as the compiler's, at run time against openapi.yaml itself: fails loudly when they drift. */
export function assertCoversSchema<C extends Component>(component: C, fields: FieldArbitraries<C>): void {
  const expected = clientFields(component) as string[];
  const given = Object.keys(fields);
  const missing = expected.filter((name) => !given.includes(name));
  const unknown = given.filter((name) => !expected.includes(name));
  if (missing.length || unknown.length) {
    throw new Error(
      `generators: the arbitraries of ${component} are out of step with openapi.yaml` +
        `${missing.length ? `; not generated: ${missing.join(', ')}` : ''}${unknown.length ? `; not in the schema: ${unknown.join(', ')}` : ''}` +
        ' (regenerate contract/openapi-types.generated.ts with `npx tsx contract/openapi-types.ts --write`, then fix the compile errors)',
    );
  }
}

/** The arbitraries of another schema's fields that this schema shares (OrderUpdate takes OrderCreate's). */
export function sharedFields<C extends Component>(component: C, from: NoInfer<FieldArbitraries<C>>): FieldArbitraries<C> {
  return Object.fromEntries(clientFields(component).map((name) => [name, from[name]])) as FieldArbitraries<C>;
}
