import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EXIT_CODE } from '../config/exit-codes';
import { registerSecret } from '../config/redaction';
import { withCredentialsMasked } from '../config/credentials';
import { HarError, readHar, type HarExchange } from '../reporter/har';
import { judgeTraffic, trafficLines } from '../reporter/traffic-report';
import { checkedSettings, environmentFrom } from './environment';
import { UsageError, type Parsed } from './options';

/**
 * `oms-conformance judge TRAFFIC.har [--base-url URL] [--profile P] [--json FILE]`: the suite's checks
 * over recorded exchanges (a browser's or a proxy's HAR, logs converted to HAR, failures.har of a run),
 * with no request sent. Exit 1 when a gating requirement failed on the traffic, 0 otherwise.
 */
export function judge({ options, positionals }: Parsed): number {
  if (positionals.length !== 1) throw new UsageError('judge needs one HAR file: oms-conformance judge traffic.har [--base-url URL]');
  const [file] = positionals;
  const settings = checkedSettings(environmentFrom(options), options);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(unreadable(file, error as NodeJS.ErrnoException));
  }
  let recorded: Array<HarExchange & { index: number }>;
  try {
    recorded = readHar(text, settings.baseUrl);
  } catch (error) {
    if (error instanceof HarError) throw new UsageError(`${file} is not a HAR file: ${error.message}`);
    throw error;
  }
  maskCredentials(recorded);
  const report = judgeTraffic(file, recorded, settings.profile, settings);
  console.log(trafficLines(report).join('\n'));
  const json = options.get('json');
  if (typeof json === 'string') writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  return report.verdict === 'failed' ? EXIT_CODE.violations : EXIT_CODE.conformant;
}

/** Why a HAR path cannot be read, and what to give instead. */
function unreadable(file: string, error: NodeJS.ErrnoException): string {
  const where = JSON.stringify(resolve(file));
  const sources =
    'a HAR file: a browser\'s (developer tools, Network, "Save all as HAR"), the traffic.har that `oms-conformance proxy --out DIR` writes, or the failures.har of a run with --har';
  if (error.code === 'ENOENT') return `${file}: no such file (looked for ${where}). Give the path of ${sources}.`;
  if (error.code === 'EISDIR') return `${file} is a folder, not a file. Give the path of ${sources}: in a proxy's --out folder, ${join(file, 'traffic.har')}.`;
  if (error.code === 'EACCES') return `${file}: this user may not read it (EACCES). Make it readable, or give a copy.`;
  return `cannot read ${file}: ${error.code ?? error.message}`;
}

/**
 * A browser's HAR carries real credentials: each is masked where it stands (config/credentials.ts), and an
 * Authorization or Cookie value by value too, everywhere else it shows, in everything judge prints or writes.
 * Every entry is registered before any is masked: a token echoed in an earlier body is masked as well.
 */
export function maskCredentials(recorded: Array<Pick<HarExchange, 'exchange'>>): void {
  for (const { exchange } of recorded) {
    for (const [name, value] of Object.entries(exchange.request.headers)) {
      const header = name.toLowerCase();
      // "Scheme credentials", or a bare token; a scheme alone ("Bearer") is no secret.
      const credentials = /^\s*\S+\s+(\S[\s\S]*?)\s*$/.exec(value)?.[1] ?? (/^[A-Za-z]*$/.test(value.trim()) ? undefined : value.trim());
      if (header === 'authorization' && credentials) registerSecret(credentials, '$OMS_TOKEN');
      if (header === 'cookie') for (const pair of value.split(';')) registerSecret(pair.split('=').slice(1).join('=').trim(), '$COOKIE');
    }
  }
  for (const entry of recorded) entry.exchange = withCredentialsMasked(entry.exchange);
}
