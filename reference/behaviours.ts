import type { Behaviour } from './app';

/**
 * Behaviours named by OMS_FAULT and OMS_VARIANT (comma-separated). Faults and variants register
 * themselves in reference/faults and reference/variants; the clean server has none.
 */
export const behaviourRegistry = new Map<string, () => Behaviour>();

export function behavioursFromEnvironment(env: NodeJS.ProcessEnv): Behaviour[] {
  const names = [env.OMS_FAULT, env.OMS_VARIANT]
    .filter((value): value is string => Boolean(value))
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter(Boolean);
  return names.map((name) => {
    const make = behaviourRegistry.get(name);
    if (!make) throw new Error(`Unknown fault or variant "${name}". Known: ${[...behaviourRegistry.keys()].join(', ') || 'none'}`);
    return make();
  });
}
