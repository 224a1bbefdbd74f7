/**
 * Server text made safe to show in a terminal or a one-line log: control characters, escape sequences
 * and invisible direction marks become visible escapes (\x1b, \n, \u202e), so a value from the server can
 * neither move the cursor, recolour the screen, nor start a line of the suite's own output.
 *
 * One form for every channel (terminal, junit.xml, report.md, index.html, GitHub annotations and summary):
 * server text (a body, a header, an id, a message) is shown on one line after a label of the suite's, its
 * line breaks written \n. A quote marker before each of its lines would serve a terminal, but a Markdown code
 * span or an annotation cannot hold one; escaped line breaks hold in all of them.
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

export function visible(text: string): string {
  return visibleControls(text.replace(/\\/g, '\\\\'));
}

/**
 * Control characters and invisible marks made visible, backslashes left as they are: for text already
 * made visible at its source (a worker's message passed on by the reporter), so its escapes are not escaped twice.
 */
export function visibleControls(text: string): string {
  return text.replace(INVISIBLE, (c) => NAMED[c] ?? escapeCode(c));
}

/**
 * A command line the suite built (harness/http/shell.ts), as every channel prints it: by construction it holds
 * no control or invisible character, so this changes nothing and the line runs as printed. Its backslashes
 * are the shell's ('\'' in a quoted quote) and stay as they are: visible() would double them and break the
 * command. Only a line from elsewhere (a hand-edited report.json) changes, to stay safe to look at.
 */
export function commandText(line: string): string {
  return visibleControls(line);
}

/** Server text (an id, a value) as one quoted word of the suite's own one-line messages: visible, never a line of its own. */
export function quoted(text: string): string {
  return `"${visible(text)}"`;
}

/** Text with the suite's own line breaks kept, every line's content made visible (for multi-line messages the suite composes). */
export function visibleLines(text: string): string[] {
  return text.split('\n').map(visible);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A UTF-16 half with no other half: text with no UTF-8 form (JSON may still carry it as \ud800). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** Each lone UTF-16 half made U+FFFD, as Go's encoding/json reads the escape \ud800 (and every UTF-8 encoder writes it). */
export function loneSurrogatesReplaced(text: string): string {
  return text.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd');
}

/** The text between lone UTF-16 halves: one part more than there are halves. */
export function textAroundLoneSurrogates(text: string): string[] {
  return text.split(new RegExp(LONE_SURROGATE.source, 'g'));
}

export function hasInvisible(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text);
}

function escapeCode(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** At most `max` characters, with how many there were when it was cut. */
export function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}
