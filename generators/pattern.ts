import fc from 'fast-check';

const built = new Map<string, fc.Arbitrary<string>>();

/**
 * fc.stringMatching, built once per pattern: it compiles the pattern into an arbitrary, which costs up to
 * 5 ms (a character class with a repeat), and order() alone asks for a dozen. Arbitraries are immutable,
 * so one instance draws the same values from the same seed as a fresh one.
 */
export function matching(pattern: RegExp): fc.Arbitrary<string> {
  const key = pattern.toString();
  let arbitrary = built.get(key);
  if (!arbitrary) {
    arbitrary = fc.stringMatching(pattern);
    built.set(key, arbitrary);
  }
  return arbitrary;
}
