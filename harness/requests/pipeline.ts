import type { OmsClient } from '../http/client';
import type { RequestGate } from '../http/gate';
import { ledgered } from '../http/ledger';
import type { Sender } from '../http/stage';
import { checked } from '../record/checked';
import { recorded } from '../record/requests';
import type { CreatedOrders } from './created-orders';
import { readOnlyGuarded } from './read-only';
import type { AccountName } from '../../config/settings';
import { OmsApi, type ApiOptions } from './api';

/**
 * The one way a request of the run goes out and comes back (harness/README.md walks a create through it).
 * Each stage does its part, hands the request to the one it wraps, and does the rest with the answer:
 * the read-only guard, ownership, the ledger, the rate gate (where the worker's scheduler ranks the requests
 * waiting for a slot), the transport; on the way back, the record of the test that sent it and the checks
 * every response gets.
 */
export function requestPipeline({ client, gate, created, readOnly }: { client: OmsClient; gate: RequestGate; created: CreatedOrders; readOnly: boolean }): Sender {
  return checked(recorded(readOnlyGuarded(created.owning(ledgered(gate.gating(client))), readOnly)));
}

/** The order operations of an account whose requests go out through its client, the worker's gate and the orders it created. */
export function accountApi(account: AccountName, parts: { client: OmsClient; gate: RequestGate; created: CreatedOrders }, options: ApiOptions): OmsApi {
  return new OmsApi(account, requestPipeline({ ...parts, readOnly: options.readOnly }), parts.client, parts.created, options);
}
