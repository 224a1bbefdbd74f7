import { ruleAt } from '../../../contract/fields';
import { contract } from '../../../contract/openapi';
import type { ApiRequest } from '../../../reference/http';
import { is, withJsonBody } from '../faults/kit';
import { numericStringAsNumber, scalarsReadAs } from './freedoms';

/**
 * What correct servers do with the values of the edge catalogue (generators/coverage.ts) where the document
 * leaves it open: refuse text no text column takes, refuse number literals their parser does not take,
 * amounts their column cannot hold, booleans read as integers, a null over a required field ignored.
 */

/** A control character a text column refuses (NUL and the C0 controls but tab and line breaks), or a lone surrogate (no UTF-8 form). */
const UNSTORABLE_TEXT = /[\x00-\x08\x0b\x0c\x0e-\x1f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a body holds text a PostgreSQL text column refuses, at any depth. */
export function unstorableText(value: unknown, key = ''): string | undefined {
  if (typeof value === 'string') return UNSTORABLE_TEXT.test(value) ? `${key || 'a field'} holds a character no text column stores` : undefined;
  if (Array.isArray(value)) return value.map((inner) => unstorableText(inner, key)).find(Boolean);
  if (value && typeof value === 'object') return Object.entries(value).map(([inner, v]) => unstorableText(v, inner)).find(Boolean);
  return undefined;
}

/** A JSON string, or a number: the tokens of a JSON text where numbers are told from text. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * Why a JSON text holds a number literal a strict parser refuses (Go's encoding/json into an int, a decimal
 * column): an exponent (1e2, 1e400) or a negative zero. Strings are skipped, so text that looks like one is not.
 */
export function unplainNumberLiteral(request: ApiRequest): string | undefined {
  const literal = (request.bodyText.match(TOKENS) ?? []).find((token) => !token.startsWith('"') && (/[eE]/.test(token) || /^-0(\.0+)?$/.test(token)));
  return literal === undefined ? undefined : `the number ${literal} is not written as a plain decimal`;
}

/** The largest amount a NUMERIC(12,2) column holds: an amount stored to the cent beyond it is refused. */
const LARGEST_AMOUNT_IN_CENTS = 9_999_999_999.99;

/** Why a body holds an amount (x-amount) a NUMERIC(12,2) column cannot hold. */
export function amountBeyondColumn(value: unknown, pointer = ''): string | undefined {
  if (typeof value === 'number') return ruleAt(pointer)?.amount && Math.abs(value) > LARGEST_AMOUNT_IN_CENTS ? `${pointer} ${value} is beyond NUMERIC(12,2)` : undefined;
  if (Array.isArray(value)) return value.map((element, index) => amountBeyondColumn(element, `${pointer}/${index}`)).find(Boolean);
  if (value && typeof value === 'object') return Object.entries(value).map(([key, inner]) => amountBeyondColumn(inner, `${pointer}/${key}`)).find(Boolean);
  return undefined;
}

/**
 * A scalar read as Pydantic v1 reads it where nothing is lost: a numeric string or a boolean where a number or an
 * integer goes, as the number it denotes ("3" as 3, true as 1); "false", "true", 0 and 1 where a boolean goes, as
 * that boolean. (Its lossy readings, 2.5 as 2, are faults.)
 */
export function laxScalar(value: unknown, type: unknown): unknown {
  const types = [type].flat();
  if (typeof value === 'boolean' && (types.includes('number') || types.includes('integer'))) return Number(value);
  if (types.includes('boolean') && ['false', 'true', 0, 1].includes(value as string | number)) return value === 'true' || value === 1;
  return numericStringAsNumber(value, type);
}

/** A create or update read as Pydantic v1's lax mode reads it (laxScalar). */
export const pydanticLax = scalarsReadAs(laxScalar);

/** An update that reads null over a field the create requires as "not sent" (Pydantic's exclude_none): the field is kept. */
export function requiredNullsIgnoredOnUpdate(request: ApiRequest): ApiRequest {
  if (!is(request, 'update')) return request;
  const required = (contract().schema('OrderCreate').required ?? []) as string[];
  return withJsonBody(request, (body) => Object.fromEntries(Object.entries(body).filter(([field, value]) => !(value === null && required.includes(field)))));
}
