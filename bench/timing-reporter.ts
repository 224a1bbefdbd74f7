import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Reporter, TestCase, TestResult, TestStep } from '@playwright/test/reporter';
import { isPhaseProject, kindOf, type TestKind } from '../config/phases';
import { CHAIN_ANNOTATION, QUIET_ANNOTATION, RAN_ANNOTATION } from '../harness/record/annotations';

/** Per test: its duration, and how many steps Playwright made in it (each expect and each API call is one). */
export interface TestTiming {
  ms: number;
  steps: number;
  stepsByCategory: Record<string, number>;
  /** The longest chain of dependent requests in the test (harness/http/gate.ts). */
  chain?: number;
  /** The run's phase it ran in (config/phases.ts). */
  phase?: string;
  /** How it runs beside others (config/phases.ts). */
  kind?: TestKind;
  /** When Playwright ran the test (epoch ms). */
  startedAt?: number;
  /** When its body ran (epoch ms): ahead of Playwright, it may have run long before Playwright reports it. */
  ranFrom?: number;
  ranTo?: number;
  /** A quiet test's: when its views began, nothing of the run writing from then (epoch ms); what it wrote before went out beside the others. */
  viewsFrom?: number;
}

/**
 * Added by bench/timed.config.ts: writes BENCH_TIMINGS_FILE with every test's duration and step
 * count, keyed "file › describe › title". Steps are counted because Playwright's cost per step grows
 * with the steps already in the test (see bench/README.md).
 */
export default class TimingReporter implements Reporter {
  private readonly timings: Record<string, TestTiming> = {};

  onStepBegin(test: TestCase, _result: TestResult, step: TestStep): void {
    const timing = this.entry(test);
    timing.steps++;
    timing.stepsByCategory[step.category] = (timing.stepsByCategory[step.category] ?? 0) + 1;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const entry = this.entry(test);
    entry.ms = result.duration;
    entry.startedAt = result.startTime.getTime();
    const chain = result.annotations.find((a) => a.type === CHAIN_ANNOTATION)?.description;
    if (chain !== undefined) entry.chain = Number(chain);
    entry.phase = test.parent.project()?.name;
    entry.kind = kindOf(test.tags);
    const ran = result.annotations.find((a) => a.type === RAN_ANNOTATION)?.description;
    if (ran) {
      const { startedAt, endedAt } = JSON.parse(ran) as { startedAt: number; endedAt: number };
      entry.ranFrom = startedAt;
      entry.ranTo = endedAt;
    }
    const quiet = result.annotations.find((a) => a.type === QUIET_ANNOTATION)?.description;
    if (quiet) entry.viewsFrom = (JSON.parse(quiet) as { from: number }).from;
  }

  onEnd(): void {
    const file = process.env.BENCH_TIMINGS_FILE;
    if (!file) return;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(this.timings));
  }

  printsToStdio(): boolean {
    return false;
  }

  private entry(test: TestCase): TestTiming {
    // Keyed as before the run had phases: the same test has the same key in every run.
    const key = test.titlePath().filter((part) => part && !isPhaseProject(part)).join(' › ');
    return (this.timings[key] ??= { ms: 0, steps: 0, stepsByCategory: {} });
  }
}
