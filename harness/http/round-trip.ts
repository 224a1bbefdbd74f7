import { execFileSync } from 'node:child_process';

/** Requests of the probe: the first pays for the connection, the second is the round trip. */
const PROBES = 2;
/** The probe gives up after this long in all: a server that slow is met by the preflight's own message. */
const PROBE_LIMIT_MS = 5_000;

/**
 * The round trip to a server, in ms: the fastest of a few GET /orders?limit=1 on one kept-alive
 * connection, sent without credentials (the answer, 401 or not, changes nothing and carries nothing
 * secret). Synchronous, in a child process, because Playwright reads the number of workers from the config
 * before any asynchronous start-up runs. Undefined when the server does not answer in time.
 */
export function measureRoundTrip(baseUrl: string): number | undefined {
  try {
    const output = execFileSync(process.execPath, ['-e', PROBE_SCRIPT, `${baseUrl}/orders?limit=1`, String(PROBES)], {
      timeout: PROBE_LIMIT_MS,
      stdio: ['ignore', 'pipe', 'ignore'],
      encoding: 'utf8',
    });
    const ms = Number(output.trim());
    return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
  } catch {
    return undefined;
  }
}

// Plain node, no project code: it runs in a bare child process. Bodies are drained and dropped, never read.
const PROBE_SCRIPT = `
const [url, count] = process.argv.slice(1);
const { request } = url.startsWith('https:') ? require('node:https') : require('node:http');
const agent = new (url.startsWith('https:') ? require('node:https') : require('node:http')).Agent({ keepAlive: true });
const once = () => new Promise((resolve, reject) => {
  const started = process.hrtime.bigint();
  const req = request(url, { agent, headers: { Accept: 'application/json' } }, (res) => {
    res.on('data', () => {});
    res.on('end', () => resolve(Number(process.hrtime.bigint() - started) / 1e6));
    res.on('error', reject);
  });
  req.on('error', reject);
  req.end();
});
(async () => {
  const times = [];
  for (let i = 0; i < Number(count); i++) times.push(await once());
  process.stdout.write(String(Math.round(Math.min(...times.slice(1)))));
  agent.destroy();
})().catch(() => process.exit(1));
`;
