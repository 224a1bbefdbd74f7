import { join } from 'node:path';
import { readYamlFile } from '../contract/yaml-file';

export const CATALOGUE_PATH = join(__dirname, '..', 'requirements', 'catalogue.yaml');

export type Level = 'MUST' | 'SHOULD' | 'OBSERVED' | 'NONE';
export const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'OBSERVED', 'NONE'];
export const REQUIREMENT_ID = /^ORD-[A-Z]+-\d{3}$/;

export interface Requirement {
  id: string;
  section: string;
  level: Level;
  statement: string;
  quote: string;
  /** Why the statement cannot be tested; absent for every tested entry. */
  not_tested?: string;
  /** The operations and response kinds a MUST or SHOULD statement holds for: 'listOrders/2xx'; a trailing '?' where a correct server may never answer that kind: a 5xx (only a faulty server does), a 2xx for an out-of-range page (only one that clamps does), the refusal of an oversized request (a server may take it). */
  applies_to?: string[];
  /**
   * OBSERVED (and optionally NONE): the range of behaviours a correct server may show where the document
   * is silent. No MUST or SHOULD check may contradict it; each is a knob of selftest/reference/variants/knobs.ts.
   */
  allowed?: string;
}

export const APPLIES_TO_CELL = /^(listOrders|createOrder|getOrder|updateOrder|deleteOrder|issueToken)\/[245]xx\??$/;

let loaded: Map<string, Requirement> | undefined;

/** The catalogue, read and checked once per process. */
export function catalogue(): Map<string, Requirement> {
  if (loaded) return loaded;
  const entries = readYamlFile(CATALOGUE_PATH) as Requirement[];
  const byId = new Map<string, Requirement>();
  for (const entry of entries) {
    const where = `requirements/catalogue.yaml entry ${JSON.stringify(entry.id)}`;
    if (!REQUIREMENT_ID.test(entry.id ?? '')) throw new Error(`${where}: id must look like ORD-LIST-003`);
    if (byId.has(entry.id)) throw new Error(`${where}: the id is used twice`);
    if (!LEVELS.includes(entry.level)) throw new Error(`${where}: level must be one of ${LEVELS.join(', ')}`);
    for (const field of ['section', 'statement', 'quote'] as const) {
      if (!entry[field]) throw new Error(`${where}: ${field} is missing`);
    }
    if (entry.level === 'NONE' && !entry.not_tested) throw new Error(`${where}: level NONE needs a not_tested reason`);
    const bad = (entry.applies_to ?? []).filter((cell) => !APPLIES_TO_CELL.test(cell));
    if (bad.length) throw new Error(`${where}: applies_to cells look like listOrders/2xx (or deleteOrder/5xx?), not ${bad.join(', ')}`);
    if ((entry.level === 'MUST' || entry.level === 'SHOULD') && !entry.not_tested && !entry.applies_to?.length) {
      throw new Error(`${where}: a tested ${entry.level} entry lists the operations and response kinds it applies to (applies_to)`);
    }
    if (entry.level === 'OBSERVED' && !entry.allowed) throw new Error(`${where}: level OBSERVED needs allowed (the range of behaviours a correct server may show)`);
    byId.set(entry.id, entry);
  }
  loaded = byId;
  return byId;
}

export function requirement(id: string): Requirement {
  const found = catalogue().get(id);
  if (!found) throw new Error(`Unknown requirement id ${id}: add it to requirements/catalogue.yaml or fix the typo`);
  return found;
}

/** True when every response kind a statement applies to is one a correct server may never answer (a 5xx: 'createOrder/5xx?'). */
export function mayNeverBeAnswered(r: Requirement): boolean {
  return (r.applies_to ?? []).length > 0 && (r.applies_to ?? []).every((cell) => cell.endsWith('?'));
}

/** Which levels fail a run of a profile: core gates on MUST, strict on MUST and SHOULD. */
export function gatingLevels(profile: 'core' | 'strict'): Level[] {
  return profile === 'strict' ? ['MUST', 'SHOULD'] : ['MUST'];
}
