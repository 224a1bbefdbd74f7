import fc from 'fast-check';

/**
 * Numbers for the `type: number` and `type: integer` fields of openapi.yaml: prices, totals,
 * weights and quantities. The document gives no bounds, so values stay non-negative and finite
 * (what any order holds), and reach the cases that break naive servers: 0, 0.01, many decimals, large.
 */

/** Values that catch rounding, float formatting and overflow. */
export const EDGE_AMOUNTS = [0, 0.01, 0.1, 0.99, 1, 9.99, 0.1 + 0.2, 12.345678, 1 / 3, 999999.99, 123456789.12, 1e9] as const;

export interface AmountConstraints {
  /** Largest value; 1e9 by default. */
  max?: number;
}

/** A price, total, tax or weight (`type: number`). */
export function amount(constraints: AmountConstraints = {}): fc.Arbitrary<number> {
  const { max = 1e9 } = constraints;
  return fc.oneof(
    fc.constantFrom(...EDGE_AMOUNTS.filter((value) => value <= max)),
    // Cents: what most orders carry.
    fc.integer({ min: 0, max: Math.min(max, 1e7) * 100 }).map((cents) => cents / 100),
    // Many decimals.
    fc.double({ min: 0, max, noNaN: true, noDefaultInfinity: true }).filter((value) => value === 0 || value >= 1e-6),
  );
}

/** An item quantity (`type: integer`): at least 1, now and then large. */
export function quantity(): fc.Arbitrary<number> {
  return fc.oneof({ arbitrary: fc.integer({ min: 1, max: 20 }), weight: 4 }, { arbitrary: fc.constantFrom(999, 65_536, 1_000_000), weight: 1 });
}

/** A rate in percent (tax_rate). */
export function rate(): fc.Arbitrary<number> {
  return fc.oneof(fc.constantFrom(0, 8, 18, 20, 7.7), fc.double({ min: 0, max: 100, noNaN: true }).filter((value) => value === 0 || value >= 1e-6));
}
