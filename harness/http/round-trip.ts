import { execFileSync } from 'node:child_process';
import type { Exchange } from '../../contract/exchange';
import { redactedExchange } from './exchange';
import { ACCEPT_ENCODING, decodedBody } from './transport';

/** Requests of the probe: the first pays for the connection, the second is the round trip. */
const PROBES = 2;
/** The probe gives up after this long in all: a server that slow is met by the preflight's own message. */
const PROBE_LIMIT_MS = 5_000;

/** Of each answer, the body bytes the probe hands back to be judged (as sent, and once decoded): a 401 envelope is a few hundred. */
const PROBE_BODY_BYTES = 64 * 1024;

/** What the probe asks with: JSON, in the content codings the tests' transport takes. */
const PROBE_HEADERS = { Accept: 'application/json', 'Accept-Encoding': ACCEPT_ENCODING };

/**
 * The round trip to a server, in ms: the fastest of a few GET /orders?limit=1 on one kept-alive
 * connection, sent without credentials (the answer, 401 or not, changes nothing and carries nothing
 * secret). Synchronous, in a child process, because Playwright reads the number of workers from the config
 * before any asynchronous start-up runs. Undefined when the server does not answer in time. Each answer is
 * handed to `onAnswer` (answers of the run like any other, judged by the caller).
 */
export function measureRoundTrip(baseUrl: string, onAnswer?: (exchange: Exchange) => void): number | undefined {
  const url = `${baseUrl}/orders?limit=1`;
  let probe: { ms?: unknown; answers?: Array<{ status: number; headers: Record<string, string>; body: string }> };
  try {
    const output = execFileSync(process.execPath, ['-e', PROBE_SCRIPT, url, String(PROBES), String(PROBE_BODY_BYTES), ACCEPT_ENCODING], {
      timeout: PROBE_LIMIT_MS,
      stdio: ['ignore', 'pipe', 'ignore'],
      encoding: 'utf8',
    });
    probe = JSON.parse(output) as typeof probe;
  } catch {
    return undefined;
  }
  for (const answer of probe.answers ?? []) {
    let body: Buffer;
    try {
      // Decoded by its Content-Encoding as the tests' transport decodes every answer, before anything is judged.
      body = decodedBody(answer.headers['content-encoding'], Buffer.from(answer.body, 'base64'), PROBE_BODY_BYTES);
    } catch {
      // A body that does not decode is no answer to judge here: the tests' own requests meet it, and say so.
      continue;
    }
    const response = { status: answer.status, headers: answer.headers, body };
    onAnswer?.(redactedExchange({ operationId: 'listOrders', method: 'GET', url, path: '/orders?limit=1', headers: PROBE_HEADERS, response }));
  }
  const ms = Number(probe.ms);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

// Plain node, no project code: it runs in a bare child process. Of each body the first bytes are kept as sent (base64, decoded by
// the caller), the rest drained.
const PROBE_SCRIPT = `
const [url, count, keep, acceptEncoding] = process.argv.slice(1);
const { request } = url.startsWith('https:') ? require('node:https') : require('node:http');
const agent = new (url.startsWith('https:') ? require('node:https') : require('node:http')).Agent({ keepAlive: true });
const answers = [];
const once = () => new Promise((resolve, reject) => {
  const started = process.hrtime.bigint();
  const req = request(url, { agent, headers: { Accept: 'application/json', 'Accept-Encoding': acceptEncoding } }, (res) => {
    const chunks = [];
    let size = 0;
    res.on('data', (chunk) => { if (size < Number(keep)) chunks.push(chunk); size += chunk.length; });
    res.on('end', () => {
      answers.push({ status: res.statusCode, headers: Object.fromEntries(Object.entries(res.headers).map(([name, value]) => [name, [value].flat().join(', ')])), body: Buffer.concat(chunks).subarray(0, Number(keep)).toString('base64') });
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
    res.on('error', reject);
  });
  req.on('error', reject);
  req.end();
});
(async () => {
  const times = [];
  for (let i = 0; i < Number(count); i++) times.push(await once());
  process.stdout.write(JSON.stringify({ ms: Math.round(Math.min(...times.slice(1))), answers }));
  agent.destroy();
})().catch(() => process.exit(1));
`;
