import { excerpt } from '../../contract/openapi';
import { parseJson, type Exchange } from '../../contract/exchange';
import type { OperationId } from '../../contract/openapi';
import { placeholders, redact } from '../../config/redaction';
import { withCredentialsMasked } from '../../config/credentials';
import { clipText, hasInvisible } from '../../config/safe-text';
import { hasLongRun, printfCommand, printfGroup, shellWord, tokenExpansion, variableExpansion } from './shell';
import type { CommandCredentials, TokenSource } from '../../config/command-credentials';
import { SETTINGS } from '../../config/settings-table';
import { requestLine } from '../../contract/operations';

/**
 * A copy-pasteable curl line, built from the request the suite sent (never from text a server could
 * shape): every argument one shell word, exact under sh, bash and zsh (harness/http/shell.ts). Only in
 * headers, where the suite itself puts credentials, does a placeholder expand: an account's token the way
 * `credentials` says the user gave it (${OMS_TOKEN}, $(cat 'a.token'), a sign-in with the client credentials),
 * else as its variable; the URL and body, which may quote server values, stay literal. A body with a control or invisible
 * character comes from printf on stdin, so the line stays one printable line; one with a long run of a character
 * (the suite's 2 MiB padding) from a loop of printf, so the line stays short, and so does a header with one.
 */
export function curlLine(request: Exchange['request'], credentials: CommandCredentials = {}): string {
  const known = expansions(credentials);
  const words = ['curl', '-sS', '-i', '-X', shellWord(request.method), shellWord(request.url)];
  for (const [name, value] of Object.entries(request.headers)) words.push('-H', headerWord(`${name}: ${value}`, known));
  if (request.body !== undefined && hasLongRun(request.body)) return `${printfGroup(request.body)} | ${[...words, '--data-binary', '@-'].join(' ')}`;
  if (request.body !== undefined && hasInvisible(request.body)) return `${printfCommand(request.body)} | ${[...words, '--data-binary', '@-'].join(' ')}`;
  if (request.body !== undefined) words.push('--data-raw', shellWord(request.body));
  return words.join(' ');
}

/** A header as one shell word; one with a long run of a character (a 32 KiB header sent on purpose) written by the loop of printf a long body is, so the line stays short. */
function headerWord(header: string, known: Record<string, string>): string {
  return hasLongRun(header) ? `"$(${printfGroup(header)})"` : shellWord(header, known);
}

/** What each placeholder expands to in a command: the accounts' tokens by their source, any other as its variable. */
function expansions(credentials: CommandCredentials): Record<string, string> {
  const tokens: Record<string, TokenSource | undefined> = { [`$${SETTINGS.token.variable}`]: credentials.A, [`$${SETTINGS.tokenB.variable}`]: credentials.B };
  const tokenPath = requestLine('issueToken').path;
  return Object.fromEntries(placeholders().map((placeholder) => {
    const source = tokens[placeholder];
    return [placeholder, source ? tokenExpansion(source, tokenPath) : variableExpansion(placeholder)];
  }));
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
