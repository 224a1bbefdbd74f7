// ISO 8601 extended date-time: date, 'T', time with optional seconds and fraction, optional offset (Z or ±hh[:mm]).
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|([+-])(\d{2})(?::?(\d{2}))?)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** True for an ISO 8601 date-time that names a real calendar instant (section 2.1: "ISO 8601 timestamp"). */
export function isIso8601DateTime(text: string): boolean {
  const match = ISO_8601.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0));
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 60) return false;
  if (Number(match[10] ?? 0) > 23 || Number(match[11] ?? 0) > 59) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day >= 1 && day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]);
}

/**
 * True for an ISO 8601 date-time written with an offset (Z, +03:00, +05): one without names no instant
 * (a local time: "2026-11-24T03:22:10.123456"), and the date-time of RFC 3339 (OpenAPI's) requires one.
 */
export function hasOffset(text: string): boolean {
  return ISO_8601.exec(text)?.[8] !== undefined;
}

/**
 * Milliseconds since the epoch of an ISO 8601 date-time (fractions below a millisecond kept as a
 * fraction), NaN for any other text. Parsed here rather than by Date.parse, which gives NaN for an
 * hour-only offset (+05) or a leap second (:60): a leap second is read as the instant it runs into
 * (23:59:60 as the next 00:00:00, as POSIX clocks do); a time without offset is read as UTC.
 */
export function instantOf(text: string): number {
  const match = ISO_8601.exec(text);
  if (!match || !isIso8601DateTime(text)) return NaN;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0));
  const fraction = match[7] ?? '';
  const milliseconds = Number(fraction.padEnd(3, '0').slice(0, 3)) + Number(`0.${fraction.slice(3) || '0'}`);
  const offsetMinutes = match[9] ? (match[9] === '-' ? -1 : 1) * (Number(match[10]) * 60 + Number(match[11] ?? 0)) : 0;
  // Date.UTC reads years 0-99 as 1900-1999: the year is set apart so 0001-01-01 (a common "no value") stays year 1.
  const utc = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  utc.setUTCFullYear(year + (utc.getUTCFullYear() - 2000));
  return utc.getTime() + milliseconds - offsetMinutes * 60_000;
}

/**
 * The unit (in milliseconds) a date-time is written to: a minute without seconds, a second without
 * a fraction, else 10^(3 - digits) (a millisecond or finer). Tells at which precision a server stored it.
 */
export function precisionOf(text: string): number {
  const match = ISO_8601.exec(text);
  if (!match) return 1;
  if (match[6] === undefined) return 60_000;
  return 10 ** (3 - Math.min(3, (match[7] ?? '').length)) || 1;
}

/**
 * True when `stored` is the instant `sent` written at the precision `stored` carries: the same instant,
 * or the sent one truncated or rounded to that unit (a server that keeps seconds, or milliseconds of a sent
 * microsecond). Never weaker: a value that differs by more than that truncation or rounding is a different instant.
 */
export function sameInstantAtStoredPrecision(sent: string, stored: string): boolean {
  const a = instantOf(sent);
  const b = instantOf(stored);
  if (Number.isNaN(a) || Number.isNaN(b)) return false;
  if (a === b) return true;
  const unit = precisionOf(stored);
  // Also at the millisecond: a sent .123456 kept as .123 (JavaScript's Date, a DATETIME(3) column).
  return b === Math.floor(a / unit) * unit || b === Math.round(a / unit) * unit;
}
