/**
 * How client credentials go to POST /token. The document does not show the request format (5.3), so
 * each common form is accepted: `form` and `basic` are OAuth 2.0 client credentials (RFC 6749 §4.4,
 * §2.3.1), `json` the same fields as a JSON body.
 */
export const TOKEN_AUTH_METHODS = ['form', 'json', 'basic'] as const;
export type TokenAuth = (typeof TOKEN_AUTH_METHODS)[number];
