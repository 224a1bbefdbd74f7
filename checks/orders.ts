import { isTimestamp, keptAssignedFields, pathName, valuesAt, type AssignedField } from '../contract/assigned';
import { instantOf } from '../contract/datetime';
import { contract, excerpt } from '../contract/openapi';
import { project } from '../contract/projection';
import { holdsExoticValue } from './exotic';
import { nestedFieldLeftOut } from './nested-fields';
import type { FindingContext } from './finding';
import { MAX_BODY_EXCERPT, type Exchange, type Json } from '../contract/exchange';
import { notOnePathSegment } from '../contract/order-path';
import { changesBetween, differences, disagreements, formatDifferences, holdsValue, pointersOf } from './roundtrip';
import { accepted, acceptedOrRefusedWith, isClientError, isSuccess, REFUSALS, unknownIdAnswer } from './status';
import { pathIdAnswered, type SentPathId } from './readings';
import { unless, type Check, type Judgement, type Verdict } from './check';

/** Judgements of one order: create (4.2), get (4.3) and update (4.4), round trips and the values the service assigns. */

export function itemsOf(order: Json): Json[] {
  return Array.isArray(order.items) ? (order.items as Json[]) : [];
}

/**
 * A body a correct server may refuse, refused with a 4xx: one with exotic values (blank or very long text,
 * amounts out of a realistic range …: ORD-OBS-017) or with nested objects that leave out fields a realistic
 * client sends (ORD-OBS-026). Required-ness, lengths and ranges of nested fields are not shown (2.7), so
 * such a refusal proves nothing either way.
 */
export function refusalProvesNothing(body: unknown, exchange: Exchange): boolean {
  return (mayBeRefused(body) && isClientError(exchange.status)) || (exchange.status === 409 && carriesChannelReference(body));
}

/** A body holding exotic values (ORD-OBS-017) or nested objects without the fields a realistic client sends (ORD-OBS-026). */
export function mayBeRefused(body: unknown): boolean {
  return holdsExoticValue(body) || nestedFieldLeftOut(body) !== undefined;
}

/**
 * A create carrying a sales-channel reference (sales_channel.order_id, the order's identifier in the channel,
 * or its order_number): a server may refuse a second live order with the same one with 409 (ORD-OBS-032), and
 * a generated test sends a body again while it shrinks, so such a 409 there proves nothing.
 */
function carriesChannelReference(body: unknown): boolean {
  const channel = (body as { sales_channel?: { order_id?: unknown; order_number?: unknown } } | undefined)?.sales_channel;
  return [channel?.order_id, channel?.order_number].some((reference) => typeof reference === 'string' && reference !== '');
}

// Shared verdicts.

/** Everything sent comes back with the value sent (see roundtrip.ts for what "equal" means). */
const sentComesBack = (sent: unknown, exchange: Exchange, what: string): Verdict => {
  const found = differences(sent, exchange.json);
  return [
    found.length === 0,
    () => ({ expected: `${what} to carry every field sent, with the value sent`, received: `${found.length} field(s) differ:\n${formatDifferences(found)}`, exchange, context: sentContext(sent), fieldsAtFault: pointersOf(found) }),
    exchange,
  ];
};

/** What was sent, kept with a finding (bounded) where the exchange that shows it is not the one that sent it: a get after a create. */
function sentContext(sent: unknown): FindingContext | undefined {
  const text = JSON.stringify(sent);
  return text !== undefined && text.length <= MAX_BODY_EXCERPT ? { sent: text } : undefined;
}

/** The values the service assigned that an order keeps for life (4.2: id, user_id, created_at; from openapi.yaml) of `before`, unchanged in the order an exchange shows. */
const sameAssignedValues = (before: Json, exchange: Exchange, what: string): Verdict => {
  const body = (exchange.json ?? {}) as Json;
  const kept = keptAssignedFields();
  const changed = kept
    .filter((field) => {
      const [name] = field.path;
      // The same text is the same value, also a timestamp the suite cannot parse (its format is ORD-FORM-001's);
      // a value the earlier answer lacked cannot have changed (its absence is ORD-CREATE-003's).
      if (body[name] === before[name] || before[name] === undefined) return false;
      return !isTimestamp(field) || typeof body[name] !== 'string' || Number.isNaN(instantOf(body[name])) || instantOf(body[name]) !== instantOf(String(before[name]));
    })
    .map(({ path: [name] }) => name);
  return [
    changed.length === 0,
    () => ({
      expected: `${kept.map((field) => pathName(field.path)).join(', ')} ${what}`,
      received: changed.map((field) => `${field} ${excerpt(before[field])} became ${excerpt(body[field])}`).join('; '),
      exchange,
      fieldsAtFault: changed.map((field) => `/${field}`),
    }),
    exchange,
  ];
};

/** The order an exchange shows is the one with this id. */
const showsOrder = (id: string, exchange: Exchange): Verdict => {
  const shown = (exchange.json as Json | undefined)?.id;
  return [shown === id, () => ({ expected: `the order ${id}`, received: `the order ${excerpt(shown)}`, exchange }), exchange];
};

/** The client's value is not what the service answers or stores at that path (timestamps compared by instant). */
const clientValueNotTaken = (field: AssignedField, sent: string, exchange: Exchange, what: string): Verdict => {
  const timestamp = contract().resolve(field.schema).format === 'date-time';
  const same = (value: unknown) => typeof value === 'string' && (value === sent || (timestamp && instantOf(value) === instantOf(sent)));
  const taken = valuesAt(exchange.json, field.path).filter(same);
  return [
    taken.length === 0,
    () => ({
      expected: `${pathName(field.path)} assigned by the service (section ${field.section}), not the value the client sent, in ${what}`,
      received: `${pathName(field.path)} ${excerpt(taken[0])}: the client's value was taken`,
      exchange,
    }),
    exchange,
  ];
};

/**
 * An order another request must not have touched, got again afterwards as the server held it before
 * (exact: both are what the server stores; a soft delete shows as a changed deleted_at).
 */
export const untouched = (after: Exchange, before: Json | undefined, expected: string): Verdict => {
  const body = after.json as Json | undefined;
  const changed = body ? changesBetween(before, body) : [];
  return [
    isSuccess(after.status) && changed.length === 0,
    () => ({ expected, received: !isSuccess(after.status) ? `get answers ${after.status}` : `it changed:\n${formatDifferences(changed)}`, exchange: after, fieldsAtFault: pointersOf(changed) }),
    after,
  ];
};

/** The note a write that must reach no order carries (one without valid credentials, one to an id no order has): finding it stored shows the write reached the order. */
export const REFUSED_NOTE = 'must not be stored';

/** The order `id`, got again after a write that must not reach it (`what`): still there, without the note that write carried. */
export const notReachedBy = (what: string, id: string, after: Exchange): Verdict => [
  isSuccess(after.status) && (after.json as { note?: unknown } | undefined)?.note !== REFUSED_NOTE,
  () => ({
    expected: `order ${id} untouched by ${what}`,
    received: after.status >= 300 ? `it is gone (get answers ${after.status})` : `the note ${what} carried (${JSON.stringify(REFUSED_NOTE)}) was stored in it`,
    exchange: after,
  }),
  after,
];

// Create (4.2).

/** A create with every documented field is accepted. */
export const createAccepted: Check = (exchange) => unless('ORD-CREATE-001', ...accepted(exchange));

/** A create with only the required fields is accepted. */
export const requiredOnlyCreateAccepted: Check = (exchange) => unless('ORD-CREATE-002', ...accepted(exchange));

/** The requirement accepting a create body answers to: ORD-CREATE-002 with the required fields only, else ORD-CREATE-001. */
export function createAcceptedFor(body: object): Check {
  const required = (contract().schema('OrderCreate').required ?? []) as string[];
  return Object.keys(body).every((field) => required.includes(field)) ? requiredOnlyCreateAccepted : createAccepted;
}

/** The create answer carries a value the service assigned to `field` (id, status, timestamps): a non-empty string. */
export const assignsNonEmptyString =
  (field: string): Check =>
  (exchange) => {
    const value = ((exchange.json ?? {}) as Json)[field];
    return unless('ORD-CREATE-003', typeof value === 'string' && value !== '', () => ({
      expected: `${field}: a non-empty string assigned by the service`,
      received: `${field} ${excerpt(value)}`,
      exchange,
    }), exchange);
  };

export const idAssigned = assignsNonEmptyString('id');

/** Two orders of one account carry the same user_id (the account owner). */
export function oneUserIdPerAccount(first: Exchange, second: Exchange): Judgement | undefined {
  const [one, other] = [first, second].map((exchange) => ((exchange.json ?? {}) as Json).user_id);
  return unless('ORD-CREATE-003', typeof one === 'string' && one === other, () => ({
    expected: 'the same user_id (the account owner) on every order of the account',
    received: `user_id ${excerpt(one)} and then ${excerpt(other)}`,
    exchange: second,
  }), [first, second]);
}

export const createAnswersWhatWasSent = (sent: unknown, exchange: Exchange, what = 'the create response'): Judgement | undefined =>
  unless('ORD-CREATE-004', ...sentComesBack(sent, exchange, what));

/** Section 2.3/2.4: the full form carries customer.id, and each item's id and total, assigned by the service. */
export const serviceAssignedParts: Check = (exchange) => {
  const order = (exchange.json ?? {}) as Json;
  const customer = (order.customer ?? {}) as Json;
  const problems: string[] = [];
  // A customer cleared by an update (replace semantics, 4.4) comes back absent, null or as empty values: nothing to assign.
  if (holdsValue(order.customer) && (typeof customer.id !== 'string' || customer.id === '')) problems.push(`customer.id is ${excerpt(customer.id)}`);
  itemsOf(order).forEach((item, index) => {
    if (typeof item.id !== 'string' || item.id === '') problems.push(`items[${index}].id is ${excerpt(item.id)}`);
    if (typeof item.total !== 'number') problems.push(`items[${index}].total is ${excerpt(item.total)}`);
  });
  return unless('ORD-CREATE-005', problems.length === 0, () => ({
    expected: 'customer.id and each item id (non-empty strings) and total (a number) in the full form',
    received: problems.join('; '),
    exchange,
  }), exchange);
};

/** The ids that stand more than once in a list of ids. */
export function repeatedIds(ids: string[]): string[] {
  return ids.filter((id, index) => ids.indexOf(id) !== index);
}

/** Orders created in parallel got distinct ids (`ids[i]` is what `exchanges[i]` answered). */
export function distinctIds(ids: string[], exchanges: Exchange[]): Judgement | undefined {
  const repeated = repeatedIds(ids);
  return unless('ORD-CREATE-007', repeated.length === 0, () => ({
    expected: `${ids.length} orders created in parallel to get ${ids.length} distinct ids`,
    received: `duplicate ids: ${[...new Set(repeated)].join(', ')}`,
    exchange: exchanges[ids.lastIndexOf(repeated[0])],
  }), exchanges);
}

/** An order created in parallel with others holds the customer sent with it, not another create's. */
export function holdsItsOwnCustomer(id: string, sent: Json, exchange: Exchange): Judgement | undefined {
  const expected = (sent.customer as Json).name;
  const body = (exchange.json ?? {}) as Json;
  const name = (body.customer as Json | undefined)?.name;
  // A get that answers another order than the one asked for is ORD-GET-001's to judge, not a lost create.
  return unless('ORD-CREATE-007', body.id !== id || name === expected, () => ({
    expected: `order ${id} to hold the customer sent with it, ${excerpt(expected)}`,
    received: `customer.name ${excerpt(name)}`,
    exchange,
  }), exchange);
}

export const createIgnoresClientValue = (field: AssignedField, sent: string, exchange: Exchange, what: string): Judgement | undefined =>
  unless('ORD-CREATE-008', ...clientValueNotTaken(field, sent, exchange, what));

/** A create carrying a value the service assigns, refused with a 4xx: one of the two answers ORD-CREATE-008 allows (the other: taken, the value its own). */
export const createRefusesClientValue = (field: AssignedField, exchange: Exchange): Judgement =>
  unless('ORD-CREATE-008', isClientError(exchange.status), () => ({ expected: `a create carrying ${pathName(field.path)} refused with a 4xx, or answered with the service's own value`, received: String(exchange.status), exchange }), exchange);

// Get (4.3).

export const getAccepted: Check = (exchange) => unless('ORD-GET-001', ...accepted(exchange));

/** A JSON object in the body: what a get of an order must answer before anything in it can be read. */
export const getAnswersAnObject: Check = (exchange) =>
  unless('ORD-GET-001', typeof exchange.json === 'object' && exchange.json !== null, () => ({
    expected: 'the order as a JSON object',
    received: exchange.text === '' ? 'an empty body' : excerpt(exchange.text),
    exchange,
  }), exchange);

export const getAnswersOrderAsked = (id: string, exchange: Exchange): Judgement | undefined => unless('ORD-GET-001', ...showsOrder(id, exchange));

export const storedAsSent = (sent: unknown, exchange: Exchange, what = 'the stored order'): Judgement | undefined =>
  unless('ORD-GET-002', ...sentComesBack(sent, exchange, what));

export const getKeepsAssignedValues = (created: Json, exchange: Exchange): Judgement | undefined =>
  unless('ORD-GET-003', ...sameAssignedValues(created, exchange, 'as the create response gave them'));

/** A get of an id no order has: 404 or 410 (any 4xx for an id of another form); one made from an order's id (`madeFrom`, 12abc of 12) as its readings allow. */
export const getUnknownIdAnswer =
  (ownForm: boolean, madeFrom?: SentPathId): Check =>
  (exchange) =>
    unless('ORD-GET-004', ...(madeFrom ? pathIdAnswered(madeFrom, exchange) : unknownIdAnswer(exchange, ownForm)));

/** The id can be put in GET/PUT/DELETE /orders/{order_id} as one segment (4.3: order_id is a path parameter). */
export const idIsOnePathSegment = (id: string, created?: Exchange): Judgement | undefined => {
  const reason = notOnePathSegment(id);
  return unless('ORD-GET-005', reason === undefined, () => ({
    expected: 'an order id usable as one path segment: not empty, not "." or "..", no "/"',
    received: `the id ${JSON.stringify(id)}: ${reason}; the suite sent no request for it`,
    exchange: created,
  }), created);
};

// Update (4.4).

export const updateAccepted: Check = (exchange) => unless('ORD-UPDATE-001', ...accepted(exchange));

export const updateAnswersWhatWasSent = (sent: unknown, exchange: Exchange, what = 'the update response'): Judgement | undefined =>
  unless('ORD-UPDATE-002', ...sentComesBack(sent, exchange, what));

/** `update`: the update whose effect the get shows, judged with it (where the test still holds it). */
export const updateVisibleOnGet = (sent: unknown, exchange: Exchange, what = 'the order after the update', update?: Exchange): Judgement | undefined => {
  const [holds, details] = sentComesBack(sent, exchange, what);
  return unless('ORD-UPDATE-003', holds, details, [update, exchange]);
};

/**
 * The update answers the order as it now stands (4.4: "Response body: the full Order"): each field of the
 * order's data the update did not send (the fields of a create, 4.2) shows in the update answer what the
 * next get shows. Whether the update kept or cleared them is open (ORD-OBS-005); both answers must tell the
 * same, on the fields the document declares (an undocumented extra field may be in one answer only: ORD-OBS-010).
 * No verdict where the get is the one at fault: a next get that does not show what the update sent (stale:
 * ORD-UPDATE-003's), or that lacks a field the update answer shows as the create sent it (ORD-GET-002's).
 */
export function updateAnswersTheStoredOrder(createdWith: Json, sent: Json, answer: Exchange, next: Exchange): Judgement | undefined {
  if (differences(sent, next.json).length > 0) return undefined;
  const declared = new Map([answer, next].map((exchange) => [exchange, (project(exchange.json ?? {}, contract().schema('Order')) ?? {}) as Json]));
  const shown = (exchange: Exchange, field: string) => declared.get(exchange)?.[field];
  const keptAsCreated = (field: string) => field in createdWith && differences(createdWith[field], shown(answer, field)).length === 0;
  const unsent = Object.keys(contract().schema('OrderCreate').properties as object).filter((field) => !(field in sent));
  const found = unsent.flatMap((field) => {
    const differ = disagreements({ [field]: shown(next, field) }, { [field]: shown(answer, field) });
    return differ.length > 0 && keptAsCreated(field) && differences(createdWith[field], shown(next, field)).length > 0 ? [] : differ;
  });
  return unless('ORD-UPDATE-008', found.length === 0, () => ({
    expected: `the update response to show the fields the update did not send (${unsent.join(', ')}) as the next get shows them`,
    received: `${found.length} field(s) differ:\n${formatDifferences(found, 10, ['the next get shows', 'the update response'])}`,
    exchange: answer,
    fieldsAtFault: pointersOf(found),
  }), [answer, next]);
}

/** An update with no field (4.4: "Request body (JSON), all optional") is accepted or refused (400, 422); never a 5xx. */
export const emptyUpdateAnswered: Check = (exchange) => unless('ORD-UPDATE-009', ...acceptedOrRefusedWith(exchange, REFUSALS.emptyUpdate, 'an update with no field ({})'));

/** A refused update with no field left the order as it was (`before`: a get just before it). */
export const emptyUpdateLeftOrder = (before: Json | undefined, after: Exchange, update: Exchange): Judgement | undefined => {
  const [holds, details] = untouched(after, before, 'the order untouched by the refused update with no field');
  return unless('ORD-UPDATE-009', holds, details, [update, after]);
};

/** updated_at in the order an exchange shows is later than `previous`, the value before the update. */
export function updatedAtAdvanced(previous: unknown, exchange: Exchange, what: string): Judgement | undefined {
  const value = (exchange.json as Json | undefined)?.updated_at;
  return unless('ORD-UPDATE-004', typeof value === 'string' && instantOf(value) > instantOf(String(previous)), () => ({
    expected: `updated_at in ${what} later than ${String(previous)}`,
    received: `updated_at ${excerpt(value)}`,
    exchange,
  }), exchange);
}

export const updateKeepsAssignedValues = (before: Json, exchange: Exchange): Judgement | undefined =>
  unless('ORD-UPDATE-005', ...sameAssignedValues(before, exchange, 'unchanged by the update'));

export const updateKeepsId = (id: string, exchange: Exchange): Judgement | undefined => unless('ORD-UPDATE-005', ...showsOrder(id, exchange));

export const updateUnknownIdAnswer =
  (ownForm: boolean): Check =>
  (exchange) =>
    unless('ORD-UPDATE-006', ...unknownIdAnswer(exchange, ownForm));

/** Order `id`, got after updates sent to ids no order has (`ids`; 12abc of 12 among them), as they left it: an integer cast of the path reached it if it shows their note. */
export const unchangedByUnknownIdUpdates =
  (id: string, ids: readonly string[]): Check =>
  (after) =>
    unless('ORD-UPDATE-006', ...notReachedBy(`the updates of ${ids.map((made) => JSON.stringify(made)).join(', ')}, ids no order has`, id, after));

export const updateIgnoresClientValue = (field: AssignedField, sent: string, exchange: Exchange, what: string): Judgement | undefined =>
  unless('ORD-UPDATE-007', ...clientValueNotTaken(field, sent, exchange, what));

/**
 * An update that did not resend the customer keeps its service-assigned id. Whether omitted fields are
 * kept or cleared is not shown (4.4): a customer that does not come back, or comes back as empty values, was cleared.
 */
export function updateKeepsCustomerId(customerId: unknown, exchange: Exchange, what: string): Judgement | undefined {
  const customer = ((exchange.json ?? {}) as Json).customer as Json | undefined;
  if (!customer || typeof customer !== 'object' || !holdsValue(customer)) return undefined;
  return unless('ORD-UPDATE-007', customer.id === customerId, () => ({
    expected: `customer.id ${excerpt(customerId)} (assigned at create, section 2.3) in ${what}: the customer was not resent`,
    received: `customer.id ${excerpt(customer.id)}`,
    exchange,
  }), exchange);
}

/** An update that did not resend the items keeps the ids assigned at create on those that come back. */
export function updateKeepsItemIds(itemIds: unknown[], exchange: Exchange, what: string): Judgement | undefined {
  const returned = itemsOf((exchange.json ?? {}) as Json).map((entry) => entry.id);
  const foreign = returned.filter((id) => !itemIds.includes(id));
  return unless('ORD-UPDATE-007', foreign.length === 0, () => ({
    expected: `the items, not resent, with the ids assigned at create (section 2.4) in ${what}: ${itemIds.map((id) => excerpt(id)).join(', ')}`,
    received: `item ids ${returned.map((id) => excerpt(id)).join(', ')}`,
    exchange,
  }), exchange);
}
