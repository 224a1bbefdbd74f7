import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEVELOPMENT_ACCOUNTS } from './accounts';
import { createReferenceApp, type ReferenceApp, type ReferenceOptions } from './app';

/** The request head the listener reads, past the app's own limit (DEFAULT_MAX_HEADER_BYTES). */
const LISTENER_MAX_HEADER_BYTES = 64 * 1024;

export interface RunningReference {
  url: string;
  app: ReferenceApp;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1; port 0 (the default) picks a free port. */
export async function startReferenceServer(options: ReferenceOptions & { port?: number } = {}): Promise<RunningReference> {
  const app = createReferenceApp(options);
  // Node's parser would refuse a head over 16 KiB itself, with a bare 431: the app refuses it, with the envelope, and a behaviour (a proxy in front) may answer it first.
  const server: Server = createServer({ maxHeaderSize: LISTENER_MAX_HEADER_BYTES }, app.handle);
  // Expect: 100-continue is the app's to answer: a behaviour may refuse the request on its headers, before the body is sent.
  server.on('checkContinue', app.handle);
  server.keepAliveTimeout = Math.min(5000, ...(options.behaviours ?? []).map((b) => b.keepAliveTimeoutMs ?? 5000));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  app.start();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    close: () =>
      new Promise<void>((resolve) => {
        app.stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Serves the reference server on PORT (8080 by default) until SIGINT or SIGTERM, printing the development
 * tokens of its two accounts: `npm run reference`. The self-proof serves it with behaviours the same way.
 */
export function serveUntilStopped(options: ReferenceOptions = {}): void {
  const port = Number(process.env.PORT ?? 8080);
  void startReferenceServer({ ...options, port }).then((running) => {
    const [a, b] = DEVELOPMENT_ACCOUNTS;
    console.log(`Reference Order Management Service listening on ${running.url}`);
    console.log(`  account A: Authorization: Bearer ${a.developmentToken}   (POST /token with client_id=${a.client.id}, client_secret=${a.client.secret})`);
    console.log(`  account B: Authorization: Bearer ${b.developmentToken}`);
    console.log(`  try: curl -H 'Authorization: Bearer ${a.developmentToken}' ${running.url}/orders`);
    const stop = () => void running.close().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

if (require.main === module) serveUntilStopped();
