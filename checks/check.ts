import type { Exchange } from '../harness/http/exchange';
import type { Finding } from '../harness/record/findings';
import type { Judged } from '../harness/record/checked-on';

/** A check: an exchange judged against one requirement; undefined when the requirement holds. */
export type Check = (exchange: Exchange) => Finding | undefined;

/**
 * A judgement several requirements share, not yet bound to one: whether it holds, what to report when
 * it does not, and the responses it judged. A named check binds it with `unless('ORD-…', ...verdict)`,
 * so that each requirement's id stands in checks/ beside the function that judges it.
 */
export type Verdict = [holds: boolean, details: () => Omit<Finding, 'requirementId'>, on: Judged];
