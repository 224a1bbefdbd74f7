import fc from 'fast-check';
import { deletedOnGet } from '../checks/deletion';
import { getAccepted, storedAsSent, updateVisibleOnGet } from '../checks/orders';
import { requestLabel } from '../contract/operations';
import { apiOf, idOf, OrderCommand, type OrdersModel, type OrdersReal } from './model';

/**
 * GET /orders/{id} of one of the run's orders, by its owner: a live order shows what the model
 * expects; a deleted one answers 404 or 410, or comes back with deleted_at set (soft delete).
 */
export class GetOrder extends OrderCommand {
  constructor(readonly pick: number) {
    super();
  }

  check(model: Readonly<OrdersModel>): boolean {
    return model.orders.length > 0;
  }

  async run(model: OrdersModel, real: OrdersReal): Promise<void> {
    const order = (this.target = OrderCommand.pickFrom(model.orders, this.pick)!);
    const exchange = await apiOf(real, order.account).get(idOf(real, order));
    if (order.deleted) {
      real.stopOn(deletedOnGet(`order #${order.handle}, deleted`, order.asCreated, exchange));
      return;
    }
    real.stopOn(getAccepted(exchange));
    real.stopOn((order.updated ? updateVisibleOnGet : storedAsSent)(order.expected, exchange, `order #${order.handle}`));
  }

  toString(): string {
    return `${requestLabel('getOrder', this.targetLabel)} as ${this.target?.account ?? '?'}`;
  }

  [fc.cloneMethod](): GetOrder {
    return new GetOrder(this.pick);
  }
}
