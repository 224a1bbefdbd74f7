import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Exchange } from '../../contract/exchange';
import { redactedExchange } from './exchange';
import { ACCEPT_ENCODING, decodedBody, flattenHeaders } from './transport';

/** Requests of the probe: the first pays for the connection, the second is the round trip. */
const PROBES = 2;
/** The probe gives up after this long in all: a server that slow is met by the preflight's own message. */
const PROBE_LIMIT_MS = 5_000;

/** Of each answer, the body bytes the probe hands back to be judged (as sent, and once decoded): a 401 envelope is a few hundred. */
const PROBE_BODY_BYTES = 64 * 1024;

/** What the probe asks with: JSON, in the content codings the tests' transport takes. */
const PROBE_HEADERS = { Accept: 'application/json', 'Accept-Encoding': ACCEPT_ENCODING };

/**
 * The round trip to a server, in ms: the fastest of a few GET /orders?limit=1 on one kept-alive connection, after
 * the first (which pays for the connection), sent without credentials (the answer, 401 or not, changes nothing and
 * carries nothing secret). Undefined when the server does not answer in time. Each answer is handed to `onAnswer`
 * (answers of the run like any other, judged by the caller). The global setup measures it beside its sign-in.
 */
export async function measureRoundTrip(baseUrl: string, onAnswer?: (exchange: Exchange) => void): Promise<number | undefined> {
  const url = `${baseUrl}/orders?limit=1`;
  const agent = new (url.startsWith('https:') ? HttpsAgent : HttpAgent)({ keepAlive: true });
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  const deadline = AbortSignal.timeout(PROBE_LIMIT_MS);
  const once = () =>
    new Promise<{ ms: number; status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
      const started = process.hrtime.bigint();
      const request = send(url, { agent, headers: PROBE_HEADERS, signal: deadline }, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < PROBE_BODY_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, status: response.statusCode ?? 0, headers: flattenHeaders(response.headers), body: Buffer.concat(chunks).subarray(0, PROBE_BODY_BYTES) }));
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end();
    });
  const answers: Array<Awaited<ReturnType<typeof once>>> = [];
  try {
    for (let probe = 0; probe < PROBES; probe++) answers.push(await once());
  } catch {
    return undefined;
  } finally {
    agent.destroy();
  }
  for (const answer of answers) {
    let body: Buffer;
    try {
      // Decoded by its Content-Encoding as the tests' transport decodes every answer, before anything is judged.
      body = decodedBody(answer.headers['content-encoding'], answer.body, PROBE_BODY_BYTES);
    } catch {
      // A body that does not decode is no answer to judge here: the tests' own requests meet it, and say so.
      continue;
    }
    onAnswer?.(redactedExchange({ operationId: 'listOrders', method: 'GET', url, path: '/orders?limit=1', headers: PROBE_HEADERS, response: { status: answer.status, headers: answer.headers, body } }));
  }
  return Math.round(Math.min(...answers.slice(1).map((answer) => answer.ms)));
}
