import fc from 'fast-check';
import { requestLabel } from '../../contract/operations';
import type { AccountName } from '../../harness/api';
import { otherAccountCannotList } from '../../checks/isolation';
import { atMostLimit, listAccepted, readPage, searchOfPage, summaryCarriesWhatWasSent, totalAtLeast } from '../../checks/listing';
import { updateVisibleOnGet } from '../../checks/orders';
import { stopOn } from '../../harness/property';
import { apiOf, idOf, liveOrders, OrderCommand, type OrdersModel, type OrdersReal } from './model';

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
    stopOn(listAccepted(exchange));
    const page = readPage({ limit: this.limit }, exchange);
    stopOn(atMostLimit(page));
    const live = liveOrders(model, this.account).length;
    stopOn(totalAtLeast(page, live, `this run alone holds ${live} orders in account ${this.account}`));
    for (const order of model.orders) {
      const id = idOf(real, order);
      const position = page.ids.indexOf(id);
      if (order.account !== this.account) {
        stopOn(otherAccountCannotList(`order #${order.handle} of account ${order.account}`, `account ${this.account}`, searchOfPage(page), id));
        continue;
      }
      // A deleted order may stay listed (the effect of deletion is not shown): only live ones are compared.
      if (position === -1 || order.deleted) continue;
      const summary = summaryCarriesWhatWasSent(`order #${order.handle}`, order.expected, page, position);
      // An updated order's summary that differs: a lost update if the get does not show it either (ORD-UPDATE-003), else the list's.
      if (summary && order.updated) stopOn(updateVisibleOnGet(order.expected, await apiOf(real, order.account).get(id), `order #${order.handle}`));
      stopOn(summary);
    }
  }

  toString(): string {
    return `${requestLabel('listOrders')}?limit=${this.limit} as ${this.account}`;
  }

  [fc.cloneMethod](): ListOrders {
    return new ListOrders(this.account, this.limit);
  }
}
