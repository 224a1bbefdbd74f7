import { sentAsOne } from '../http/gate';

/**
 * Promise.all that waits for every request before it throws: a test never ends, stopped by a finding or a
 * skip, with requests of its own still in flight, whose answers would be judged in whichever test came next.
 */
export async function together<T>(promises: Iterable<Promise<T>>): Promise<T[]> {
  const outcomes = await Promise.allSettled(promises);
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}

/** together for two promises of different kinds, as Promise.all takes a pair. */
export async function both<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [first, second] = await together<unknown>([a, b]);
  return [first as A, second as B];
}

/**
 * together for requests that must meet the server at the same moment (creates racing for ids, the pages of one
 * list view): each takes a slot of the rate gate beyond the in-flight bound if it must, so none waits for the
 * requests of other tests running beside it (the rate cap and 429 pauses still hold).
 */
export function atOnce<T>(requests: () => Array<Promise<T>>): Promise<T[]> {
  return sentAsOne(() => together(requests()));
}
