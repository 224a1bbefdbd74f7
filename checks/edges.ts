import type { Exchange } from '../contract/exchange';
import { mayBeRefused } from './orders';
import { refusableBodyAnswered, wrongTypeRefused } from './invalid-input';
import { differences } from './roundtrip';
import { heldTo, type Circumstances, type SentValue } from './readings';
import { isSuccess } from './status';
import type { Check, Judgement } from './check';

/**
 * Judgements of the edge catalogue (generators/coverage.ts): values sent on purpose where parsers and
 * storage break. Each is answered as one of its readings (checks/readings.ts) allows: refused with a 4xx where a
 * server may refuse it, or taken and come back as that reading says; never a 5xx, never a silently changed value.
 */

/** A body of edge values as sent: what it denotes (what must come back where it is taken), and its values by JSON pointer, each with its readings. */
export interface EdgesSent {
  /** The body's name, for a failure about all of it. */
  name: string;
  denoted: unknown;
  cases: readonly SentValue[];
}

/** A correct server may refuse the body: a value one of whose readings is a refusal, or a value whose limits are not shown (2.7). */
export function edgeMayBeRefused(sent: EdgesSent): boolean {
  return sent.cases.some(({ readings }) => readings.includes('refused')) || mayBeRefused(sent.denoted);
}

/** The judgement with the coverage case named in what its finding expected, so a failure names the value that broke it. */
export function naming(judgement: Judgement | undefined, name: string): Judgement | undefined {
  if (!judgement?.finding) return judgement;
  return { ...judgement, finding: { ...judgement.finding, expected: `${judgement.finding.expected} (coverage case: ${name})` } };
}

/**
 * A create or update of edge values answered as their readings allow (`accept`: the acceptance check of the
 * operation). A value whose only reading is a refusal is refused with a 4xx (ORD-ERR-004); a value of another
 * type (coercible, or one a lax binder may drop) is refused with a 4xx or taken, and then judged by what came
 * back; a value a server may refuse, taken or refused with 400, 413 or 422 (ORD-ERR-008); any other taken.
 * Never a 5xx.
 */
export function edgesAnswered(sent: EdgesSent, exchange: Exchange, accept: Check): Judgement | undefined {
  const what = `a body where ${sent.name}`;
  if (sent.cases.some(({ readings }) => readings.every((reading) => reading === 'refused'))) return naming(wrongTypeRefused(what)(exchange), sent.name);
  if (sent.cases.some(({ kind }) => kind === 'coercible' || kind === 'wrong-type')) return isSuccess(exchange.status) ? undefined : naming(wrongTypeRefused(what)(exchange), sent.name);
  if (edgeMayBeRefused(sent)) return refusableBodyAnswered(what, exchange);
  return naming(accept(exchange), sent.name);
}

/**
 * A round trip (createAnswersWhatWasSent, storedAsSent, updateAnswersWhatWasSent …) of what the body denotes, each
 * value held to the first of its readings that explains what came back (`circumstances`: the order before an
 * update, the answers of control requests to its neighbours); its finding names the values no reading explains,
 * with the readings tried.
 */
export function edgesComeBack(
  sent: EdgesSent,
  exchange: Exchange,
  roundTrip: (denoted: unknown, exchange: Exchange, what: string) => Judgement | undefined,
  what: string,
  circumstances: Circumstances = {},
): Judgement | undefined {
  const { expected, unexplained } = heldTo(sent.denoted, sent.cases, exchange.json, circumstances);
  const differing = differences(expected, exchange.json).map(({ pointer }) => pointer);
  const under = (pointer: string, at: string) => pointer === at || pointer.startsWith(`${at}/`) || pointer.startsWith(`${at} `);
  const named = unexplained.length > 0 ? unexplained : sent.cases.filter((value) => differing.some((pointer) => under(pointer, value.pointer))).map((value) => value.name);
  return roundTrip(expected, exchange, `${what} (coverage case: ${named.length > 0 ? named.join('; ') : sent.name})`);
}
