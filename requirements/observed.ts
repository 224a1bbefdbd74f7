/**
 * Where an observation goes on to one instance of the behaviour (an id, a timestamp, a count of this
 * run), the instance follows this mark, last: `oms-conformance diff` compares what comes before it.
 * (Apart from harness/record/observe.ts, which records observations in a test: reading them needs no Playwright.)
 */
export const EXAMPLE_MARK = ' (e.g. ';

/** The behaviour an observation records, without the instance that illustrates it. */
export function observedBehaviour(observation: string): string {
  const at = observation.indexOf(EXAMPLE_MARK);
  return at < 0 ? observation : observation.slice(0, at);
}
