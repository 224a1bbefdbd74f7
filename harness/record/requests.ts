import type { Sender } from '../http/stage';
import type { Exchange } from '../../contract/exchange';
import { currentTest, type TestRecord } from './current-test';

/** Annotation type of a request that waited out 429/503 answers; its description starts with the count. */
export const RATE_LIMIT_ANNOTATION = 'rate-limit-retries';

/** What a test sent: its requests, retries counted, and its longest chain of requests each of which began only after the one before it ended. */
interface Traffic {
  requests: number;
  /** The longest chain among the requests that have ended. */
  longest: number;
}

const traffic = new WeakMap<TestRecord, Traffic>();

function trafficOf(record: TestRecord): Traffic {
  let counted = traffic.get(record);
  if (!counted) traffic.set(record, (counted = { requests: 0, longest: 0 }));
  return counted;
}

/**
 * The record stage of the request pipeline: the request counted on the test that sent it, however its requests
 * interleave with other tests' (each request one link longer than the longest chain that had ended when it
 * began: what the test could take at best across a network is that many round trips); the exchange handed to
 * whoever records the requests of a generated run; the retries a rate limit cost, annotated for the report.
 */
export function recorded(next: Sender): Sender {
  return {
    async send(request) {
      const record = currentTest();
      const counted = record && trafficOf(record);
      const depth = (counted?.longest ?? 0) + 1;
      let exchange: Exchange | undefined;
      try {
        exchange = await next.send(request);
      } finally {
        if (counted) {
          counted.longest = Math.max(counted.longest, depth);
          counted.requests += 1 + (exchange?.retries ?? 0);
        }
      }
      // Counted in the report; a wait for a rate limit is never evidence about a requirement.
      if (exchange.retries) record?.annotations.push({ type: RATE_LIMIT_ANNOTATION, description: `${exchange.retries} ${request.spec.method} ${request.spec.path}` });
      request.onExchange?.(exchange);
      return exchange;
    },
  };
}

/** The requests a test sent, retries included, and its longest chain of dependent ones. */
export function trafficOfTest(record: TestRecord): { requests: number; chain: number } {
  const { requests, longest } = trafficOf(record);
  return { requests, chain: longest };
}
