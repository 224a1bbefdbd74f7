import { operationOf } from '../contract/operations';
import { isAboutCredentials, type Evidence } from './evidence';

/**
 * What a failure's curl line needs besides the server to show the same answer: the state the account was
 * in during the run, which the run made itself (it filled the account, created the order) and undid at its
 * end. Undefined when the line reproduces on its own (an unknown id, a refused create).
 */
export function stateNeeded(evidence: Evidence): string | undefined {
  const { request, response, context } = evidence;
  if (!request || !response) return undefined;
  const operation = operationOf(request.method, request.path);
  // Whether credentials are refused or taken does not hang on the orders an account holds.
  if (operation === 'listOrders' && response.total !== undefined && response.total > 0 && !isAboutCredentials(evidence.requirementId)) {
    return `an account holding ${response.total} orders, as during the run${response.total > 100 ? ' (more than one page of 100)' : ''}: the run created orders to get there and deleted its own at its end, so on a fresh account create them first.`;
  }
  // A request to an id the run knew unknown reproduces as it is.
  const ofAnOrder = operation === 'getOrder' || operation === 'updateOrder' || operation === 'deleteOrder';
  if (ofAnOrder && context?.ownForm === undefined && response.status >= 200 && response.status < 300) {
    return 'the order in the URL, which existed during the run: the run deleted the orders it created at its end, so create one and put its id in the URL.';
  }
  return undefined;
}
