import fc from 'fast-check';
import { excerpt } from '../../contract/openapi';
import type { AccountName } from '../../harness/api';
import { is2xx } from '../../checks/body';
import { stopOn } from '../../harness/property';
import type { Exchange } from '../../harness/http/exchange';
import { unless, type Finding } from '../../harness/findings';
import { carriesWhatWasSent } from '../../harness/orders';
import { acceptanceRequirement } from '../order';
import { holdsExoticValue } from '../exotic';
import type { Payload } from '../schema';
import { apiOf, bodyText, OrderCommand, type OrdersModel, type OrdersReal } from './model';

/** POST /orders as one account: accepted, answered with every field sent; the model gains the order. */
export class CreateOrder extends OrderCommand {
  constructor(
    readonly account: AccountName,
    readonly body: Payload<'OrderCreate'>,
  ) {
    super();
  }

  check(model: Readonly<OrdersModel>): boolean {
    return model.accounts.includes(this.account);
  }

  async run(model: OrdersModel, real: OrdersReal): Promise<void> {
    const exchange = await apiOf(real, this.account).create(this.body);
    // Exotic values may be refused (ORD-OBS-017): such a run proves nothing either way.
    if (holdsExoticValue(this.body) && exchange.status >= 400 && exchange.status < 500) fc.pre(false);
    stopOn(is2xx(acceptanceRequirement(this.body))(exchange));
    stopOn(idAssigned(exchange));
    const id = (exchange.json as { id: string }).id;
    stopOn(carriesWhatWasSent('ORD-CREATE-004', this.body, exchange, 'the create response'));
    this.target = { handle: model.orders.length + 1, account: this.account, expected: structuredClone(this.body), updated: false, deleted: false, liveDeletedAt: (exchange.json as { deleted_at?: unknown }).deleted_at };
    model.orders.push(this.target);
    real.ids.set(this.target.handle, id);
  }

  toString(): string {
    return `POST /orders as ${this.account} ${bodyText(this.body)} → ${this.targetLabel}`;
  }

  [fc.cloneMethod](): CreateOrder {
    return new CreateOrder(this.account, this.body);
  }
}

/** The create answer carries the id the service assigned: a non-empty string (ORD-CREATE-003). */
export function idAssigned(exchange: Exchange): Finding | undefined {
  const id = (exchange.json as { id?: unknown } | undefined)?.id;
  return unless('ORD-CREATE-003', typeof id === 'string' && id !== '', () => ({
    expected: 'id: a non-empty string assigned by the service',
    received: `id ${excerpt(id)}`,
    exchange,
  }));
}
