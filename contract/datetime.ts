// ISO 8601 extended date-time: date, 'T', time with optional seconds and fraction, optional offset (Z or ±hh[:mm]).
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** True for an ISO 8601 date-time that names a real calendar instant (section 2.1: "ISO 8601 timestamp"). */
export function isIso8601DateTime(text: string): boolean {
  const match = ISO_8601.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0));
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 60) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day >= 1 && day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]);
}

/** Milliseconds since the epoch of an ISO 8601 date-time; a time without offset is read as UTC. */
export function instantOf(text: string): number {
  const withZone = /(Z|[+-]\d{2}(:?\d{2})?)$/.test(text) ? text : `${text}Z`;
  return Date.parse(withZone.replace(',', '.'));
}
