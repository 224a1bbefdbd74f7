import { LOAD_VARIANTS } from './load';
import { RESPONSE_VARIANTS } from './responses';
import { STORAGE_VARIANTS } from './storage';

export type { VariantDefinition } from './definition';

/** Every variant; each is switched on by OMS_VARIANT=<name>, and the suite must accept each one. */
export const VARIANTS = [...RESPONSE_VARIANTS, ...STORAGE_VARIANTS, ...LOAD_VARIANTS];
