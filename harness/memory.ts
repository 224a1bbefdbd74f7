import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let fullCollection: (() => void) | undefined;

/**
 * A full garbage collection now. A worker left to V8's own pace keeps what a test of many requests left behind
 * (generated inputs, exchanges, bodies) until its heap nears its limit: a thorough run's workers held 200 to
 * 340 MB each, over 1 GiB in all. Collected after such a test, a worker stays near 200 MB, and nothing is
 * capped: a test that needs more memory still gets it.
 */
export function collectGarbage(): void {
  if (!fullCollection) {
    // V8's gc() without --expose-gc on the command line, which NODE_OPTIONS does not take on Node 20.
    setFlagsFromString('--expose-gc');
    fullCollection = runInNewContext('gc') as () => void;
  }
  fullCollection();
}
