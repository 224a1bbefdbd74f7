import { responseChecks, responseRequirements } from '../../checks/body';
import type { Exchange } from '../../contract/exchange';
import type { Sender } from '../http/stage';
import { InconclusiveError } from '../http/client';
import { RateLimitedError } from '../http/pace';
import { check } from './findings';
import { recordCheckedOn } from './checked-on';
import { currentTest } from './current-test';
import { skipTest } from './skips';
import { judgeOutsideTests } from './outside-tests';

/**
 * The checks stage of the request pipeline, outermost: every answer held to what every response must be
 * (checks/body.ts responseChecks), in the test that sent it, or, for a request outside any test (the worker's
 * cleanup), filed for the report under where it was made. A request that got no answer to judge is no evidence
 * either way: the test is skipped with the server as its cause.
 */
export function checked(next: Sender): Sender {
  return {
    async send(request) {
      let exchange: Exchange;
      try {
        exchange = await next.send(request);
      } catch (error) {
        if (currentTest()) withoutAnswer(error);
        throw error;
      }
      if (currentTest()) judgeResponse(exchange);
      else judgeOutsideTests(request.outside ?? `a request outside any test (account ${request.account})`, exchange);
      return exchange;
    },
  };
}

/** An exchange held in the current test to what every response must be: the checks every response gets, whether one judged here (meta.status where there is one) or not. */
export function judgeResponse(exchange: Exchange): Exchange {
  for (const finding of responseChecks(exchange)) check(finding);
  for (const requirementId of responseRequirements(exchange)) recordCheckedOn(requirementId, exchange);
  return exchange;
}

/** A transport failure as the current test takes it: a rate limit that outlasted the retries, a reset or a silent server is a skip with the server as its cause; anything else is thrown on. */
function withoutAnswer(error: unknown): void {
  if (error instanceof RateLimitedError) skipTest({ kind: 'server', reason: `rate limited: ${error.message}` });
  if (error instanceof InconclusiveError) skipTest({ kind: 'server', reason: error.message });
}
