import fc from 'fast-check';
import type { Exchange } from '../../harness/http/exchange';
import { stopOn } from '../../harness/property';
import { unless, type Finding } from '../../harness/findings';
import type { Payload } from '../schema';
import { apiOf, bodyText, idOf, liveOrders, OrderCommand, otherAccount, type OrdersModel, type OrdersReal, type OwnOrder } from './model';

/**
 * The other account reaching for an order of the run (ORD-ISO-001..003): a get, an update or a
 * delete, each refused. The model does not change, so later commands show the order untouched.
 */
abstract class ForeignCommand extends OrderCommand {
  constructor(readonly pick: number) {
    super();
  }

  /** Live orders whose owner has another account in the run. */
  protected static reachable(model: Readonly<OrdersModel>): OwnOrder[] {
    return liveOrders(model).filter((order) => model.accounts.includes(otherAccount(order.account)));
  }

  check(model: Readonly<OrdersModel>): boolean {
    return ForeignCommand.reachable(model).length > 0;
  }

  async run(model: OrdersModel, real: OrdersReal): Promise<void> {
    const order = (this.target = OrderCommand.pickFrom(ForeignCommand.reachable(model), this.pick)!);
    const exchange = await this.send(real, order);
    stopOn(this.refused(order, exchange));
  }

  protected abstract send(real: OrdersReal, order: OwnOrder): Promise<Exchange>;
  protected abstract refused(order: OwnOrder, exchange: Exchange): Finding | undefined;

  /** An update or delete by the other account must be refused (any non-2xx). */
  protected static refusedChange(requirementId: string, verb: string, order: OwnOrder, exchange: Exchange): Finding | undefined {
    return unless(requirementId, exchange.status < 200 || exchange.status >= 300, () => ({
      expected: `account ${otherAccount(order.account)} cannot ${verb} order #${order.handle} of account ${order.account}: refused`,
      received: `${exchange.status}: it was accepted`,
      exchange,
    }));
  }

  protected get intruder(): string {
    return this.target ? otherAccount(this.target.account) : '?';
  }
}

export class ForeignGet extends ForeignCommand {
  protected send(real: OrdersReal, order: OwnOrder): Promise<Exchange> {
    return apiOf(real, otherAccount(order.account)).get(idOf(real, order));
  }

  protected refused(order: OwnOrder, exchange: Exchange): Finding | undefined {
    return unless('ORD-ISO-001', [403, 404, 410].includes(exchange.status), () => ({
      expected: `account ${otherAccount(order.account)} cannot read order #${order.handle} of account ${order.account}: 404, 403 or 410`,
      received: `${exchange.status}`,
      exchange,
    }));
  }

  toString(): string {
    return `GET /orders/${this.targetLabel} as ${this.intruder} (not its order)`;
  }

  [fc.cloneMethod](): ForeignGet {
    return new ForeignGet(this.pick);
  }
}

export class ForeignUpdate extends ForeignCommand {
  constructor(
    pick: number,
    readonly body: Payload<'OrderUpdate'>,
  ) {
    super(pick);
  }

  protected send(real: OrdersReal, order: OwnOrder): Promise<Exchange> {
    return apiOf(real, otherAccount(order.account)).update(idOf(real, order), this.body);
  }

  protected refused(order: OwnOrder, exchange: Exchange): Finding | undefined {
    return ForeignCommand.refusedChange('ORD-ISO-002', 'change', order, exchange);
  }

  toString(): string {
    return `PUT /orders/${this.targetLabel} as ${this.intruder} (not its order) ${bodyText(this.body)}`;
  }

  [fc.cloneMethod](): ForeignUpdate {
    return new ForeignUpdate(this.pick, this.body);
  }
}

export class ForeignDelete extends ForeignCommand {
  protected send(real: OrdersReal, order: OwnOrder): Promise<Exchange> {
    return apiOf(real, otherAccount(order.account)).delete(idOf(real, order));
  }

  protected refused(order: OwnOrder, exchange: Exchange): Finding | undefined {
    return ForeignCommand.refusedChange('ORD-ISO-003', 'delete', order, exchange);
  }

  toString(): string {
    return `DELETE /orders/${this.targetLabel} as ${this.intruder} (not its order)`;
  }

  [fc.cloneMethod](): ForeignDelete {
    return new ForeignDelete(this.pick);
  }
}
