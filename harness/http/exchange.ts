import { excerpt } from '../../contract/openapi';
import { parseJson, type Exchange } from '../../contract/exchange';
import type { OperationId } from '../../contract/openapi';
import { placeholders, redact } from '../../config/redaction';
import { withCredentialsMasked } from '../../config/credentials';
import { clipText, hasInvisible } from '../../config/safe-text';
import { hasLongRun, printfCommand, printfGroup, shellWord } from './shell';

/**
 * A copy-pasteable curl line, built from the request the suite sent (never from text a server could
 * shape): every argument one shell word, exact under sh, bash and zsh (harness/http/shell.ts). Only in
 * headers, where the suite itself puts credentials, does a placeholder expand (the token as ${OMS_TOKEN});
 * the URL and body, which may quote server values, stay literal. A body with a control or invisible
 * character comes from printf on stdin, so the line stays one printable line; one with a long run of a character
 * (the suite's 2 MiB padding) from a loop of printf, so the line stays short.
 */
export function curlLine(request: Exchange['request']): string {
  const known = placeholders();
  const words = ['curl', '-sS', '-i', '-X', shellWord(request.method), shellWord(request.url)];
  for (const [name, value] of Object.entries(request.headers)) words.push('-H', shellWord(`${name}: ${value}`, known));
  if (request.body !== undefined && hasLongRun(request.body)) return `${printfGroup(request.body)} | ${[...words, '--data-binary', '@-'].join(' ')}`;
  if (request.body !== undefined && hasInvisible(request.body)) return `${printfCommand(request.body)} | ${[...words, '--data-binary', '@-'].join(' ')}`;
  if (request.body !== undefined) words.push('--data-raw', shellWord(request.body));
  return words.join(' ');
}

export function clip(text: string, max: number): string {
  return clipText(redact(text), max);
}

export { excerpt };

/** What was sent and what came back, as the transport saw them: the raw parts of an Exchange. */
export interface SentAndAnswered {
  operationId?: OperationId;
  method: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  response: { status: number; headers: Record<string, string>; body: Buffer; timing?: Exchange['timing']; answeredBeforeBody?: boolean };
  retries?: number;
}

/** The one way an exchange is made from what went over the wire: every secret redacted by value and every credential by position, the body parsed once. */
export function redactedExchange({ operationId, method, url, path, headers, body, response, retries = 0 }: SentAndAnswered): Exchange {
  const text = redact(response.body.toString('utf8'));
  return withCredentialsMasked({
    operationId,
    request: { method, url: redact(url), path: redact(path), headers: redactHeaders(headers), body: body === undefined ? undefined : redact(body) },
    status: response.status,
    headers: redactHeaders(response.headers),
    text,
    json: parseJson(text),
    retries,
    timing: response.timing,
    ...(response.answeredBeforeBody && { answeredBeforeBody: true as const }),
  });
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, redact(value)]));
}
