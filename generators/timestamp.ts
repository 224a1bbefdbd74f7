import fc from 'fast-check';

/**
 * A `format: date-time` value (2.1: "ISO 8601 timestamp"), in the spellings a client may use:
 * UTC with or without milliseconds, and with an offset. Equal instants are equal (roundtrip.ts).
 */
export function dateTime(): fc.Arbitrary<string> {
  const instant = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true });
  return fc.tuple(instant, fc.constantFrom('ms', 'seconds', 'offset')).map(([date, spelling]) => {
    const iso = date.toISOString();
    if (spelling === 'ms') return iso;
    if (spelling === 'seconds') return `${iso.slice(0, 19)}Z`;
    // The same instant written three hours ahead.
    const shifted = new Date(date.getTime() + 3 * 3600_000).toISOString();
    return `${shifted.slice(0, 23)}+03:00`;
  });
}
