import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { escapedForms, redact, registerSecret } from '../config/redaction';

// redact() skips a secret's pattern when a text cannot hold it (mayHold), and every secret in a text shorter
// than any form of one: the shortcuts must never let a secret through. Proved against the pattern applied to every text, for texts that hold the secrets in
// every form a server or the suite may write them.
const SECRETS = [
  { value: 'tok_Ab3-xY9.zz', placeholder: '$OMS_TOKEN' },
  { value: 'secret with spaces/and+plus', placeholder: '$OMS_CLIENT_SECRET' },
  { value: 'jeton-zoë-東京', placeholder: '$OMS_TOKEN_B' },
  { value: 'q"uote/slash\\back%sign', placeholder: '$OMS_CLIENT_SECRET_B' },
  { value: 'plain"quote/slash', placeholder: '$OMS_TOKEN_C' },
];
for (const { value, placeholder } of SECRETS) registerSecret(value, placeholder);

/** The pattern of every secret applied to the text, as redact did before the shortcut (the texts hold no base64 of a secret, which redact also masks). */
function redactedByPattern(text: string): string {
  return SECRETS.reduce((out, { value, placeholder }) => out.replace(escapedForms(value), placeholder), text);
}

/** The ways a server may write one character of a secret: itself, in either case, \u-escaped, percent-encoded, a space as "+". */
const FORMS: Record<string, (char: string) => string> = {
  asIs: (char) => char,
  upper: (char) => char.toUpperCase(),
  lower: (char) => char.toLowerCase(),
  jsonEscaped: (char) => [...Array(char.length).keys()].map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  jsonShort: (char) => (char === '"' || char === '\\' || char === '/' ? `\\${char}` : char),
  percentEncoded: (char) => encodeURIComponent(char),
  formSpace: (char) => (char === ' ' ? '+' : char),
};
/** A secret written with some of the forms, character by character: only some texts hold a backslash or a percent sign. */
const writtenSecret = fc
  .tuple(fc.constantFrom(...SECRETS.map((s) => s.value)), fc.subarray(Object.keys(FORMS), { minLength: 1 }))
  .chain(([value, forms]) => fc.tuple(...[...value].map((char) => fc.constantFrom(...forms).map((form) => FORMS[form](char)))).map((chars) => chars.join('')));
const text = fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), writtenSecret, fc.constantFrom('%', '\\', '+', '"', 'İ', 'K', '\\u0041', '%41', '\\/', '\\"', '\\\\')), { maxLength: 8 }).map((parts) => parts.join(''));

test('redact masks exactly what the patterns of the secrets match, however the secret is written around it', () => {
  fc.assert(
    fc.property(text, (written) => {
      expect(redact(written)).toBe(redactedByPattern(written));
    }),
    { numRuns: 2000 },
  );
});

test('redact masks an ASCII secret written verbatim in another case, and leaves text without a secret as it is', () => {
  expect(redact('Bearer TOK_AB3-XY9.ZZ, then more')).toBe('Bearer $OMS_TOKEN, then more');
  expect(redact('{"note":"nothing to hide: 100 + 1"}')).toBe('{"note":"nothing to hide: 100 + 1"}');
});
