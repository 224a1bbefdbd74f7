import fc from 'fast-check';
import { requestLabel } from '../contract/operations';
import type { Exchange } from '../contract/exchange';
import type { Judgement } from '../checks/check';
import { otherAccountCannotDelete, otherAccountCannotRead, otherAccountCannotUpdate } from '../checks/isolation';
import type { Payload } from '../generators/schema';
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
    real.stopOn(this.refused(order, exchange));
  }

  protected abstract send(real: OrdersReal, order: OwnOrder): Promise<Exchange>;
  protected abstract refused(order: OwnOrder, exchange: Exchange): Judgement | undefined;

  /** What the other account reaches for, in words: "account B's update of account A's order #2". */
  protected static reach(verb: string, order: OwnOrder): string {
    return `account ${otherAccount(order.account)}'s ${verb} of account ${order.account}'s order #${order.handle}`;
  }

  protected get intruder(): string {
    return this.target ? otherAccount(this.target.account) : '?';
  }
}

export class ForeignGet extends ForeignCommand {
  protected send(real: OrdersReal, order: OwnOrder): Promise<Exchange> {
    return apiOf(real, otherAccount(order.account)).get(idOf(real, order));
  }

  protected refused(order: OwnOrder, exchange: Exchange): Judgement | undefined {
    return otherAccountCannotRead(ForeignCommand.reach('get', order))(exchange);
  }

  toString(): string {
    return `${requestLabel('getOrder', this.targetLabel)} as ${this.intruder} (not its order)`;
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

  protected refused(order: OwnOrder, exchange: Exchange): Judgement | undefined {
    return otherAccountCannotUpdate(ForeignCommand.reach('update', order))(exchange);
  }

  toString(): string {
    return `${requestLabel('updateOrder', this.targetLabel)} as ${this.intruder} (not its order) ${bodyText(this.body)}`;
  }

  [fc.cloneMethod](): ForeignUpdate {
    return new ForeignUpdate(this.pick, this.body);
  }
}

export class ForeignDelete extends ForeignCommand {
  protected send(real: OrdersReal, order: OwnOrder): Promise<Exchange> {
    return apiOf(real, otherAccount(order.account)).delete(idOf(real, order));
  }

  protected refused(order: OwnOrder, exchange: Exchange): Judgement | undefined {
    return otherAccountCannotDelete(ForeignCommand.reach('delete', order))(exchange);
  }

  toString(): string {
    return `${requestLabel('deleteOrder', this.targetLabel)} as ${this.intruder} (not its order)`;
  }

  [fc.cloneMethod](): ForeignDelete {
    return new ForeignDelete(this.pick);
  }
}
