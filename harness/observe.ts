import { test } from '@playwright/test';
import { requirement } from '../requirements/catalogue';
import { OBSERVATION_ANNOTATION } from './verifies';

/**
 * Where an observation goes on to one instance of the behaviour (an id, a timestamp, a count of this
 * run), the instance follows this mark, last: `oms-conformance diff` compares what comes before it.
 */
export const EXAMPLE_MARK = ' (e.g. ';

/** The behaviour an observation records, without the instance that illustrates it. */
export function observedBehaviour(observation: string): string {
  const at = observation.indexOf(EXAMPLE_MARK);
  return at < 0 ? observation : observation.slice(0, at);
}

/** Records what the server does where the document is silent (an OBSERVED requirement): reported, never failed. */
export function observe(id: string, value: string): void {
  const r = requirement(id);
  if (r.level !== 'OBSERVED') throw new Error(`observe(${id}): ${id} is ${r.level}, not OBSERVED; check it instead`);
  test.info().annotations.push({ type: OBSERVATION_ANNOTATION, description: `${id}: ${value}` });
}
