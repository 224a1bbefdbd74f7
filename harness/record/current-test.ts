import { AsyncLocalStorage } from 'node:async_hooks';
import { test, type TestInfo } from '@playwright/test';
import type { Finding } from '../../checks/finding';

/** A violation a deferred record keeps until its test replays it: `stop` where it ended the body (ensure), else soft (check). */
export interface DeferredFailure {
  finding: Finding;
  stop: boolean;
}

/**
 * What a test records while its body runs: the part of Playwright's TestInfo the harness writes to. A body runs
 * either straight in its Playwright test (the record is that TestInfo) or ahead of it, beside other tests of its
 * worker (harness/schedule/scheduler.ts): then the record is deferred, kept here, and replayed into the TestInfo
 * when Playwright reaches the test (harness/record/deferred.ts). Every judgement, observation, skip and cut goes
 * through the record, so a body means the same wherever it ran.
 */
export interface TestRecord {
  readonly title: string;
  readonly titlePath: readonly string[];
  /** The test's file and line, as Playwright locates it (a replay command names them). */
  readonly file: string;
  readonly line: number;
  readonly tags: readonly string[];
  readonly annotations: Array<{ type: string; description?: string }>;
  readonly attachments: Array<{ name: string; contentType: string; body?: Buffer; path?: string }>;
  /** 'skipped' once the test asked to be skipped (a generated run stops on it). */
  readonly expectedStatus: TestInfo['expectedStatus'];
  /** The test's time limit, from the start of its body. */
  setTimeout(ms: number): void;
  /** Skips the test with the reason; never returns. */
  skip(reason: string): never;
  /** A deferred record's violations, in order; undefined on a live TestInfo, where expect records them at once. */
  readonly failures?: DeferredFailure[];
}

const deferred = new AsyncLocalStorage<TestRecord>();

/** Runs `body` with `record` as the current test of everything it calls, however its requests interleave with other tests'. */
export function runInRecord<T>(record: TestRecord, body: () => Promise<T>): Promise<T> {
  return deferred.run(record, body);
}

/**
 * The test running now: the deferred record of the body that called, or the live Playwright test, or undefined
 * outside both (a benchmark, a script, a worker-scoped fixture). Outside a Playwright worker it does not ask:
 * test.info() throws there, and a throw per judgement is most of a judgement's cost.
 */
export function currentTest(): TestRecord | undefined {
  const record = deferred.getStore();
  if (record) return record;
  if (process.env.TEST_WORKER_INDEX === undefined) return undefined;
  try {
    return liveRecord(test.info());
  } catch {
    return undefined;
  }
}

/** The test running now, where only a test can be meant (a generated test's runner). */
export function testRunningNow(): TestRecord {
  const record = currentTest();
  if (!record) throw new Error('called outside a test: it records on the test running now');
  return record;
}

const live = new WeakMap<TestInfo, TestRecord>();

/** A Playwright test's own TestInfo as a record: what the harness writes lands on the test at once. */
export function liveRecord(info: TestInfo): TestRecord {
  let record = live.get(info);
  if (!record) {
    record = {
      title: info.title,
      titlePath: info.titlePath,
      file: info.file,
      line: info.line,
      tags: info.tags,
      annotations: info.annotations,
      attachments: info.attachments,
      get expectedStatus() {
        return info.expectedStatus;
      },
      setTimeout: (ms) => info.setTimeout(ms),
      skip: (reason) => {
        info.skip(true, reason);
        // testInfo.skip(true) throws; this line only tells the compiler so.
        throw new Error(`skipped: ${reason}`);
      },
    };
    live.set(info, record);
  }
  return record;
}
