import { randomUUID } from 'node:crypto';
import type { OrderStore } from './store';

/** What routes need besides the request: storage, identifiers and the clock. Behaviours may wrap any of them. */
export interface Services {
  store: OrderStore;
  newId(): string;
  now(): string;
  /** A timestamp strictly after the given one, so updated_at always advances. */
  later(previous: string): string;
}

export function defaultServices(store: OrderStore): Services {
  return {
    store,
    newId: randomUUID,
    now: () => new Date().toISOString(),
    later: (previous) => new Date(Math.max(Date.now(), Date.parse(previous) + 1)).toISOString(),
  };
}
