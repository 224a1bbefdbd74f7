/**
 * Shell words for reproduction lines. Every argument is one word whatever it holds: literal text in single
 * quotes (ANSI-C $'…' where it holds control or invisible characters, so the line stays one line), and
 * only the suite's own placeholders ($OMS_TOKEN …) expand, written ${NAME} so no following letter can
 * change the variable's name.
 */
import { hasInvisible } from '../../config/safe-text';

export function shellWord(text: string, placeholders: readonly string[] = []): string {
  if (text === '') return "''";
  const names = [...placeholders].sort((a, b) => b.length - a.length).map((p) => p.replace(/^\$/, ''));
  const parts: string[] = [];
  let literal = '';
  for (let i = 0; i < text.length; ) {
    const name = text[i] === '$' ? names.find((n) => text.startsWith(n, i + 1)) : undefined;
    if (name) {
      if (literal) parts.push(quoteLiteral(literal));
      literal = '';
      parts.push(`"\${${name}}"`);
      i += name.length + 1;
    } else {
      literal += text[i];
      i++;
    }
  }
  if (literal) parts.push(quoteLiteral(literal));
  return parts.join('');
}

/**
 * A body that holds a NUL byte, which no shell word can carry: curl reads it from printf, whose format
 * string writes every byte back (\xHH escapes), so the line stays one line and the bytes stay exact.
 */
export function printfSubstitution(text: string): string {
  const format = [...Buffer.from(text, 'utf8')]
    .map((byte) => (byte === 0x25 ? '%%' : byte === 0x5c ? '\\\\' : byte >= 0x20 && byte < 0x7f && byte !== 0x27 ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`))
    .join('');
  return `<(printf '${format}')`;
}

function quoteLiteral(text: string): string {
  if (!hasInvisible(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  // ANSI-C quoting: bash decodes the escapes back into the exact characters.
  const escaped = [...text]
    .map((c) => {
      if (c === '\\') return '\\\\';
      if (c === "'") return "\\'";
      if (!hasInvisible(c)) return c;
      // Byte escapes of the UTF-8 encoding: bash decodes them the same in every locale.
      return [...Buffer.from(c, 'utf8')].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('');
    })
    .join('');
  return `$'${escaped}'`;
}
