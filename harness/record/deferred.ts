import type { TestInfo } from '@playwright/test';
import type { DeferredFailure, TestRecord } from './current-test';
import { expect, StoppedByFinding } from './findings';

/** What a deferred record's body did not finish by: a skip it asked for. */
class SkippedInRecord extends Error {}

/** A test's record kept apart from Playwright while its body runs ahead of it, replayed when Playwright reaches the test. */
export interface DeferredRecord extends TestRecord {
  readonly failures: DeferredFailure[];
  /** The reason the body asked to be skipped with, once it did. */
  readonly skipped: string | undefined;
  /** The time limit its body set (TestRecord.setTimeout), or undefined for the test's default. */
  readonly timeoutMs: number | undefined;
}

/** A fresh record for the test named; nothing written to Playwright until it is replayed. */
export function deferredRecord(
  test: { title: string; titlePath: readonly string[]; file: string; line: number; tags: readonly string[] },
  /** Told when the body sets its time limit. */
  onTimeout: () => void = () => {},
): DeferredRecord {
  let skipped: string | undefined;
  let timeoutMs: number | undefined;
  return {
    title: test.title,
    titlePath: test.titlePath,
    file: test.file,
    line: test.line,
    tags: test.tags,
    annotations: [],
    attachments: [],
    failures: [],
    get expectedStatus() {
      return skipped === undefined ? 'passed' : 'skipped';
    },
    get skipped() {
      return skipped;
    },
    get timeoutMs() {
      return timeoutMs;
    },
    setTimeout(ms: number) {
      timeoutMs = ms;
      onTimeout();
    },
    skip(reason: string): never {
      skipped ??= reason;
      throw new SkippedInRecord(reason);
    },
  };
}

/** How a body run in a deferred record ended: it returned, or threw `error` (a skip and a stop at a finding are in the record). */
export type BodyOutcome = { error?: unknown };

/** A body run in a deferred record, to its end; what it threw that the record does not hold already is its outcome. */
export async function settledBody(run: () => Promise<unknown>): Promise<BodyOutcome> {
  try {
    await run();
    return {};
  } catch (error) {
    if (error instanceof SkippedInRecord || error instanceof StoppedByFinding) return {};
    return { error };
  }
}

/**
 * A deferred record written into its Playwright test, in the order its body made it: annotations and attachments,
 * each violation as the expect a body running in the test would have made (soft, or the one that stopped it), the
 * skip it asked for, and whatever else it threw.
 */
export function replayRecord(record: DeferredRecord, outcome: BodyOutcome, info: TestInfo): void {
  info.annotations.push(...record.annotations);
  info.attachments.push(...record.attachments);
  for (const { finding, stop } of record.failures) {
    if (stop) expect(finding).toMeetRequirement();
    else expect.soft(finding).toMeetRequirement();
  }
  if (record.skipped !== undefined) info.skip(true, record.skipped);
  if (outcome.error !== undefined) throw outcome.error;
}
