import { excerpt } from '../../contract/openapi';
import type { Exchange } from '../../contract/exchange';
import { placeholders, redact } from '../../config/redaction';
import { clipText, hasInvisible } from '../../config/safe-text';
import { printfCommand, shellWord } from './shell';

/**
 * A copy-pasteable curl line, built from the request the suite sent (never from text a server could
 * shape): every argument one shell word, exact under sh, bash and zsh (harness/http/shell.ts). Only in
 * headers, where the suite itself puts credentials, does a placeholder expand (the token as ${OMS_TOKEN});
 * the URL and body, which may quote server values, stay literal. A body with a control or invisible
 * character comes from printf on stdin, so the line stays one printable line.
 */
export function curlLine(request: Exchange['request']): string {
  const known = placeholders();
  const words = ['curl', '-sS', '-i', '-X', shellWord(request.method), shellWord(request.url)];
  for (const [name, value] of Object.entries(request.headers)) words.push('-H', shellWord(`${name}: ${value}`, known));
  if (request.body !== undefined && hasInvisible(request.body)) return `${printfCommand(request.body)} | ${[...words, '--data-binary', '@-'].join(' ')}`;
  if (request.body !== undefined) words.push('--data-raw', shellWord(request.body));
  return words.join(' ');
}

export function clip(text: string, max: number): string {
  return clipText(redact(text), max);
}

export { excerpt };
