import fc from 'fast-check';
import { requestLabel } from '../contract/operations';
import { inTurn, violationIn, type Judgements } from '../checks/check';
import type { AccountName } from '../config/settings';
import { otherAccountCannotList } from '../checks/isolation';
import { atMostLimit, listAccepted, readPage, searchOfPage, summaryCarriesWhatWasSent, totalAtLeast, type ListPage } from '../checks/listing';
import { updateVisibleOnGet } from '../checks/orders';
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
    const api = apiOf(real, this.account);
    let page: ListPage | undefined;
    // A list that lags behind writes (an index, a replica) may not show the run's last ones yet: read again while it lasts.
    const judgements = await real.whenSettled(
      api,
      async () => {
        const exchange = await api.list({ limit: this.limit });
        real.stopOn(listAccepted(exchange));
        return readPage({ limit: this.limit }, exchange);
      },
      (read) => {
        page = read;
        return this.listShowsModel(model, real, read);
      },
    );
    if (violationIn(judgements)) {
      // An updated order's summary that differs: a lost update if the get does not show it either (ORD-UPDATE-003), else the list's.
      const listed = page as ListPage;
      for (const order of model.orders.filter((o) => o.account === this.account && o.updated && !o.deleted)) {
        const position = listed.ids.indexOf(idOf(real, order));
        if (position !== -1 && violationIn(summaryCarriesWhatWasSent(`order #${order.handle}`, order.expected, listed, position))) {
          real.stopOn(updateVisibleOnGet(order.expected, await api.get(idOf(real, order)), `order #${order.handle}`));
        }
      }
    }
    real.stopOn(judgements);
  }

  /** What holds whatever other clients do: at most L orders, meta.total at least the run's live orders, none of the other account's, the run's own as the model expects them. */
  private listShowsModel(model: Readonly<OrdersModel>, real: OrdersReal, page: ListPage): Judgements {
    const live = liveOrders(model, this.account).length;
    return inTurn(
      () => atMostLimit(page),
      () => totalAtLeast(page, live, `this run alone holds ${live} orders in account ${this.account}`),
      ...model.orders.map((order) => () => {
        const id = idOf(real, order);
        if (order.account !== this.account) return otherAccountCannotList(`order #${order.handle} of account ${order.account}`, `account ${this.account}`, searchOfPage(page), id);
        const position = page.ids.indexOf(id);
        // A deleted order may stay listed (the effect of deletion is not shown): only live ones are compared.
        if (position === -1 || order.deleted) return undefined;
        return summaryCarriesWhatWasSent(`order #${order.handle}`, order.expected, page, position);
      }),
    );
  }

  toString(): string {
    return `${requestLabel('listOrders')}?limit=${this.limit} as ${this.account}`;
  }

  [fc.cloneMethod](): ListOrders {
    return new ListOrders(this.account, this.limit);
  }
}
