import { VARIANTS } from '../reference/variants';
import { KNOBS, knobsText, type Knob } from '../reference/variants/knobs';

/**
 * Which points of the space of conformant servers (selftest/reference/variants/knobs.ts) npm test runs.
 *
 * Budget. The default (OMS_EFFORT=quick) runs each knob value alone against the example-based tests only
 * (tests/orders, tests/auth: the cheap subset), all of them in one Playwright run (playwright.config.ts: a
 * project per value), then a few random points against the whole suite. Knobs marked slow (latency, rate
 * limits, other clients) are drawn only under OMS_EFFORT=thorough, which also runs every value alone against
 * the whole suite and many more random points; the matrix runs their variants whole in any case.
 */
export const THOROUGH = process.env.OMS_EFFORT === 'thorough';
const SLOW_KNOBS = new Set(['latency', 'rate-limit', 'other-clients', 'other-orders']);

export type Setting = Record<string, string>;

/** The knobs random points are drawn from. */
export const DRAWN = KNOBS.filter((knob) => THOROUGH || !SLOW_KNOBS.has(knob.name));

/** Each value (other than the clean server's) of each knob, alone. */
function singles(knobs: readonly Knob[]): Setting[] {
  return knobs.flatMap((knob) => knob.values.slice(1).map((value) => ({ [knob.name]: value })));
}

/**
 * The values no matrix row already runs alone against the whole suite: a value that is a named variant is
 * a row of the matrix (npm run matrix: the whole suite, both profiles), so npm test does not run it twice.
 */
function notMatrixRows(settings: Setting[]): Setting[] {
  const variants = new Set(VARIANTS.map((variant) => variant.name));
  return settings.filter((setting) => !Object.values(setting).every((value) => variants.has(value)));
}

/** Each knob value npm test runs alone: against the example-based tests, or the whole suite with OMS_EFFORT=thorough. */
export const SINGLES: Setting[] = THOROUGH ? singles(KNOBS) : notMatrixRows(singles(DRAWN));

/** The tests a single runs: the example-based ones (tests/orders, tests/auth), or with OMS_EFFORT=thorough every test. */
export const SINGLE_TESTS = THOROUGH ? 'the whole suite' : 'the example-based tests';

/** The name of a single's project (its knob and value) and its run id (letters, digits and dashes). */
export const singleName = (index: number): string => knobsText(SINGLES[index]);
export const singleRunId = (index: number): string => `${process.env.OMS_RUN_ID}-knob-${index}`;
