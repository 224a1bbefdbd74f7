/** Text safe inside HTML, SVG and XML, as content or in a double-quoted attribute. */
export function escapeMarkup(text: string): string {
  // XML 1.0 forbids control characters and lone surrogates even escaped; a server's response may hold any.
  // Bidirectional overrides and isolates would reorder the text around them on the page: shown as U+FFFD too.
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/**
 * JSON with the characters JSON.stringify leaves as they are but a terminal or an editor would act on (C1
 * controls, line and paragraph separators, bidirectional overrides) written as \u escapes: the same data,
 * and `cat report.json` shows server text as it is.
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
