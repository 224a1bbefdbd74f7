import type { OperationId } from './openapi';
import { requestLine, type RequestLine } from './operations';
import { hasLoneSurrogate } from '../config/safe-text';

/** Why an order id cannot be one path segment, or undefined when it can; "%2e%2e" and "a%2Fb" count as what they decode to. */
export function notOnePathSegment(id: string): string | undefined {
  let decoded = id;
  try {
    decoded = decodeURIComponent(id);
  } catch {
    // Not percent-encoded text: the id stands for itself.
  }
  if (id === '') return 'it is empty, so the path would be /orders/ (another resource)';
  if ([id, decoded].some((form) => form === '.' || form === '..')) return 'it is a dot segment, which URL parsing resolves away (/orders/.. is /)';
  if ([id, decoded].some((form) => form.includes('/'))) return 'it holds "/", which servers and proxies read as a path separator';
  if (hasLoneSurrogate(id)) return 'it holds a lone UTF-16 surrogate, which has no UTF-8 form to put in a URL';
  return undefined;
}

/**
 * A request to an operation on one order (getOrder, updateOrder, deleteOrder), the id percent-encoded as
 * one segment: the one place an order's path is built. Throws for an id that cannot be one; the suite's
 * api (orderRequest in api.ts) turns that into a finding first.
 */
export function orderRequestLine(operationId: OperationId, id: string): RequestLine {
  const reason = notOnePathSegment(id);
  if (reason) throw new Error(`order id ${JSON.stringify(id)} cannot be one path segment: ${reason}`);
  return requestLine(operationId, id);
}
