/** A secret the suite knows (a token, the client secret), with the shell variable that stands for it in output. */
interface Secret {
  placeholder: string;
  /** The secret as written, with any character JSON-\u-escaped or percent-encoded (each its own way). */
  escaped: RegExp;
  /** Base64 and base64url text that only the secret's bytes determine, at each of the three byte alignments. */
  base64: string[];
  /** The secret in lower case when it is all ASCII, without a space, a backslash or a percent sign (see mayHold), else undefined. */
  asciiLower: string | undefined;
}

const secrets = new Map<string, Secret>();
/**
 * The length of the shortest text any form of a known secret can be: as written or escaped, a character is
 * never shorter than itself ("+" for a space is as long), and a base64 form is as long as it is.
 */
let shortestForm = Infinity;

/** Shorter secrets are masked only where they stand alone (see standingAlone): anywhere, they would blank out ordinary text. */
const SHORT_SECRET = 6;

export function registerSecret(value: string | undefined, placeholder: string): void {
  if (!value || secrets.has(value)) return;
  const short = value.length < SHORT_SECRET;
  const base64 = short ? [] : base64Forms(value);
  secrets.set(value, {
    placeholder,
    escaped: short ? standingAlone(escapedForms(value)) : escapedForms(value),
    base64,
    // A backslash or a percent sign of the secret's own begins escapes, and a space may be written "+" beside a "+" of its
    // own: only the pattern reads those.
    asciiLower: /^[\x21-\x7e]+$/.test(value) && !/[\\%]/.test(value) ? value.toLowerCase() : undefined,
  });
  shortestForm = Math.min(shortestForm, value.length, ...base64.map((form) => form.length));
}

/**
 * A short secret's pattern, matched only where no letter, digit or other token character (RFC 6750
 * b64token: - . _ ~ + /) touches it: "Bearer x" and "token=x" are masked, the x of "box" is not.
 */
function standingAlone(pattern: RegExp): RegExp {
  const token = '[A-Za-z0-9\\-._~+/]';
  return new RegExp(`(?<!${token})(?:${pattern.source})(?!${token})`, pattern.flags);
}

/**
 * The shell variables that stand for secrets in output: the only text a reproduction line lets the shell expand.
 * A secret masked with no variable to stand for it (config/credentials.ts MASK) is no placeholder.
 */
export function placeholders(): string[] {
  return [...new Set(['$OMS_TOKEN', '$OMS_TOKEN_B', '$OMS_CLIENT_SECRET', ...[...secrets.values()].map((s) => s.placeholder).filter((p) => p.startsWith('$'))])];
}

/**
 * Replaces every known secret in text by its placeholder ($OMS_TOKEN …): verbatim, with characters
 * \u-escaped (JSON) or percent-encoded (URLs, forms), and inside base64 (HTTP Basic "id:secret").
 */
export function redact(text: string): string {
  // Redaction runs on every header and body of every exchange: a text shorter than every form of every secret is most headers.
  if (text.length < shortestForm) return text;
  let out = text;
  let view: TextView | undefined;
  for (const secret of secrets.values()) {
    view ??= textView(out);
    if (mayHold(view, secret)) out = out.replace(secret.escaped, secret.placeholder);
    for (const form of secret.base64) if (out.includes(form)) out = out.split(form).join(secret.placeholder);
    if (out !== view.text) view = undefined;
  }
  return out;
}

/** What mayHold asks of a text, worked out once for all secrets (again only after a replacement changed it). */
interface TextView {
  text: string;
  lower: string;
  escapable: boolean;
  /** The text with every escape a form of an ASCII character may take read as that character, in lower case; made when first asked. */
  unescaped?: string;
}

function textView(text: string): TextView {
  return { text, lower: text.toLowerCase(), escapable: /[\\%+]/.test(text) };
}

/**
 * The text with each escape of an ASCII character read as the character: \uXXXX, %XX, \/, \" and \\, every one
 * wherever it stands (an escape inside another's text is read too: "\\u0041" holds \u0041, which the pattern may
 * match), so any text the pattern of an ASCII secret without a space matches holds the secret here.
 */
function unescapedLower(view: TextView): string {
  view.unescaped ??= view.text
    .replace(/\\u([0-9a-fA-F]{4})/g, (escape, hex: string) => (parseInt(hex, 16) < 0x80 ? String.fromCharCode(parseInt(hex, 16)) : escape))
    .replace(/%([0-7][0-9a-fA-F])/g, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\([\\/"])/g, '$1')
    .toLowerCase();
  return view.unescaped;
}

/**
 * False only when the escaped pattern cannot match: each form of a character other than the character
 * itself holds a backslash, a percent sign or a plus, so in a text without them only the secret as written
 * (case aside) can match. The pattern, one alternation per character, is the costly part of redaction.
 * Lower-casing keeps every ASCII run as it is, so an ASCII secret present in any case is never missed
 * (the `i` flag never folds a non-ASCII character to ASCII).
 */
function mayHold(view: TextView, secret: Secret): boolean {
  if (secret.asciiLower === undefined) return true;
  if (!view.escapable) return view.lower.includes(secret.asciiLower);
  return unescapedLower(view).includes(secret.asciiLower);
}

/** One pattern: each character as itself, as \uXXXX, as its UTF-8 %XX bytes, or (a space) as "+". */
export function escapedForms(value: string): RegExp {
  const parts = [...value].map((char) => {
    const forms = [char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')];
    // JSON escapes a character outside the BMP as its surrogate pair: \ud83d\ude00.
    forms.push([...Array(char.length).keys()].map((i) => `\\\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''));
    forms.push([...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''));
    if (char === ' ') forms.push('\\+');
    if (char === '/') forms.push('\\\\/');
    if (char === '"' || char === '\\') forms.push(`\\\\\\${char}`);
    return `(?:${forms.join('|')})`;
  });
  // Case-insensitive for the hex digits of the escapes; a secret differing only in case is masked too.
  return new RegExp(parts.join(''), 'gi');
}

function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // Characters of the first group depend on the bytes before the secret; of the last, on those after.
    const inner = encoded.slice(offset === 0 ? 0 : 4, Math.floor((offset + bytes.length) / 3) * 4);
    if (inner.length < 8) continue;
    forms.add(inner);
    forms.add(inner.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms];
}
