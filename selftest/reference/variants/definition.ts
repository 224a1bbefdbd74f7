import type { Behaviour } from '../../../reference/app';
import type { Hooks } from '../faults/kit';

/** A behaviour the document leaves open, or a condition of real deployments, that the suite must accept. */
export interface VariantDefinition {
  /** kebab-case; the value of OMS_VARIANT. */
  name: string;
  description: string;
  /** Why it is conformant: the section that leaves it open, or the condition it simulates. */
  basis: string;
  /** A fresh behaviour (with fresh state) for one server. */
  behaviour(): Behaviour;
}

export function variant(definition: Omit<VariantDefinition, 'behaviour'> & { hooks: () => Hooks }): VariantDefinition {
  const { hooks, ...meta } = definition;
  return { ...meta, behaviour: () => ({ name: meta.name, ...hooks() }) };
}
