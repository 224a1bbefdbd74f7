import { parseJson, type Exchange } from '../contract/exchange';
import { placeholders, redact, registerSecret } from './redaction';

/**
 * Credentials masked by where they stand, whatever their value: the suite, `proxy` and `judge` see traffic
 * whose secrets nobody told them (a client's own client_secret, a token a browser sent). Masking by value
 * (redaction.ts) covers what the suite knows; this covers the places credentials go by the protocol:
 * - in any exchange, the headers Authorization and Proxy-Authorization (the scheme kept), Cookie and
 *   Set-Cookie (the names and attributes kept);
 * - in a request to the token endpoint (POST …/token), the fields of TOKEN_REQUEST_FIELDS in a form body,
 *   a JSON body or the query string;
 * - in its answer, the fields of TOKEN_ANSWER_FIELDS.
 * An order's own fields (customer.phone.code) stay as sent: only the token endpoint's fields are masked.
 */

/** What a credential the suite has no placeholder for reads as; a known one reads as its placeholder ($OMS_TOKEN), so a curl line still expands it. */
export const MASK = '[masked]';

/** The credential fields of a token request, each with what its value reads as where it shows again by value. */
export const TOKEN_REQUEST_FIELDS: Readonly<Record<string, string>> = { client_secret: MASK, password: MASK, refresh_token: MASK, client_assertion: MASK, code: MASK, code_verifier: MASK };
/** Those of its answer: the access token is the bearer token of the requests that follow, $OMS_TOKEN as the suite writes it. */
export const TOKEN_ANSWER_FIELDS: Readonly<Record<string, string>> = { access_token: '$OMS_TOKEN', refresh_token: MASK, id_token: MASK };
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie'];

/**
 * A credential found by position this long or longer is also masked by value from now on, wherever else it
 * shows (an echo in a later body); a shorter one would blank ordinary words out of every text.
 */
const REMEMBERED_LENGTH = 8;

/** The exchange with every credential masked where it stands (see above); the same exchange when it holds none. */
export function withCredentialsMasked(exchange: Exchange): Exchange {
  const request = { ...exchange.request, headers: maskedHeaders(exchange.request.headers) };
  let { text, json } = exchange;
  if (isTokenEndpoint(exchange)) {
    request.url = maskedQuery(request.url);
    request.path = maskedQuery(request.path);
    if (request.body !== undefined) request.body = maskedFields(request.body, TOKEN_REQUEST_FIELDS);
    const answer = maskedFields(text, TOKEN_ANSWER_FIELDS);
    if (answer !== text) [text, json] = [answer, parseJson(answer)];
  }
  return { ...exchange, request, headers: maskedHeaders(exchange.headers), text, json };
}

/** POST to the token endpoint: its operation where the path is the interface's, else a path that ends in /token (a HAR of another base URL). */
function isTokenEndpoint({ operationId, request }: Exchange): boolean {
  if (operationId === 'issueToken') return true;
  return request.method.toUpperCase() === 'POST' && /\/token\/?$/.test(request.path.split('?')[0]);
}

/** One credential's masked form: its placeholder when it is a secret the suite knows, else MASK. Remembers it by value, if long enough. */
function masked(value: string, rememberAs = MASK): string {
  const known = redact(value);
  if (placeholders().includes(known)) return known;
  if (known !== value || value.length < REMEMBERED_LENGTH || value === MASK) return MASK;
  registerSecret(value, rememberAs);
  const remembered = redact(value);
  return placeholders().includes(remembered) ? remembered : MASK;
}

function maskedHeaders(headers: Record<string, string>): Record<string, string> {
  if (!Object.keys(headers).some((name) => CREDENTIAL_HEADERS.includes(name.toLowerCase()))) return headers;
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => {
      const header = name.toLowerCase();
      if (header === 'authorization' || header === 'proxy-authorization') return [name, maskedAuthorization(value)];
      if (header === 'cookie') return [name, value.split(';').map(maskedCookie).join(';')];
      if (header === 'set-cookie') return [name, maskedSetCookie(value)];
      return [name, value];
    }),
  );
}

/**
 * "Scheme credentials": the scheme stays (the auth checks judge the form), the credentials are masked. A single
 * word is a scheme alone ("Bearer") when it is letters only, else a bare credential, masked whole.
 */
function maskedAuthorization(value: string): string {
  const parts = /^(\s*\S+)(\s+)(\S[\s\S]*?)(\s*)$/.exec(value);
  if (parts) return `${parts[1]}${parts[2]}${masked(parts[3])}${parts[4]}`;
  return value.trim() === '' || /^\s*[A-Za-z]{1,12}\s*$/.test(value) ? value : masked(value.trim());
}

/** "name=value" (one cookie of a Cookie header, or the first part of a Set-Cookie): the name stays; a cookie with no name is masked whole. */
function maskedCookie(pair: string): string {
  const at = pair.indexOf('=');
  if (at < 0) return pair.trim() === '' ? pair : pair.replace(pair.trim(), masked(pair.trim()));
  const cookieValue = pair.slice(at + 1).trim();
  return cookieValue === '' ? pair : `${pair.slice(0, at + 1)}${masked(cookieValue)}`;
}

/** Set-Cookie, several joined by a line break (the transport) or ", " (a HAR): each cookie's value masked, its attributes kept ("Expires=Wed, 21 Oct …" is no new cookie). */
function maskedSetCookie(value: string): string {
  return value
    .split(/(\n|,\s*(?=[^\s=;,]+=))/)
    .map((part, index) => {
      if (index % 2 === 1) return part;
      const [cookie, ...attributes] = part.split(';');
      return [maskedCookie(cookie), ...attributes].join(';');
    })
    .join('');
}

/** The query of a URL or path with the token request's credential fields masked. */
function maskedQuery(target: string): string {
  const at = target.indexOf('?');
  if (at < 0) return target;
  const hash = target.indexOf('#', at);
  const end = hash < 0 ? target.length : hash;
  return `${target.slice(0, at + 1)}${maskedForm(target.slice(at + 1, end), TOKEN_REQUEST_FIELDS)}${target.slice(end)}`;
}

/** A body's credential fields masked: a JSON object's top-level fields, or the pairs of a form. Any other body stays as it is. */
function maskedFields(body: string, fields: Readonly<Record<string, string>>): string {
  if (/^\s*\{/.test(body)) {
    const object = jsonOf(body);
    if (object === undefined) return maskedJsonText(body, fields);
    let changed = false;
    for (const [field, rememberAs] of Object.entries(fields)) {
      const value = object[field];
      // Only a credential is masked: an empty or non-string value is what a check must still see.
      if (typeof value !== 'string' || value === '') continue;
      const mask = masked(value, rememberAs);
      if (mask !== value) [object[field], changed] = [mask, true];
    }
    // A duplicate key's earlier value is gone from the parsed object: written again, the body holds none of them.
    return changed || duplicateCredential(body, fields) ? JSON.stringify(object) : body;
  }
  return body.includes('=') ? maskedForm(body, fields) : body;
}

/** JSON that does not parse (cut short, broken): each "field": "value" of a credential field masked in the text. */
function maskedJsonText(body: string, fields: Readonly<Record<string, string>>): string {
  const names = Object.keys(fields).join('|');
  return body.replace(new RegExp(`"(${names})"(\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)("|$)`, 'g'), (whole, field: string, between: string, value: string, after: string) =>
    value === '' ? whole : `"${field}"${between}${masked(value, fields[field])}${after}`,
  );
}

function duplicateCredential(body: string, fields: Readonly<Record<string, string>>): boolean {
  return Object.keys(fields).some((field) => (body.match(new RegExp(`"${field}"\\s*:`, 'g')) ?? []).length > 1);
}

/** application/x-www-form-urlencoded pairs: each credential field's value masked, every other pair byte for byte. */
function maskedForm(form: string, fields: Readonly<Record<string, string>>): string {
  return form
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=');
      const field = at < 0 ? undefined : formDecoded(pair.slice(0, at));
      if (field === undefined || !Object.hasOwn(fields, field)) return pair;
      const value = formDecoded(pair.slice(at + 1));
      return value === '' ? pair : `${pair.slice(0, at + 1)}${masked(value, fields[field])}`;
    })
    .join('&');
}

function formDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function jsonOf(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
