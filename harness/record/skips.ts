import { currentTest, type TestRecord } from './current-test';

/** Annotation type of a skip's structured cause: a JSON `Skip` (data, never read back out of the reason's wording). */
export const SKIP_ANNOTATION = 'oms-skip';

/**
 * Why a test judged nothing, as the verdict weighs it (reporter/report.ts):
 * - server: the server (or another client of the account) left it without evidence: no answer in time, a
 *   reset, a rate limit that outlasted the retries, an account that never held still. The run is inconclusive.
 * - configuration: a setting keeps it from running (no second account, read-only mode, the effort's budget);
 *   `settings` names what would let it run. The run is conformant at most, and incomplete.
 * - precondition: the server offers no way to check it (most generated runs refused as allowed); incomplete.
 * - blocked: a requirement it depends on failed first (`blockedBy`), so what it would judge was never sent.
 * - interrupted: the run was stopped (Ctrl-C, a global timeout) before the test finished.
 */
export type SkipKind = 'server' | 'configuration' | 'precondition' | 'blocked' | 'interrupted';

export const SKIP_KINDS: readonly SkipKind[] = ['server', 'configuration', 'precondition', 'blocked', 'interrupted'];

export interface Skip {
  kind: SkipKind;
  /** One line for a reader: what was not done and why. */
  reason: string;
  /** configuration: the settings that would let it run ("OMS_TOKEN_B", "OMS_EFFORT=thorough"). */
  settings?: string[];
  /** blocked: the requirement whose failure stopped it. */
  blockedBy?: string;
}

/**
 * Skips the current test with a structured cause: the one way a test of the suite is skipped. Playwright
 * keeps the reason as its skip annotation; the reporter reads the kind from SKIP_ANNOTATION.
 */
export function skipTest(skip: Skip, info: TestRecord | undefined = currentTest()): never {
  if (!info) throw new Error(`skipped outside a test: ${skip.reason}`);
  info.annotations.push({ type: SKIP_ANNOTATION, description: JSON.stringify(skip) });
  return info.skip(skip.reason);
}

/** A skip back from its annotation; undefined for anything else. */
export function skipOf(annotation: { type: string; description?: string }): Skip | undefined {
  if (annotation.type !== SKIP_ANNOTATION || !annotation.description) return undefined;
  try {
    const skip = JSON.parse(annotation.description) as Skip;
    return SKIP_KINDS.includes(skip?.kind) && typeof skip.reason === 'string' ? skip : undefined;
  } catch {
    return undefined;
  }
}
