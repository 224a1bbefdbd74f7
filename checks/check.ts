import type { Exchange } from '../contract/exchange';
import type { Finding } from './finding';

/**
 * What a check returns: the requirement it judged, the responses it judged it on, and the violation it
 * found, if any. A check sends nothing and records nothing: the harness records a judgement in one place
 * (harness/record/findings.ts: the requirement reached, each response checked on, the finding attached),
 * and `oms-conformance judge` reads the same judgements from recorded traffic.
 */
export interface Judgement {
  readonly requirementId: string;
  /** The responses judged, met or not (the coverage matrix counts each for the requirement). */
  readonly on: readonly Exchange[];
  /** The violation, or undefined when the requirement held. */
  readonly finding?: Finding;
}

/** A check: an exchange judged against one requirement; undefined when there was nothing to judge. */
export type Check = (exchange: Exchange) => Judgement | undefined;

/** The responses a judgement was made on: one, several, or none (a judgement about no one response). */
export type Judged = Exchange | readonly (Exchange | undefined)[] | undefined;

/**
 * A judgement several requirements share, not yet bound to one: whether it holds, what to report when
 * it does not, and the responses it judged. A named check binds it with `unless('ORD-…', ...verdict)`,
 * so that each requirement's id stands in checks/ beside the function that judges it.
 */
export type Verdict = [holds: boolean, details: () => Omit<Finding, 'requirementId'>, on: Judged];

/**
 * The one way a judgement is written: the requirement it holds the server to, the condition, what to
 * report when the condition is false, and the responses it judged (`on`; undefined for a judgement about
 * no one response). Met or not, the judgement says the requirement was reached on those responses: a test
 * that verifies a requirement but never got to judge it does not pass it.
 */
export function unless(requirementId: string, condition: boolean, details: () => Omit<Finding, 'requirementId'>, on: Judged): Judgement {
  const responses = (Array.isArray(on) ? on : [on]).filter((exchange): exchange is Exchange => exchange !== undefined);
  return condition ? { requirementId, on: responses } : { requirementId, on: responses, finding: { requirementId, ...details() } };
}

/** Judgements made in turn: what a check of several requirements returns, its last one the violation, if any. */
export type Judgements = readonly Judgement[];

/**
 * Judges in turn, each step only while the ones before it held (as `a ?? b` did with findings): every
 * judgement made, the first violation last. A step may return one judgement, several, or none.
 */
export function inTurn(...steps: Array<() => Judgement | Judgements | undefined>): Judgements {
  const made: Judgement[] = [];
  for (const step of steps) {
    const result = step();
    for (const judgement of result === undefined ? [] : 'requirementId' in result ? [result] : result) {
      made.push(judgement);
      if (judgement.finding) return made;
    }
  }
  return made;
}

/** The first violation among judgements, if any. */
export function violationIn(judgements: Judgement | Judgements | undefined): Finding | undefined {
  if (judgements === undefined) return undefined;
  return 'requirementId' in judgements ? judgements.finding : judgements.find((judgement) => judgement.finding)?.finding;
}
