import { precisionOf } from '../../contract/datetime';
import { excerpt } from '../../contract/openapi';
import { holdsExoticValue } from '../../checks/exotic';
import { nestedFieldLeftOut } from '../../checks/nested-fields';
import type { OmsApi } from '../../harness/requests/api';
import { createAnswersWhatWasSent } from '../../checks/orders';
import { isSuccess } from '../../checks/status';
import { check } from '../../harness/record/findings';
import { test } from '../../harness/fixtures';
import { findInList, listPage, readUntilShown } from '../../harness/requests/listing';
import { EXAMPLE_MARK, observe } from '../../harness/record/observe';
import { createOrder } from '../../harness/requests/orders';
import type { Json } from '../../contract/exchange';
import { fullOrder, minimalOrder } from '../../contract/examples';
import { verifies } from '../../harness/record/verifies';

/**
 * Creates each sample a correct server may refuse (`mayBeRefused` says why it may): refused is in range
 * (inconclusive); accepted means stored, so it must come back exactly. Returns what each got, in words.
 */
async function createEach(api: OmsApi, mayBeRefused: (body: Json) => boolean, samples: Array<[string, Json]>): Promise<string[]> {
  const seen: string[] = [];
  for (const [what, body] of samples) {
    if (!mayBeRefused(body)) throw new Error(`open-points: ${what} is not a body a correct server may refuse; fix the sample`);
    const exchange = await api.create(body);
    const accepted = isSuccess(exchange.status);
    if (accepted) check(createAnswersWhatWasSent(body, exchange, `the create response for ${what}`));
    seen.push(`${what}: ${accepted ? 'accepted' : 'refused'} (${exchange.status})`);
  }
  return seen;
}

/**
 * What the document leaves open (OBSERVED entries of the catalogue): each test records what the server
 * does, and checks only what holds whatever it chose (the range in the entry's `allowed`).
 */
test.describe('What the document leaves open (2, 4, 7)', () => {
  test('observes whether billing totals come back as sent or computed', verifies('ORD-OBS-013'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const sent = created.sent.billing as Json;
    const got = (created.body.billing ?? {}) as Json;
    const shown = ['sub_total', 'tax', 'total'].map((field) => `${field} sent ${excerpt(sent[field])}, got ${excerpt(got[field])}`);
    observe('ORD-OBS-013', shown.join('; '));
  });

  test('observes the precision a client-sent timestamp is stored at', verifies('ORD-OBS-014'), async ({ api }) => {
    const created = await createOrder(api, minimalOrder({ placed_at: '2026-11-20T09:30:15.123Z' }));
    const got = created.body.placed_at;
    const unit = typeof got === 'string' ? precisionOf(got) : undefined;
    const precision = unit === undefined ? 'no timestamp' : unit >= 60_000 ? 'the minute' : unit >= 1000 ? 'the second' : unit > 1 ? `${unit} ms` : 'the millisecond or finer';
    observe('ORD-OBS-014', `placed_at "2026-11-20T09:30:15.123Z" came back as ${excerpt(got)} (${precision})`);
  });

  test('observes the precision an amount is stored at', verifies('ORD-OBS-015'), async ({ api }) => {
    // Three decimals: a server may refuse them (ORD-OBS-017), and that is what there is to observe then.
    const exchange = await api.create(minimalOrder({ price: 25.125 }));
    if (!isSuccess(exchange.status)) return observe('ORD-OBS-015', `price 25.125 refused (${exchange.status})`);
    const got = (exchange.json as Json | undefined)?.price;
    observe('ORD-OBS-015', `price 25.125 came back as ${excerpt(got)}${got === 25.125 ? ' (as sent)' : ' (rounded)'}`);
  });

  /** The smallest unit a timestamp is written to, in words: its fractional digits beyond the millisecond too (precisionOf stops there). */
  const unitWritten = (value: string): string => {
    const digits = /:\d{2}[.,](\d+)/.exec(value)?.[1].length ?? 0;
    if (digits > 3) return `${digits} fractional digits of a second (${['', '', '', '', '100 µs', '10 µs', '1 µs', '100 ns', '10 ns', '1 ns'][digits] ?? 'below 1 ns'})`;
    return precisionOf(value) >= 1000 ? `${precisionOf(value) / 1000} s` : `${precisionOf(value)} ms`;
  };

  test('observes the offset and precision of service-assigned timestamps', verifies('ORD-OBS-016'), async ({ api }) => {
    const created = await createOrder(api, minimalOrder());
    const value = String(created.body.created_at);
    const offset = /(Z|[+-]\d{2}(:?\d{2})?)$/.exec(value)?.[0] ?? 'no offset';
    // The example last, after EXAMPLE_MARK: `oms-conformance diff` compares the behaviour, not the instance.
    observe('ORD-OBS-016', `offset ${offset}, written to ${unitWritten(value)}${EXAMPLE_MARK}created_at ${excerpt(value)})`);
  });

  test('observes whether exotic values are accepted, and returns them exactly when they are', verifies('ORD-OBS-017', 'ORD-CREATE-004'), async ({ api }) => {
    const { customer } = fullOrder();
    const seen = await createEach(api, holdsExoticValue, [
      ['a blank customer name', minimalOrder({ customer: { ...customer, name: '   ' } })],
      ['a note of 10 000 characters', minimalOrder({ note: 'Lorem ipsum '.repeat(834).slice(0, 10_000) })],
      ['an e-mail address outside ASCII', minimalOrder({ customer: { ...customer, name: 'Zoë', email: { main: 'zoë@exämple.com' } } })],
      ['a quantity of 65 536 at a price of 123 456 789.12', minimalOrder({ items: [{ name: 'Bulk', quantity: 65_536, category: 'bulk', price: 123_456_789.12, hs_code: '691200', origin: 'TR' }], price: 8_090_864_939_827.2 })],
    ]);
    observe('ORD-OBS-017', seen.join('; '));
  });

  test('observes which nested fields a create requires, and returns a sparse order exactly when it takes it', verifies('ORD-OBS-026', 'ORD-CREATE-004'), async ({ api }) => {
    const seen = await createEach(api, (body) => nestedFieldLeftOut(body) !== undefined, [
      ['a customer with only a name', minimalOrder({ customer: { name: 'Only A. Name' } })],
      ['a customer address with only street and country_code', minimalOrder({ customer: { ...fullOrder().customer, address: { street: '1 Harbour Road', country_code: 'TR' } } })],
      ['an item with only name, quantity and price', minimalOrder({ items: [{ name: 'Mug', quantity: 1, price: 25 }] })],
    ]);
    observe('ORD-OBS-026', seen.join('; '));
  });

  test('observes what an order id of another form answers', verifies('ORD-OBS-018'), async ({ api }) => {
    const exchange = await api.get(api.unknownId());
    observe('ORD-OBS-018', `get of an unknown id of another form than the service assigns answers ${exchange.status}`);
  });

  test('observes content coding and connection handling', verifies('ORD-OBS-020'), async ({ api }) => {
    const page = await listPage(api, { limit: 1 });
    const coding = page.exchange.headers['content-encoding'] ?? 'identity';
    const connection = page.exchange.headers.connection ?? '(no Connection header)';
    observe('ORD-OBS-020', `list answered with content coding ${coding}; Connection ${connection}`);
  });

  test('observes the Unicode form and the whitespace text is stored with', verifies('ORD-OBS-023'), async ({ api }) => {
    const composed = 'Zo\u00eb \u00c5ngstr\u00f6m';
    const spaced = '  Leave   at the door ';
    const created = await createOrder(api, minimalOrder({ note: composed, customer: { ...fullOrder().customer, company: spaced } }));
    const note = created.body.note;
    const company = (created.body.customer as Json | undefined)?.company;
    const form = note === composed ? 'as sent (NFC)' : typeof note === 'string' && note === composed.normalize('NFD') ? 'NFD' : `another form: ${excerpt(note)}`;
    const spacing = company === spaced ? 'as sent' : company === spaced.trim() ? 'trimmed' : company === 'Leave at the door' ? 'trimmed and collapsed' : `changed otherwise: ${excerpt(company)}`;
    observe('ORD-OBS-023', `a composed note came back ${form}; a company name with extra whitespace came back ${spacing}`);
  });

  test('observes whether the fields that appear in some responses are there', verifies('ORD-OBS-024'), async ({ api }) => {
    const created = await createOrder(api, fullOrder());
    const channel = (created.body.sales_channel ?? {}) as Json;
    const billing = (created.body.billing ?? {}) as Json;
    const shown = [
      ...['use_carrier_shipment_id', 'use_carrier_shipment_id_locked', 'is_marketplace'].map((field) => `sales_channel.${field} ${field in channel ? excerpt(channel[field]) : 'absent'}`),
      `billing.shipping_tax_rate ${'shipping_tax_rate' in billing ? excerpt(billing.shipping_tax_rate) : 'absent'}`,
    ];
    observe('ORD-OBS-024', shown.join('; '));
  });

  test('observes how soon a new order shows in the list', verifies('ORD-OBS-027'), async ({ api }) => {
    // A body of its own, not an example order: one made ahead (harness/order-pool.ts) would have had time to show.
    const created = await createOrder(api, minimalOrder({ note: 'timed to the list' }));
    const reads: number[] = [];
    const started = Date.now();
    const search = await readUntilShown(
      api,
      async () => {
        reads.push(Date.now() - started);
        return findInList(api, [created.id]);
      },
      (read) => (read.found.has(created.id) || !read.complete ? undefined : `order ${created.id}, just created`),
    );
    const seen = search.found.has(created.id)
      ? reads.length === 1
        ? 'at once (on the first read after the create answered)'
        : `later, not on the first read${EXAMPLE_MARK}after about ${reads[reads.length - 1]} ms, read ${reads.length} times)`
      : search.complete
        ? `not within ${api.listSettleMs} ms (OMS_LIST_SETTLE_MS): ORD-LIST-008 judges that`
        : 'unknown: the account is too large to search whole';
    observe('ORD-OBS-027', `a new order shows in the list ${seen}`);
  });

  test('observes what shipments and activities hold on a new order', verifies('ORD-OBS-031'), async ({ api }) => {
    const created = await createOrder(api, minimalOrder());
    observe('ORD-OBS-031', ['shipments', 'activities'].map((field) => `${field} ${field in created.body ? excerpt(created.body[field]) : 'absent'}`).join('; '));
  });

  test('observes whether a second live order with the same sales-channel reference is refused', verifies('ORD-OBS-032'), async ({ api }) => {
    const first = await createOrder(api, fullOrder());
    const second = await api.create(fullOrder({ sales_channel: first.sent.sales_channel as ReturnType<typeof fullOrder>['sales_channel'] }));
    observe('ORD-OBS-032', isSuccess(second.status) ? `a second order with the same reference is accepted (${second.status})` : `a second order with the same reference is refused with ${second.status}`);
  });

  test('observes how many orders the account holds besides the run', verifies('ORD-OBS-021'), async ({ api }) => {
    const page = await listPage(api, { limit: 1 });
    observe('ORD-OBS-021', `${page.total ? 'the account holds orders while the suite runs, its own included' : 'the account holds no order'}${EXAMPLE_MARK}${excerpt(page.total)} at one moment)`);
  });
});
