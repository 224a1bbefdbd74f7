import { existsSync } from 'node:fs';
import { EXIT_CODE } from '../config/exit-codes';
import { registerSettingsSecrets, type Settings } from '../config/settings';
import { orderRequestLine } from '../harness/http/order-path';
import { HttpTransport } from '../harness/http/transport';
import { Ledger, ledgerFile, ledgerRuns, leftovers, readLedger, type LedgerEntry } from '../harness/http/ledger';
import { redact } from '../harness/http/redaction';
import { clientCredentials, fetchToken, TokenError } from '../harness/http/token';
import { checkedSettings, environmentFrom } from './environment';
import { UsageError, type Parsed } from './options';

/**
 * `oms-conformance cleanup --run-id ID` (or --all-runs): deletes the orders a run's ledger records as
 * created and not deleted, each with the token of the account that created it, and nothing else:
 * no listing, no search, only the ids in the ledger.
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
  const pending = runs.flatMap((run) => {
    const file = ledgerFile(directory, run);
    return existsSync(file) ? leftovers(readLedger(file)).map((entry) => ({ entry, file })) : [];
  });
  if (!pending.length) {
    const known = ledgerRuns(directory);
    const which = allRuns ? `any run in ${directory}` : `run ${runId} (${existsSync(ledgerFile(directory, runId as string)) ? 'all its orders are deleted' : `no ledger in ${directory}: a run that created no orders writes none`})`;
    console.log(`oms-conformance cleanup: nothing to delete for ${which}.${!allRuns && known.length ? ` Runs with a ledger: ${known.slice(-10).join(', ')}` : ''}`);
    return EXIT_CODE.conformant;
  }
  if (options.has('dry-run')) {
    for (const { entry } of pending) console.log(`would delete ${describe(entry)}`);
    return EXIT_CODE.conformant;
  }
  const baseUrl = trustedBaseUrl(settings.baseUrl, pending.map(({ entry }) => entry));
  const tokens = await accountTokens(settings, baseUrl);
  let failed = 0;
  for (const { entry, file } of pending) {
    const outcome = await deleteOne(entry, baseUrl, tokens, settings);
    console.log(`${outcome.done ? outcome.note : `could not delete (${outcome.note})`}: ${describe(entry)}`);
    if (outcome.done) new Ledger(file, entry.runId, entry.baseUrl).deleted(entry.orderId, entry.account);
    else failed++;
  }
  console.log(`oms-conformance cleanup: ${pending.length - failed} of ${pending.length} order(s) gone${failed ? `, ${failed} left` : ''}.`);
  return failed ? EXIT_CODE.violations : EXIT_CODE.conformant;
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

function describe(entry: LedgerEntry): string {
  return `order ${entry.orderId} (account ${entry.account}, run ${entry.runId}, created ${entry.at}, ${entry.baseUrl})`;
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

async function deleteOne(entry: LedgerEntry, baseUrl: string, tokens: Tokens, settings: Settings): Promise<{ done: boolean; note: string }> {
  const token = tokens[entry.account];
  if (!token) return { done: false, note: `no token for account ${entry.account}: give ${entry.account === 'A' ? '--token' : '--token-b'}` };
  // The suite's transport: no redirect followed, bounded in time and size.
  const transport = new HttpTransport();
  try {
    const { method, path } = orderRequestLine('deleteOrder', entry.orderId);
    const response = await transport.send({
      url: `${baseUrl}${path}`,
      method,
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
      timeoutMs: settings.requestTimeoutMs,
      maxResponseBytes: settings.maxResponseBytes,
    });
    if (response.status >= 200 && response.status < 300) return { done: true, note: `deleted (${response.status})` };
    if (response.status === 404 || response.status === 410) return { done: true, note: `already gone (${response.status})` };
    return { done: false, note: `${method} answered ${response.status}` };
  } catch (error) {
    // An id that cannot be one path segment is never sent (orderRequestLine throws): the message says why.
    return { done: false, note: redact((error as Error).message) };
  } finally {
    transport.close();
  }
}
