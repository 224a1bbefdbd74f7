/**
 * Shell words for reproduction lines, exact under POSIX sh, bash and zsh alike, and printable as they are: every
 * argument is one word whatever it holds, literal text in single quotes, and only the suite's own placeholders
 * ($OMS_TOKEN …) expand, written ${NAME} so no following letter can change the variable's name. No line holds a
 * control or invisible character, so every channel prints it unchanged (config/safe-text.ts commandText) and
 * it runs as printed. Text that holds one is written as octal escapes that printf turns back into the bytes:
 * ANSI-C quoting ($'…') is not in the sh of most systems (dash), and a single-quoted line break would split
 * the line.
 */
import type { SecretSource, TokenSource } from '../../config/command-credentials';
import { hasInvisible } from '../../config/safe-text';
import { bodyBytes } from '../../contract/exchange';

/**
 * `text` as one shell word; each placeholder in it ($OMS_TOKEN …), a key of `expansions`, becomes the shell
 * expansion beside it, double-quoted ("${OMS_TOKEN}", "$(cat 'a.token')"): the only text of the word the shell expands.
 */
export function shellWord(text: string, expansions: Readonly<Record<string, string>> = {}): string {
  if (text === '') return "''";
  const placeholders = Object.keys(expansions).sort((a, b) => b.length - a.length);
  const parts: string[] = [];
  let literal = '';
  for (let i = 0; i < text.length; ) {
    const placeholder = text[i] === '$' ? placeholders.find((p) => text.startsWith(p, i)) : undefined;
    if (placeholder) {
      if (literal) parts.push(quoteLiteral(literal));
      literal = '';
      parts.push(`"${expansions[placeholder]}"`);
      i += placeholder.length;
    } else {
      literal += text[i];
      i++;
    }
  }
  if (literal) parts.push(quoteLiteral(literal));
  return parts.join('');
}

/** The expansion of a variable, written ${NAME} so no following letter can change its name. */
export function variableExpansion(name: string): string {
  return `\${${name.replace(/^\$/, '')}}`;
}

/**
 * The expansion, inside double quotes, that gives a secret back in the user's shell as they gave it: their
 * variable; the file they named, read again; or, typed on the command line, a variable the shell stops at with
 * a message naming the option it stands for where it is not set (`${OMS_TOKEN:?…}`, POSIX sh, bash and zsh alike).
 */
export function secretExpansion(source: SecretSource): string {
  if ('file' in source) return `$(cat ${shellWord(source.file)})`;
  const { variable, typedAs } = source;
  return typedAs ? `\${${variable}:?set ${variable} to the value you gave as ${typedAs}}` : variableExpansion(variable);
}

/**
 * The expansion, inside double quotes, that gives an account's token in the user's shell: its source
 * (secretExpansion), or, with client credentials, a POST /token sent the way the server took them, the secret
 * read from where the user keeps it, the access_token taken from the answer (sed: no tool beyond POSIX).
 */
export function tokenExpansion(source: TokenSource, tokenPath: string): string {
  if ('token' in source) return secretExpansion(source.token);
  const { baseUrl, clientId, clientSecret, auth } = source.signIn;
  const secret = secretExpansion(clientSecret);
  const send =
    auth === 'json'
      ? `-H 'Content-Type: application/json' --data-binary "${inDoubleQuotes(`{"grant_type":"client_credentials","client_id":${JSON.stringify(clientId)},"client_secret":"`)}${secret}${inDoubleQuotes('"}')}"`
      : auth === 'basic'
        ? `--data-urlencode grant_type=client_credentials -u "${inDoubleQuotes(`${clientId}:`)}${secret}"`
        : `--data-urlencode grant_type=client_credentials --data-urlencode ${shellWord(`client_id=${clientId}`)} --data-urlencode "client_secret=${secret}"`;
  return `$(curl -sS -X POST ${shellWord(`${baseUrl}${tokenPath}`)} -H 'Accept: application/json' ${send} | sed -n 's/.*"access_token" *: *"\\([^"]*\\)".*/\\1/p')`;
}

/** Literal text inside double quotes: the four characters the shell reads there (\ " $ `) escaped. */
function inDoubleQuotes(text: string): string {
  return text.replace(/[\\"$`]/g, (char) => `\\${char}`);
}

/**
 * A command that writes `text` to stdout byte for byte, for `printf … | curl … --data-binary @-`: a body may
 * end with a line break, which command substitution ("$(printf …)") would drop, and may hold NUL, which no
 * shell word can carry.
 */
export function printfCommand(text: string): string {
  return `printf ${printfFormat(text)}`;
}

/** A run of one character at least this long goes through a loop of printf: a 2 MiB padding body makes a short line. */
const LONG_RUN = 4096;
const RUN_BLOCK = 1024;
const LONG_RUN_SOURCE = `(.)\\1{${LONG_RUN - 1},}`;

/** True when `text` holds a run of one character LONG_RUN long or longer. */
export function hasLongRun(text: string): boolean {
  return new RegExp(LONG_RUN_SOURCE, 'su').test(text);
}

/**
 * Commands of the shell's own (printf, while, [) that write `text` to stdout byte for byte, in a group for a pipe:
 * the text between long runs as printfCommand writes it, each long run as a loop that prints a block of it, so the
 * line stays short however long the run.
 */
export function printfGroup(text: string): string {
  const commands: string[] = [];
  let from = 0;
  for (const match of text.matchAll(new RegExp(LONG_RUN_SOURCE, 'gsu'))) {
    if (match.index > from) commands.push(printfCommand(text.slice(from, match.index)));
    const char = match[1];
    const count = [...match[0]].length;
    const blocks = Math.floor(count / RUN_BLOCK);
    commands.push(`i=0; while [ "$i" -lt ${blocks} ]; do printf ${printfFormat(char.repeat(RUN_BLOCK))}; i=$((i + 1)); done`);
    if (count % RUN_BLOCK > 0) commands.push(printfCommand(char.repeat(count % RUN_BLOCK)));
    from = match.index + match[0].length;
  }
  if (from < text.length) commands.push(printfCommand(text.slice(from)));
  return `{ ${commands.join('; ')}; }`;
}

function quoteLiteral(text: string): string {
  if (!hasInvisible(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  // Only where HTTP allows no line break (a method, a URL, a header), so command substitution loses nothing.
  return `"$(printf ${printfFormat(text)})"`;
}

/**
 * A single-quoted printf format that prints exactly the bytes `text` stands for (its UTF-8, and each byte that is
 * not UTF-8 as itself: contract/exchange.ts bodyBytes): printable ASCII as it is, every other byte as a three-digit
 * octal escape (the only numeric escape POSIX printf has: \x is bash's), the quote and a leading "-" (an option to
 * some printf) escaped too.
 */
function printfFormat(text: string): string {
  const octal = (byte: number) => `\\${byte.toString(8).padStart(3, '0')}`;
  const format = [...bodyBytes(text)]
    .map((byte, index) => {
      if (byte === 0x25) return '%%';
      if (byte === 0x5c) return '\\\\';
      if (byte === 0x27 || (index === 0 && byte === 0x2d) || byte < 0x20 || byte >= 0x7f) return octal(byte);
      return String.fromCharCode(byte);
    })
    .join('');
  return `'${format}'`;
}
