import fc from 'fast-check';
import { requestLabel } from '../contract/operations';
import type { AccountName } from '../config/settings';
import type { AsCreated } from '../checks/deletion';
import { createAcceptedFor, createAnswersWhatWasSent, refusalProvesNothing, idAssigned } from '../checks/orders';
import { acceptedUnlessRefusable } from '../checks/invalid-input';
import type { Payload } from '../generators/schema';
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
    if (refusalProvesNothing(this.body, exchange)) fc.pre(false);
    real.stopOn(acceptedUnlessRefusable(this.body, createAcceptedFor(this.body))(exchange));
    real.stopOn(idAssigned(exchange));
    const id = (exchange.json as { id: string }).id;
    real.stopOn(createAnswersWhatWasSent(this.body, exchange));
    this.target = { handle: model.orders.length + 1, account: this.account, expected: structuredClone(this.body), updated: false, deleted: false, asCreated: { created_at: (exchange.json as AsCreated).created_at, deleted_at: (exchange.json as AsCreated).deleted_at } };
    model.orders.push(this.target);
    real.ids.set(this.target.handle, id);
  }

  toString(): string {
    return `${requestLabel('createOrder')} as ${this.account} ${bodyText(this.body)} → ${this.targetLabel}`;
  }

  [fc.cloneMethod](): CreateOrder {
    return new CreateOrder(this.account, this.body);
  }
}
