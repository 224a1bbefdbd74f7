import { expect as baseExpect, test } from '@playwright/test';
import { describeExchange, type Exchange } from './exchange';
import { requirement } from './requirements';

/** A requirement that a response did not meet, with what it takes to act on it. */
export interface Finding {
  requirementId: string;
  expected: string;
  received: string;
  /** The exchange that shows it; its request, response excerpt and curl line go into the message. */
  exchange?: Exchange;
  /** A generated test's shrunk counterexample, as the requests it made (rendered by the property runner). */
  counterexample?: string;
  /** How to replay a generated failure exactly: OMS_SEED, OMS_PATH and the test's file:line. */
  replay?: Replay;
}

export interface Replay {
  seed: number;
  path: string;
  /** file:line of the test, relative to the project root. */
  location: string;
}

/**
 * The failure message. Its first line starts with "[<id>]": the reporter reads the violated
 * requirement from there, so a failure is attributed to what it breaks, not to the test it happened in.
 */
export function formatFinding(finding: Finding): string {
  const r = requirement(finding.requirementId);
  const lines = [
    `[${r.id}] ${r.level}, section ${r.section}: ${r.statement}`,
    `Expected: ${finding.expected}`,
    `Received: ${finding.received}`,
  ];
  if (finding.exchange) lines.push(describeExchange(finding.exchange));
  return lines.join('\n');
}

export const expect = baseExpect.extend({
  toMeetRequirement(finding: Finding | undefined) {
    return {
      pass: finding === undefined,
      name: 'toMeetRequirement',
      message: () => (finding ? formatFinding(finding) : 'requirement met'),
    };
  },
});

/** The attachment that carries one finding, as JSON, from the test to the reporter. */
export const FINDING_ATTACHMENT = 'oms-finding';

function attach(finding: Finding): void {
  test.info().attachments.push({ name: FINDING_ATTACHMENT, contentType: 'application/json', body: Buffer.from(JSON.stringify(finding)) });
}

/** Records a violation and lets the test go on, so one response can show every requirement it breaks. */
export function check(finding: Finding | undefined): void {
  // Only a violation becomes an expect: each expect is a Playwright step with a captured stack (measured in bench/).
  if (!finding) return;
  attach(finding);
  expect.soft(finding).toMeetRequirement();
}

/** Stops the test at a violation that later steps depend on (no id to get, no order to update). */
export function ensure(finding: Finding | undefined): void {
  if (!finding) return;
  attach(finding);
  expect(finding).toMeetRequirement();
}

/** A finding when the condition is false. */
export function unless(condition: boolean, finding: () => Finding): Finding | undefined {
  return condition ? undefined : finding();
}
