import fc from 'fast-check';
import type { AccountName } from '../config/settings';
import { anyOrder } from '../generators/order';
import { parameterValue } from '../generators/query';
import { anyOrderUpdate } from '../generators/update';
import { CreateOrder } from './create';
import { DeleteOrder } from './delete';
import { ForeignDelete, ForeignGet, ForeignUpdate } from './foreign';
import { GetOrder } from './get';
import { ListOrders } from './list';
import { UpdateOrder } from './update';
import type { OrderCommand, OrdersModel, OrdersReal } from './model';

export { emptyModel, type OrdersModel, type OrdersReal } from './model';

export interface OrderCommandsConstraints {
  /** Accounts to act as: ['A'], or ['A', 'B'] when OMS_TOKEN_B is given (then B's reaches for A's orders too). */
  accounts: AccountName[];
  maxCommands: number;
  /** fast-check's replayPath of a failure, to replay it exactly. */
  replayPath?: string;
}

/** Sequences of create, get, list, update and delete, as one or two accounts. */
export function orderCommands(constraints: OrderCommandsConstraints): fc.Arbitrary<Iterable<fc.AsyncCommand<OrdersModel, OrdersReal>>> {
  const { accounts, maxCommands, replayPath } = constraints;
  const account = fc.constantFrom(...accounts);
  const pick = fc.nat({ max: maxCommands });
  const commands: Array<fc.Arbitrary<OrderCommand>> = [
    fc.tuple(account, anyOrder()).map(([owner, body]) => new CreateOrder(owner, body)),
    pick.map((n) => new GetOrder(n)),
    fc.tuple(pick, anyOrderUpdate()).map(([n, body]) => new UpdateOrder(n, body)),
    pick.map((n) => new DeleteOrder(n)),
    fc.tuple(account, parameterValue('limit', { validity: 'valid' })).map(([owner, limit]) => new ListOrders(owner, Number(limit))),
  ];
  if (accounts.length > 1) {
    commands.push(
      pick.map((n) => new ForeignGet(n)),
      fc.tuple(pick, anyOrderUpdate()).map(([n, body]) => new ForeignUpdate(n, body)),
      pick.map((n) => new ForeignDelete(n)),
    );
  }
  return fc.commands(commands, { maxCommands, replayPath });
}
