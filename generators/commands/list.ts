import fc from 'fast-check';
import { contract, excerpt } from '../../contract/openapi';
import { project } from '../../contract/projection';
import type { AccountName } from '../../harness/api';
import { is2xx } from '../../checks/body';
import { stopOn } from '../../harness/property';
import { unless } from '../../harness/findings';
import { readPage } from '../../harness/listing';
import { differences, formatDifferences } from '../../checks/roundtrip';
import { apiOf, idOf, liveOrders, OrderCommand, otherAccount, type OrdersModel, type OrdersReal } from './model';

/**
 * GET /orders?limit=L as one account. Other clients may write to the account, so only what holds
 * whatever they do is checked: at most L orders, meta.total at least the run's live orders there,
 * the run's orders listed with the values the model expects, and none of the other account's.
 */
export class ListOrders extends OrderCommand {
  constructor(
    readonly account: AccountName,
    readonly limit: number,
  ) {
    super();
  }

  check(model: Readonly<OrdersModel>): boolean {
    return model.accounts.includes(this.account);
  }

  async run(model: OrdersModel, real: OrdersReal): Promise<void> {
    const exchange = await apiOf(real, this.account).list({ limit: this.limit });
    stopOn(is2xx('ORD-LIST-001')(exchange));
    const page = readPage({ limit: this.limit }, exchange);
    stopOn(
      unless('ORD-LIST-004', page.data.length <= this.limit, () => ({
        expected: `at most ${this.limit} orders`,
        received: `${page.data.length} orders`,
        exchange,
      })),
    );
    const live = liveOrders(model, this.account).length;
    stopOn(
      unless('ORD-LIST-007', typeof page.total === 'number' && page.total >= live, () => ({
        expected: `meta.total at least ${live}: this run alone holds ${live} orders in account ${this.account}`,
        received: `meta.total ${excerpt(page.total)}`,
        exchange,
      })),
    );
    const summary = contract().schema('OrderSummary');
    for (const order of model.orders) {
      const position = page.ids.indexOf(idOf(real, order));
      if (position === -1) continue;
      stopOn(
        unless('ORD-ISO-001', order.account === this.account, () => ({
          expected: `no order of account ${otherAccount(this.account)} in the list of account ${this.account}`,
          received: `order #${order.handle} of account ${order.account} at position ${position + 1}`,
          exchange,
        })),
      );
      // A deleted order may stay listed (the effect of deletion is not shown): only live ones are compared.
      if (order.deleted) continue;
      const found = differences(project(order.expected, summary), page.data[position]);
      stopOn(
        unless('ORD-LIST-008', found.length === 0, () => ({
          expected: `the summary of order #${order.handle} to carry the values it was sent (fields of 2.7)`,
          received: `${found.length} field(s) differ:\n${formatDifferences(found.map((d) => ({ ...d, pointer: `/data/${position}${d.pointer}` })))}`,
          exchange,
        })),
      );
    }
  }

  toString(): string {
    return `GET /orders?limit=${this.limit} as ${this.account}`;
  }

  [fc.cloneMethod](): ListOrders {
    return new ListOrders(this.account, this.limit);
  }
}
