import { currentTest } from './current-test';

/** Annotation type of a cut: a JSON `Cut` in its description (data, never parsed out of prose). */
export const CUT_ANNOTATION = 'oms-cut';

/**
 * Something a test planned and did not do, and why: generated runs a budget or a stop left unmade.
 * The reporter lists every cut (report.json, index.html, the terminal) and weighs it in the verdict.
 */
export interface Cut {
  /** What was cut, counted in `made` and `planned`. */
  unit: 'generated runs' | 'command sequences' | 'probes';
  made: number;
  planned: number;
  /** Requests the test sent on them (shrinking included). */
  requests: number;
  /**
   * budget: the effort's request budget (configuration: a thorough effort completes it);
   * server: the server stopped answering, or rate limits outlasted the retries;
   * interrupted: the run was stopped (Ctrl-C, a global timeout);
   * configuration: what the run was given keeps them back (an account holding others' orders), `settings` says what would not.
   */
  cause: 'budget' | 'server' | 'interrupted' | 'configuration';
  /** configuration: what would let the rest be made. */
  settings?: string[];
  /** One line: which limit cut it ("budget of 1500 requests reached"). */
  reason: string;
  /** Fewer runs than the effort's floor: the requirements the test verifies count as not checked. */
  belowFloor: boolean;
}

/** Annotation type of what a generated test ran: a JSON `GeneratedRuns` in its description. */
export const GENERATED_ANNOTATION = 'oms-generated';

/** What one generated test ran, cut or not: the report shows it for every generated test. */
export interface GeneratedRuns {
  unit: Cut['unit'];
  made: number;
  planned: number;
  /** Requests the test sent on them, shrinking included. */
  requests: number;
  /** The runs stopped at a failure: the rest of the plan was not needed for the verdict. */
  failed?: true;
  /** Counterexamples of the failure store (harness/failure-store.ts) run before the generated runs. */
  stored?: number;
}

/** Records on the current test what its generated runs made of what they planned. */
export function recordGeneratedRuns(runs: GeneratedRuns): void {
  currentTest()?.annotations.push({ type: GENERATED_ANNOTATION, description: JSON.stringify(runs) });
}

/** A generated test's record back from its annotation; undefined for anything else. */
export function generatedRunsOf(annotation: { type: string; description?: string }): GeneratedRuns | undefined {
  return countsOf<GeneratedRuns>(annotation, GENERATED_ANNOTATION);
}

/** Records a cut on the current test (outside a Playwright test there is nothing to record it on). */
export function recordCut(cut: Cut): void {
  currentTest()?.annotations.push({ type: CUT_ANNOTATION, description: JSON.stringify(cut) });
}

/** A cut back from its annotation; undefined for anything else. */
export function cutOf(annotation: { type: string; description?: string }): Cut | undefined {
  return countsOf<Cut>(annotation, CUT_ANNOTATION);
}

/** The JSON record of an annotation of this type that counts runs made of runs planned; undefined for anything else. */
function countsOf<T extends { made: number; planned: number }>(annotation: { type: string; description?: string }, type: string): T | undefined {
  if (annotation.type !== type || !annotation.description) return undefined;
  try {
    const record = JSON.parse(annotation.description) as T;
    return typeof record?.made === 'number' && typeof record.planned === 'number' ? record : undefined;
  } catch {
    return undefined;
  }
}
