import fc from 'fast-check';
import { excerpt } from '../../contract/openapi';
import { showsDeleted } from '../../checks/deletion';
import { is2xx } from '../../checks/body';
import { stopOn } from '../../harness/property';
import { unless } from '../../harness/findings';
import { carriesWhatWasSent } from '../../harness/orders';
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
      const deletedAt = (exchange.json as { deleted_at?: unknown } | undefined)?.deleted_at;
      const success = exchange.status >= 200 && exchange.status < 300;
      stopOn(
        unless('ORD-DELETE-002', exchange.status === 404 || exchange.status === 410 || (success && showsDeleted(order.liveDeletedAt, exchange.json)), () => ({
          expected: `order #${order.handle}, deleted: 404 or 410, or the order with deleted_at set`,
          received: success ? `${exchange.status} with deleted_at ${excerpt(deletedAt)}` : `${exchange.status}`,
          exchange,
        })),
      );
      return;
    }
    stopOn(is2xx('ORD-GET-001')(exchange));
    stopOn(carriesWhatWasSent(order.updated ? 'ORD-UPDATE-003' : 'ORD-GET-002', order.expected, exchange, `order #${order.handle}`));
  }

  toString(): string {
    return `GET /orders/${this.targetLabel} as ${this.target?.account ?? '?'}`;
  }

  [fc.cloneMethod](): GetOrder {
    return new GetOrder(this.pick);
  }
}
