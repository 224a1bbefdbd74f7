import fc from 'fast-check';
import { deleteAccepted } from '../checks/deletion';
import { requestLabel } from '../contract/operations';
import { apiOf, idOf, liveOrders, OrderCommand, type OrdersModel, type OrdersReal } from './model';

/** DELETE /orders/{id} of a live order of the run, by its owner: accepted; later gets see it deleted. */
export class DeleteOrder extends OrderCommand {
  constructor(readonly pick: number) {
    super();
  }

  check(model: Readonly<OrdersModel>): boolean {
    return liveOrders(model).length > 0;
  }

  async run(model: OrdersModel, real: OrdersReal): Promise<void> {
    const order = (this.target = OrderCommand.pickFrom(liveOrders(model), this.pick)!);
    real.stopOn(deleteAccepted(await apiOf(real, order.account).delete(idOf(real, order))));
    order.deleted = true;
  }

  toString(): string {
    return `${requestLabel('deleteOrder', this.targetLabel)} as ${this.target?.account ?? '?'}`;
  }

  [fc.cloneMethod](): DeleteOrder {
    return new DeleteOrder(this.pick);
  }
}
