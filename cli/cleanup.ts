import { existsSync } from 'node:fs';
import { EXIT_CODE } from '../config/exit-codes';
import { registerSettingsSecrets, type Settings } from '../config/settings';
import { requestLine } from '../contract/operations';
import { orderRequestLine } from '../contract/order-path';
import { HttpTransport } from '../harness/http/transport';
import { inFlight, Ledger, ledgerFile, ledgerRuns, leftovers, readLedger, type LedgerEntry } from '../harness/http/ledger';
import { redact } from '../config/redaction';
import { clientCredentials, fetchToken, TokenError } from '../harness/http/token';
import { quoted, visible } from '../config/safe-text';
import { checkedSettings, environmentFrom } from './environment';
import { UsageError, type Parsed } from './options';

/** A ledger entry and the ledger file it came from (where its outcome is written). */
interface Pending {
  entry: LedgerEntry;
  file: string;
}

/** Orders listed per page while searching for what a create in flight made; the document's largest page. */
const SEARCH_PAGE_LIMIT = 100;
/** At most this many pages are read per account (100,000 orders): every loop is bounded. */
const MAX_SEARCH_PAGES = 1000;

/**
 * `oms-conformance cleanup --run-id ID` (or --all-runs): deletes the orders a run's ledger records as
 * created and not deleted, each with the token of the account that created it; and for a create the run
 * sent and never got an answer to (it was killed meanwhile), the order that create made, found in the
 * account by the marker its body carried (ledger.ts markerOf). Nothing else is ever deleted: no order
 * without this run's marker, none of another run.
 */
export async function cleanup({ options, positionals }: Parsed): Promise<number> {
  if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const runId = options.get('run-id');
  const allRuns = options.has('all-runs');
  if ((typeof runId === 'string') === allRuns) throw new UsageError('cleanup needs exactly one of --run-id ID and --all-runs');
  // Checks --run-id too, by the run id's own rule.
  const settings = checkedSettings(environmentFrom(options), options);
  registerSettingsSecrets(settings);
  const directory = settings.ledgerDir;
  const runs = allRuns ? ledgerRuns(directory) : [runId as string];
  const ledgers = runs.flatMap((run) => {
    const file = ledgerFile(directory, run);
    return existsSync(file) ? [{ file, entries: readLedger(file) }] : [];
  });
  const pending: Pending[] = ledgers.flatMap(({ file, entries }) => leftovers(entries).map((entry) => ({ entry, file })));
  const unanswered: Pending[] = ledgers.flatMap(({ file, entries }) => inFlight(entries).map((entry) => ({ entry, file })));
  if (!pending.length && !unanswered.length) {
    const known = ledgerRuns(directory);
    const which = allRuns ? `any run in ${directory}` : `run ${runId} (${existsSync(ledgerFile(directory, runId as string)) ? 'all its orders are deleted' : `no ledger in ${directory}: a run that created no orders writes none`})`;
    console.log(`oms-conformance cleanup: nothing to delete for ${which}.${!allRuns && known.length ? ` Runs with a ledger: ${known.slice(-10).join(', ')}` : ''}`);
    return EXIT_CODE.conformant;
  }
  if (options.has('dry-run')) {
    for (const { entry } of pending) console.log(`would delete ${describe(entry)}`);
    for (const { entry } of unanswered) console.log(`would search ${describeInFlight(entry)}`);
    return EXIT_CODE.conformant;
  }
  const baseUrl = trustedBaseUrl(settings.baseUrl, [...pending, ...unanswered].map(({ entry }) => entry));
  const tokens = await accountTokens(settings, baseUrl);
  const http = new AccountHttp(baseUrl, tokens, settings);
  try {
    const found = await findInFlight(unanswered, http, new Set(ledgers.flatMap(({ entries }) => entries.map((entry) => entry.orderId))));
    let failed = 0;
    for (const { entry, file } of [...pending, ...found]) {
      const outcome = await deleteOne(entry, http);
      console.log(`${outcome.done ? outcome.note : `could not delete (${outcome.note})`}: ${describe(entry)}`);
      if (outcome.done) new Ledger(file, entry.runId, entry.baseUrl).deleted(entry.orderId, entry.account);
      else failed++;
    }
    const total = pending.length + found.length;
    console.log(`oms-conformance cleanup: ${total - failed} of ${total} order(s) gone${failed ? `, ${failed} left` : ''}.`);
    return failed ? EXIT_CODE.violations : EXIT_CODE.conformant;
  } finally {
    http.close();
  }
}

/**
 * The orders the unanswered creates made, found in their accounts by marker: each is written to its
 * ledger as created (so a later cleanup knows it) and returned to be deleted. A create whose body had no
 * marker cannot be told from another client's order: it is reported, and nothing is deleted for it.
 */
async function findInFlight(unanswered: Pending[], http: AccountHttp, known: Set<string>): Promise<Pending[]> {
  const found: Pending[] = [];
  const unmarked = unanswered.filter(({ entry }) => entry.marker === undefined);
  if (unmarked.length) {
    console.log(
      `oms-conformance cleanup: ${unmarked.length} create(s) got no answer and their bodies carried no marker (generated bodies): ` +
        'an order they may have made cannot be told from other orders, so none is deleted for them. Look for orders created by the run at the times below:',
    );
    for (const { entry } of unmarked) console.log(`  ${describeInFlight(entry)}`);
  }
  for (const account of ['A', 'B'] as const) {
    const marked = unanswered.filter(({ entry }) => entry.account === account && entry.marker !== undefined);
    if (!marked.length) continue;
    const markers = new Set(marked.map(({ entry }) => entry.marker as string));
    const listed = await http.ordersNamed(account, markers);
    if (typeof listed === 'string') {
      console.log(`could not search account ${account} for ${marked.length} create(s) that got no answer (${listed})`);
      continue;
    }
    for (const { entry, file } of marked) {
      const matches = listed.filter((order) => order.name === entry.marker && !known.has(order.id));
      if (!matches.length) console.log(`not found (the create made no order, or the list does not show it yet): ${describeInFlight(entry)}`);
      for (const order of matches) {
        known.add(order.id);
        const ledger = new Ledger(file, entry.runId, entry.baseUrl);
        ledger.created(order.id, account, entry.marker);
        found.push({ entry: { ...entry, event: 'created', orderId: order.id }, file });
      }
    }
  }
  return found;
}

/**
 * The base URL credentials may go to: the one the user gives, never one read from a ledger file (anyone
 * who can write to the ledger directory could plant an address that collects the token and client secret).
 */
function trustedBaseUrl(given: string | undefined, entries: LedgerEntry[]): string {
  const recorded = [...new Set(entries.map((entry) => entry.baseUrl.replace(/\/+$/, '')))];
  if (!given) {
    throw new UsageError(
      `cleanup sends credentials only to a base URL you give: add --base-url (or OMS_BASE_URL). The ledger records ${recorded.map((url) => JSON.stringify(url)).join(', ')}.`,
    );
  }
  const foreign = recorded.filter((url) => url !== given);
  if (foreign.length) {
    throw new UsageError(
      `the ledger records orders of ${foreign.map((url) => JSON.stringify(url)).join(', ')}, not of --base-url ${JSON.stringify(given)}; nothing was sent. ` +
        'Run cleanup once per server, with that server as --base-url.',
    );
  }
  return given;
}

/** An order as cleanup prints it: the id (server text) quoted and made visible, so it cannot start a line of its own. */
function describe(entry: LedgerEntry): string {
  return `order ${quoted(entry.orderId)} (account ${entry.account}, run ${entry.runId}, created ${entry.at}, ${visible(entry.baseUrl)})`;
}

function describeInFlight(entry: LedgerEntry): string {
  const what = entry.marker === undefined ? 'a body without a marker' : `customer name ${quoted(entry.marker)}`;
  return `account ${entry.account} for the order of a create sent at ${entry.at} with ${what} (run ${entry.runId}, ${visible(entry.baseUrl)})`;
}

type Tokens = Partial<Record<LedgerEntry['account'], string>>;

/** Tokens of both accounts; client credentials go only to the base URL the user gave. */
async function accountTokens(settings: Settings, baseUrl: string): Promise<Tokens> {
  const tokens: Tokens = { A: settings.token, B: settings.tokenB };
  for (const account of ['A', 'B'] as const) {
    const credentials = clientCredentials(settings, account);
    if (!credentials) continue;
    // A refused token request is a configuration problem: one line, exit 2.
    const issued = await fetchToken(baseUrl, credentials, settings.tokenAuth, settings.requestTimeoutMs).catch((error: Error) => {
      throw error instanceof TokenError ? new UsageError(error.message) : error;
    });
    tokens[account] = issued.accessToken;
  }
  return tokens;
}

/** Requests as one account, to the base URL the user gave: the suite's transport (no redirect followed, bounded in time and size). */
class AccountHttp {
  private readonly transport = new HttpTransport();

  constructor(
    private readonly baseUrl: string,
    private readonly tokens: Tokens,
    private readonly settings: Settings,
  ) {}

  close(): void {
    this.transport.close();
  }

  /** The status and body of one request, or why there is none (no token for the account, a transport error). */
  async send(account: LedgerEntry['account'], method: string, path: string): Promise<{ status: number; body: string } | string> {
    const token = this.tokens[account];
    if (!token) return `no token for account ${account}: give ${account === 'A' ? '--token' : '--token-b'}`;
    try {
      const response = await this.transport.send({
        url: `${this.baseUrl}${path}`,
        method,
        headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
        timeoutMs: this.settings.requestTimeoutMs,
        maxResponseBytes: this.settings.maxResponseBytes,
      });
      return { status: response.status, body: response.body.toString('utf8') };
    } catch (error) {
      return visible(redact((error as Error).message));
    }
  }

  /** Every order of the account whose summary's customer name is one of `names` (id and name), reading every page; or why it could not. */
  async ordersNamed(account: LedgerEntry['account'], names: Set<string>): Promise<Array<{ id: string; name: string }> | string> {
    const found: Array<{ id: string; name: string }> = [];
    const { method, path } = requestLine('listOrders');
    for (let page = 1; page <= MAX_SEARCH_PAGES; page++) {
      const answer = await this.send(account, method, `${path}?page=${page}&limit=${SEARCH_PAGE_LIMIT}`);
      if (typeof answer === 'string') return answer;
      if (answer.status >= 300) return `GET ${path}?page=${page} answered ${answer.status}`;
      const data = parseList(answer.body);
      if (data === undefined) return `GET ${path}?page=${page} answered no list`;
      for (const order of data) {
        const name = order.customer?.name;
        if ((typeof order.id === 'string' || typeof order.id === 'number') && typeof name === 'string' && names.has(name)) found.push({ id: String(order.id), name });
      }
      if (data.length < SEARCH_PAGE_LIMIT) return found;
    }
    return found;
  }
}

function parseList(body: string): Array<{ id?: unknown; customer?: { name?: unknown } }> | undefined {
  try {
    const data = (JSON.parse(body) as { data?: unknown }).data;
    return Array.isArray(data) ? data : undefined;
  } catch {
    return undefined;
  }
}

async function deleteOne(entry: LedgerEntry, http: AccountHttp): Promise<{ done: boolean; note: string }> {
  let line: { method: string; path: string };
  try {
    line = orderRequestLine('deleteOrder', entry.orderId);
  } catch (error) {
    // An id that cannot be one path segment is never sent: the message says why.
    return { done: false, note: visible(redact((error as Error).message)) };
  }
  const answer = await http.send(entry.account, line.method, line.path);
  if (typeof answer === 'string') return { done: false, note: answer };
  if (answer.status >= 200 && answer.status < 300) return { done: true, note: `deleted (${answer.status})` };
  if (answer.status === 404 || answer.status === 410) return { done: true, note: `already gone (${answer.status})` };
  return { done: false, note: `${line.method} answered ${answer.status}` };
}
