import fc from 'fast-check';
import { refusalProvesNothing, updateAccepted, updateAnswersWhatWasSent, updateKeepsId } from '../checks/orders';
import { requestLabel } from '../contract/operations';
import { acceptedUnlessRefusable } from '../checks/invalid-input';
import { differences } from '../checks/roundtrip';
import type { Payload } from '../generators/schema';
import { apiOf, bodyText, idOf, liveOrders, OrderCommand, type OrdersModel, type OrdersReal } from './model';

/**
 * PUT /orders/{id} of a live order of the run, by its owner: accepted, answered with every field
 * sent and the same id. Whether omitted fields are kept or cleared is not shown (4.4): the model
 * keeps expecting an omitted field only where the answer kept it.
 */
export class UpdateOrder extends OrderCommand {
  constructor(
    readonly pick: number,
    readonly body: Payload<'OrderUpdate'>,
  ) {
    super();
  }

  check(model: Readonly<OrdersModel>): boolean {
    return liveOrders(model).length > 0;
  }

  async run(model: OrdersModel, real: OrdersReal): Promise<void> {
    const order = (this.target = OrderCommand.pickFrom(liveOrders(model), this.pick)!);
    const id = idOf(real, order);
    const exchange = await apiOf(real, order.account).update(id, this.body);
    // Exotic values may be refused (ORD-OBS-017): such a run proves nothing either way.
    if (refusalProvesNothing(this.body, exchange)) fc.pre(false);
    real.stopOn(acceptedUnlessRefusable(this.body, updateAccepted)(exchange));
    const answer = (exchange.json ?? {}) as Record<string, unknown>;
    real.stopOn(updateKeepsId(id, exchange));
    real.stopOn(updateAnswersWhatWasSent(this.body, exchange));
    const kept = Object.entries(order.expected).filter(
      ([field, value]) => !(field in this.body) && differences(value, answer[field], `/${field}`).length === 0,
    );
    order.expected = { ...Object.fromEntries(kept), ...structuredClone(this.body) };
    order.updated = true;
  }

  toString(): string {
    return `${requestLabel('updateOrder', this.targetLabel)} as ${this.target?.account ?? '?'} ${bodyText(this.body)}`;
  }

  [fc.cloneMethod](): UpdateOrder {
    return new UpdateOrder(this.pick, this.body);
  }
}
