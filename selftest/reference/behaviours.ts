import { ConfigurationError } from '../../config/exit-codes';
import type { Behaviour } from '../../reference/app';
import { FAULTS } from './faults';
import { HOSTILE } from './hostile';
import { GENERATED_FAULTS } from './faults/generated';
import { VARIANTS } from './variants';
import { inKnobOrder, KNOBS, knobNamed, parseKnobs } from './variants/knobs';

/**
 * Behaviours named by OMS_FAULT, OMS_VARIANT and OMS_HOSTILE (comma-separated), and the knobs set by
 * OMS_KNOBS ('name=value,...', selftest/reference/variants/knobs.ts). Faults (selftest/reference/faults), variants
 * (selftest/reference/variants) and hostile behaviours (selftest/reference/hostile) register here; the clean server has none.
 */
export const behaviourRegistry = new Map<string, () => Behaviour>();

// Generated faults (the fault space of selftest/fault-space.test.ts) are switched on the same way; the matrix runs the hand-written ones.
const ALL_FAULTS = [...FAULTS, ...GENERATED_FAULTS];
const FAULT_IDS = ALL_FAULTS.map((fault) => fault.id);
const VARIANT_NAMES = VARIANTS.map((variant) => variant.name);
const HOSTILE_NAMES = HOSTILE.map((hostile) => hostile.name);

for (const { name, make } of [
  ...ALL_FAULTS.map((fault) => ({ name: fault.id, make: fault.behaviour })),
  ...VARIANTS.map((variant) => ({ name: variant.name, make: variant.behaviour })),
  ...HOSTILE.map((hostile) => ({ name: hostile.name, make: hostile.behaviour })),
]) {
  if (behaviourRegistry.has(name)) throw new Error(`selftest/reference/behaviours: "${name}" is registered twice (fault ids and variant names must differ)`);
  behaviourRegistry.set(name, make);
}

/** The variables that switch behaviours of the reference server on: the self-proof's alone, never the suite's settings. */
export const BEHAVIOUR_VARIABLES = ['OMS_FAULT', 'OMS_VARIANT', 'OMS_HOSTILE', 'OMS_KNOBS'] as const;

export function behavioursFromEnvironment(env: NodeJS.ProcessEnv): Behaviour[] {
  const knobbed = knobs(env);
  // The latency knob is the network in front of the server: a request is late before any behaviour of the server
  // sees it (a fault's race between creates arriving together stays a race across a network).
  const network = knobbed.filter((behaviour) => behaviour.name.startsWith(`${LATENCY_KNOB}=`));
  return [
    ...network,
    ...named(env, 'OMS_FAULT', 'fault', FAULT_IDS, 'faults'),
    ...named(env, 'OMS_VARIANT', 'variant', VARIANT_NAMES, 'variants'),
    ...named(env, 'OMS_HOSTILE', 'hostile behaviour', HOSTILE_NAMES, 'hostile'),
    ...knobbed.filter((behaviour) => !network.includes(behaviour)),
  ];
}

const LATENCY_KNOB = 'latency';

/** One behaviour per knob set to another value than the clean server's. */
function knobs(env: NodeJS.ProcessEnv): Behaviour[] {
  let setting: Record<string, string>;
  try {
    setting = parseKnobs(env.OMS_KNOBS ?? '');
  } catch (error) {
    const known = KNOBS.map((knob) => `${knob.name} (${knob.values.join('|')})`).join(', ');
    throw new ConfigurationError(`OMS_KNOBS: ${(error as Error).message}. Knobs (selftest/reference/variants/knobs.ts): ${known}`);
  }
  return inKnobOrder(setting).flatMap(([name, value]) => {
    const hooks = knobNamed(name).behaviour(value);
    return hooks ? [{ name: `${name}=${value}`, ...hooks }] : [];
  });
}

function named(env: NodeJS.ProcessEnv, variable: string, kind: string, known: string[], folder: string): Behaviour[] {
  const names = (env[variable] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.map((name) => {
    const make = known.includes(name) ? behaviourRegistry.get(name) : undefined;
    // A configuration error: the suite's global setup reports it in one line and exits with code 2.
    if (!make) {
      throw new ConfigurationError(
        `${variable}=${name}: there is no ${kind} "${name}". Known ${kind}s (selftest/reference/${folder}/README.md): ${known.join(', ')}`,
      );
    }
    return make();
  });
}
