/**
 * A strict tokenizer for the markup the reporter writes (index.html, junit.xml), so the report's safety is
 * proved without a browser: every "<" must open or close a well-formed tag, every "&" must start an
 * entity, attribute values are double-quoted, and elements nest. Anything a server sent that escaped
 * its escaping breaks one of these rules, and tokenize() throws with the offset.
 */
export type Token =
  | { kind: 'open'; name: string; attributes: Record<string, string>; selfClosing: boolean }
  | { kind: 'close'; name: string }
  /** Text, entities decoded. */
  | { kind: 'text'; text: string }
  | { kind: 'other' };

const VOID = new Set(['meta', 'link', 'br', 'hr', 'img', 'input', 'col', 'wbr']);
const RAW_TEXT = new Set(['style', 'script']);
const ENTITY = /^&(amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-f]{1,6});/i;
const OPEN_TAG = /^<([a-zA-Z][\w:-]*)((?:\s+[a-zA-Z_:][\w:.-]*(?:="[^"<]*")?)*)\s*(\/?)>/;
const ATTRIBUTE = /([a-zA-Z_:][\w:.-]*)(?:="([^"<]*)")?/g;

export function tokenize(markup: string, { xml = false }: { xml?: boolean } = {}): Token[] {
  const tokens: Token[] = [];
  const open: string[] = [];
  let at = 0;
  const fail = (why: string): never => {
    throw new Error(`${why} at offset ${at}: ${JSON.stringify(markup.slice(Math.max(0, at - 40), at + 60))}`);
  };
  while (at < markup.length) {
    const rest = markup.slice(at);
    if (rest.startsWith('<')) {
      const special = /^<!--[\s\S]*?-->|^<!doctype html>|^<\?xml[^<>]*\?>/i.exec(rest);
      const close = /^<\/([a-zA-Z][\w:-]*)\s*>/.exec(rest);
      const tag = OPEN_TAG.exec(rest);
      if (special) {
        tokens.push({ kind: 'other' });
        at += special[0].length;
      } else if (close) {
        const name = close[1].toLowerCase();
        if (open.pop() !== name) fail(`</${name}> closes no open <${name}>`);
        tokens.push({ kind: 'close', name });
        at += close[0].length;
      } else if (tag) {
        const name = tag[1].toLowerCase();
        const attributes: Record<string, string> = {};
        for (const [, attribute, value] of tag[2].matchAll(ATTRIBUTE)) attributes[attribute.toLowerCase()] = decode(value ?? '', fail);
        const selfClosing = tag[3] === '/' || (!xml && VOID.has(name));
        tokens.push({ kind: 'open', name, attributes, selfClosing });
        at += tag[0].length;
        if (selfClosing) continue;
        if (!xml && RAW_TEXT.has(name)) {
          // Raw text ends at the first "</name", whatever it is followed by: nothing inside may hold one.
          const end = markup.toLowerCase().indexOf(`</${name}`, at);
          if (end === -1) fail(`<${name}> never closed`);
          tokens.push({ kind: 'text', text: markup.slice(at, end) });
          at = end;
        }
        open.push(name);
      } else {
        fail('a "<" that starts no tag');
      }
    } else {
      const end = markup.indexOf('<', at);
      const raw = markup.slice(at, end === -1 ? markup.length : end);
      if (raw.includes('>')) fail('a raw ">" in text');
      tokens.push({ kind: 'text', text: decode(raw, fail) });
      at += raw.length;
    }
  }
  if (open.length) fail(`unclosed elements ${open.map((name) => `<${name}>`).join(' ')}`);
  return tokens;
}

function decode(raw: string, fail: (why: string) => never): string {
  return raw.replace(/&[^&]*/g, (piece) => {
    const entity = ENTITY.exec(piece);
    if (!entity) fail(`an "&" that starts no entity (${JSON.stringify(piece.slice(0, 12))})`);
    const name = (entity as RegExpExecArray)[1].toLowerCase();
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    const char = named[name] ?? String.fromCodePoint(name.startsWith('#x') ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10));
    return char + piece.slice((entity as RegExpExecArray)[0].length);
  });
}

/** The elements named `name`, each with the tokens up to its end. */
export function elements(tokens: Token[], name: string): Token[][] {
  const found: Token[][] = [];
  tokens.forEach((token, index) => {
    if (token.kind !== 'open' || token.name !== name) return;
    if (token.selfClosing) return void found.push([token]);
    let depth = 0;
    for (let end = index; end < tokens.length; end++) {
      const t = tokens[end];
      if (t.kind === 'open' && t.name === name && !t.selfClosing) depth++;
      if (t.kind === 'close' && t.name === name && --depth === 0) return void found.push(tokens.slice(index, end + 1));
    }
  });
  return found;
}
