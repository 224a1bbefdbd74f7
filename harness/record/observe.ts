import { requirement } from '../../requirements/catalogue';
import { OBSERVATION_ANNOTATION } from './verifies';
import { currentTest } from './current-test';

export { EXAMPLE_MARK } from '../../requirements/observed';

/** Records what the server does where the document is silent (an OBSERVED requirement): reported, never failed. */
export function observe(id: string, value: string): void {
  const r = requirement(id);
  if (r.level !== 'OBSERVED') throw new Error(`observe(${id}): ${id} is ${r.level}, not OBSERVED; check it instead`);
  currentTest()?.annotations.push({ type: OBSERVATION_ANNOTATION, description: `${id}: ${value}` });
}
