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
export function requestPipeline({ transport, gate, created, readOnly }: { transport: Sender; gate: RequestGate; created: CreatedOrders; readOnly: boolean }): Sender {
  return checked(recorded(readOnlyGuarded(created.owning(ledgered(gate.gating(transport))), readOnly)));
}

/** The order operations of an account whose requests go out through its client, the worker's gate and the orders it created. */
export function accountApi(
  account: AccountName,
  { client, gate, created }: { client: Sender & Pick<OmsClient, 'baseUrl' | 'bearerToken'>; gate: RequestGate; created: CreatedOrders },
  options: ApiOptions,
): OmsApi {
  return new OmsApi(account, requestPipeline({ transport: client, gate, created, readOnly: options.readOnly }), client, created, options);
}
