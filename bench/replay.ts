import type { RecordedRequest } from './reference';
import { cpuMsSince, nowMs } from './stats';

export interface ReplayResult {
  wallMs: number;
  /** CPU time of this process meanwhile: the bare client, and the server when it runs in the same process. */
  cpuMs: number;
  requests: number;
  /** Share of replayed requests answered with the status the suite got (ids are mapped, so ~1). */
  sameStatus: number;
}

/**
 * The suite's requests, in the order they arrived, sent one after another by a bare client (Node's
 * fetch, one keep-alive connection, no test runner, no checks). Ids the server assigned during the
 * recording are replaced by the ids it assigns during the replay, so each request does the same work.
 */
export async function replay(baseUrl: string, recorded: RecordedRequest[]): Promise<ReplayResult> {
  const recordedIds = recorded.map(createdId);
  const bodies = recorded.map((request) => (request.body && !['GET', 'HEAD'].includes(request.method) ? new Uint8Array(request.body) : undefined));
  const ids = new Map<string, string>();
  let same = 0;
  const cpu = process.cpuUsage();
  const started = nowMs();
  for (const [index, request] of recorded.entries()) {
    const response = await fetch(`${baseUrl}${mapIds(request.url, ids)}`, {
      method: request.method,
      headers: request.headers,
      body: bodies[index],
      redirect: 'manual',
    });
    const text = await response.text();
    if (response.status === request.status) same++;
    const before = recordedIds[index];
    if (before !== undefined && response.ok) {
      const after = idIn(text);
      if (after !== undefined) ids.set(before, after);
    }
  }
  return { wallMs: nowMs() - started, cpuMs: cpuMsSince(cpu), requests: recorded.length, sameStatus: recorded.length ? same / recorded.length : 1 };
}

/** The id of the order a recorded POST /orders created, if it did. */
function createdId(request: RecordedRequest): string | undefined {
  if (request.method !== 'POST' || !/^\/orders\/?(\?|$)/.test(request.url) || request.status >= 300) return undefined;
  return request.responseText === undefined ? undefined : idIn(request.responseText);
}

function idIn(text: string): string | undefined {
  try {
    const id = (JSON.parse(text) as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  } catch {
    return undefined;
  }
}

function mapIds(url: string, ids: Map<string, string>): string {
  const match = /^\/orders\/([^/?]+)(.*)$/.exec(url);
  if (!match) return url;
  let id: string;
  try {
    id = decodeURIComponent(match[1]);
  } catch {
    return url;
  }
  const mapped = ids.get(id);
  return mapped === undefined ? url : `/orders/${encodeURIComponent(mapped)}${match[2]}`;
}
