import { valuesAt, withValueAt } from '../../../contract/assigned';
import type { StoredOrder } from '../../../reference/store';
import { callerOf, is, isSuccess, jsonBodyOf, onFullForm, type Hooks, type Json } from './kit';

/**
 * A server that takes the client's value for a field the service assigns (4.2, 2.3, 2.4): on create,
 * whatever the client sent at `path` replaces what the service assigned, in the stored order and the reply.
 * user_id is the account the store files the order under, so that one is shown rather than refiled.
 */
export function honoursClientValueOnCreate(path: string[]): Hooks {
  const shownUserIds = new Map<string, unknown>();
  return {
    rewriteReply: (request, reply, { services, accounts }) => {
      if (!is(request, 'create') || !isSuccess(reply)) {
        return onFullForm(request, reply, (order) => (shownUserIds.has(String(order.id)) ? { ...order, user_id: shownUserIds.get(String(order.id)) } : order));
      }
      const sent = jsonBodyOf(request);
      const values = valuesAt(sent, path);
      if (values.every((value) => value === undefined)) return reply;
      const order = reply.body as StoredOrder;
      let index = 0;
      const changed = withValueAt(order, path, (previous) => values[index++] ?? previous) as StoredOrder;
      const caller = callerOf(request, accounts);
      if (path.join('.') === 'user_id') shownUserIds.set(order.id, changed.user_id);
      else if (caller) {
        services.store.remove(caller.id, order.id);
        services.store.insert({ ...changed, user_id: caller.id });
      }
      return { ...reply, body: changed };
    },
  };
}

/** A server whose update gives new ids to the parts it keeps (2.3, 2.4): the customer and items the client did not resend. */
export function reassignsKeptIds(paths: string[][]): Hooks {
  return {
    rewriteReply: (request, reply, { services, accounts }) => {
      if (!is(request, 'update') || !isSuccess(reply)) return reply;
      const sent = (jsonBodyOf(request) ?? {}) as Json;
      const kept = paths.filter((path) => sent[path[0]] === undefined && valuesAt(reply.body, path).some((value) => value !== undefined));
      if (kept.length === 0) return reply;
      const changed = kept.reduce((order, path) => withValueAt(order, path, () => services.newId()), reply.body) as StoredOrder;
      const caller = callerOf(request, accounts);
      if (caller) services.store.replace({ ...changed, user_id: caller.id });
      return { ...reply, body: changed };
    },
  };
}
