import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fullOrder } from '../contract/examples';
import { DEVELOPMENT_ACCOUNTS } from '../reference/accounts';
import { createReferenceApp, type Behaviour, type ReferenceApp } from '../reference/app';
import { createOrder } from '../reference/routes/orders';
import type { OrderStore } from '../reference/store';
import { nowMs } from './stats';

/** One request the suite sent, as it arrived, and what the server answered. */
export interface RecordedRequest {
  /** When it arrived, on the bench's clock (stats.nowMs). */
  arrivedAt: number;
  /** Arrival to the last byte of the response, in the server. */
  serverMs: number;
  method: string;
  /** Path and query exactly as sent. */
  url: string;
  /** The headers a replay needs to make the server do the same work. */
  headers: Record<string, string>;
  body?: Buffer;
  status: number;
  responseContentType?: string;
  /** The response body; kept while the recording stays under its byte budget (POST /orders always). */
  responseText?: string;
}

export interface BenchReference {
  url: string;
  app: ReferenceApp;
  /** Every request since the start (or the last take()), in order of arrival. */
  take(): RecordedRequest[];
  close(): Promise<void>;
}

export interface BenchReferenceOptions {
  /** Orders of account A created before the server listens. */
  prefill?: number;
  /** Another store than the reference's own (the before/after comparison of a store fix). */
  store?: OrderStore;
  /** Response bodies kept for the validation corpus, in bytes (POST /orders bodies are kept regardless: replays map ids with them). */
  responseBudgetBytes?: number;
  /** Faults and knobs (selftest/reference/behaviours.ts behavioursFromEnvironment): a faulty or slow server, still recorded. */
  behaviours?: Behaviour[];
}

const REPLAYED_HEADERS = ['authorization', 'content-type', 'accept'];

/**
 * The reference server with a recorder in front of its request listener. startReferenceServer is not
 * used because it does not expose the listener, and a Behaviour only sees requests after the body is
 * parsed (a 413 would go uncounted); the app itself is the same, clean unless given behaviours.
 */
export async function startBenchReference(options: BenchReferenceOptions = {}): Promise<BenchReference> {
  const app = createReferenceApp({ store: options.store, behaviours: options.behaviours });
  prefillAccount(app, DEVELOPMENT_ACCOUNTS[0].id, options.prefill ?? 0);
  let budget = options.responseBudgetBytes ?? 64 * 1024 * 1024;
  let recorded: RecordedRequest[] = [];

  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const arrivedAt = nowMs();
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    let responseText: string | undefined;
    const end = outgoing.end.bind(outgoing) as (...args: unknown[]) => ServerResponse;
    (outgoing as { end: unknown }).end = (...args: unknown[]) => {
      if (typeof args[0] === 'string') responseText = args[0];
      return end(...args);
    };
    outgoing.on('finish', () => {
      const method = incoming.method ?? 'GET';
      const url = incoming.url ?? '/';
      const keep = responseText !== undefined && (budget >= responseText.length || (method === 'POST' && url.startsWith('/orders')));
      if (keep) budget -= responseText!.length;
      recorded.push({
        arrivedAt,
        serverMs: nowMs() - arrivedAt,
        method,
        url,
        headers: Object.fromEntries(REPLAYED_HEADERS.flatMap((name) => (incoming.headers[name] === undefined ? [] : [[name, String(incoming.headers[name])]]))),
        body: chunks.length ? Buffer.concat(chunks) : undefined,
        status: outgoing.statusCode,
        responseContentType: outgoing.getHeader('content-type')?.toString(),
        responseText: keep ? responseText : undefined,
      });
    });
    app.handle(incoming, outgoing);
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  app.start();
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    app,
    take: () => {
      const taken = recorded;
      recorded = [];
      return taken;
    },
    close: () =>
      new Promise<void>((resolve) => {
        app.stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Creates orders through the create route itself (no HTTP), so they are stored exactly as POST /orders stores them. */
export function prefillAccount(app: ReferenceApp, accountId: string, count: number): void {
  for (let i = 0; i < count; i++) {
    const reply = createOrder(
      { method: 'POST', path: '/orders', query: new URLSearchParams(), headers: {}, bodyText: JSON.stringify(fullOrder()) },
      app.services,
      accountId,
    );
    if (reply.status !== 201) throw new Error(`bench: pre-filling the account failed with ${reply.status}`);
  }
}
