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
  /**
   * The SHOULD requirements the strict profile must report for it, where it is conformant in the core profile only
   * (infrastructure in front of the service answering what the document does not cover): no MUST may fail, each of
   * these must, and nothing else. Such a variant is no point of the space of conformant servers (knobs pass strict).
   */
  strictReports?: readonly string[];
}

export function variant(definition: Omit<VariantDefinition, 'behaviour'> & { hooks: () => Hooks }): VariantDefinition {
  const { hooks, ...meta } = definition;
  return { ...meta, behaviour: () => ({ name: meta.name, ...hooks() }) };
}
