/** Text safe inside HTML, SVG and XML, as content or in a double-quoted attribute. */
export function escapeMarkup(text: string): string {
  // XML 1.0 forbids control characters and lone surrogates even escaped; a server's response may hold any.
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
