import { expect as baseExpect } from '@playwright/test';
import { clip, curlLine } from '../http/exchange';
import { contentType, MAX_BODY_EXCERPT, type ExchangeTiming } from '../../contract/exchange';
import { redact } from '../../config/redaction';
import { requirement } from '../../requirements/catalogue';
import { visibleLines } from '../../config/safe-text';
import { recordCheckedOn } from './checked-on';
import type { Judgement, Judgements } from '../../checks/check';
import type { Finding, FindingContext, Replay, StoredRef } from '../../checks/finding';
import { currentTest } from './current-test';
import { readSetting } from '../../config/settings';


/**
 * A finding as data, the way it travels from the test to the reporter (a JSON attachment named
 * FINDING_ATTACHMENT): every part apart, nothing to parse back out of text. Secrets are already redacted;
 * every string may still hold anything a server sent, so each output escapes it for where it goes.
 */
export interface FindingRecord {
  requirementId: string;
  expected: string;
  received: string;
  /** `truncated`: the body is cut to MAX_BODY_EXCERPT characters here. */
  request?: { method: string; url: string; path: string; headers: Record<string, string>; body?: string; truncated?: true; bodyBytes?: number };
  /** `total`: meta.total of a list answer (how many orders the account held then); `truncated` as for the request. */
  response?: { status: number; contentType: string; headers: Record<string, string>; body: string; retries: number; total?: number; truncated?: true };
  /** When the exchange started and how long its phases took. */
  timing?: ExchangeTiming;
  /**
   * With --har (OMS_HAR), the whole bodies the excerpts above cut (each up to MAX_HAR_BODY, redacted), for
   * failures.har: `oms-conformance judge` needs them whole. Never in report.json (write-report.ts drops them).
   */
  whole?: { request?: string; response?: string };
  context?: FindingContext;
  /** Built from the structured request: one shell word per argument, the token as ${OMS_TOKEN}. */
  curl?: string;
  /** Where in the response body the fault is (JSON pointers; the reporters mark those lines). */
  fieldsAtFault?: string[];
  counterexample?: string;
  replay?: Replay;
  /** The failure store's entry: `replayed` when the failure came from the store (an earlier run found it). */
  store?: StoredRef;
  /** More violations of the same requirement in the same test, counted but not recorded again. */
  repeats?: number;
}

export const FINDING_ATTACHMENT = 'oms-finding';

/** Full records per requirement and test; the rest are only counted (the first counterexample is what a reader acts on). */
const RECORDS_PER_TEST = 3;

export function toRecord(finding: Finding): FindingRecord {
  const { exchange } = finding;
  const record: FindingRecord = { requirementId: finding.requirementId, expected: redact(finding.expected), received: redact(finding.received) };
  if (exchange) {
    const request = exchange.request;
    const total = (exchange.json as { meta?: { total?: unknown } } | undefined)?.meta?.total;
    const bodyCut = cut(request.body);
    record.request = {
      ...request,
      body: request.body === undefined ? undefined : clip(request.body, MAX_BODY_EXCERPT),
      ...bodyCut,
      ...(bodyCut.truncated && request.body !== undefined && { bodyBytes: request.bodyBytes ?? Buffer.byteLength(request.body) }),
    };
    record.response = {
      status: exchange.status,
      contentType: contentType(exchange),
      headers: boundedHeaders(exchange.headers),
      body: clip(exchange.text, MAX_BODY_EXCERPT),
      retries: exchange.retries,
      ...(exchange.operationId === 'listOrders' && Number.isInteger(total) && { total: total as number }),
      ...cut(exchange.text),
    };
    record.curl = curlLine(request, readSetting('commandCredentials') ?? {});
    if (exchange.timing) record.timing = exchange.timing;
    if (readSetting('har')) {
      const whole = { ...wholeIfCut('request', request.body), ...wholeIfCut('response', exchange.text) };
      if (Object.keys(whole).length) record.whole = whole;
    }
  }
  const fieldsAtFault = (finding.fieldsAtFault ?? []).map(redact).filter((pointer) => pointer.length <= MAX_POINTER);
  if (exchange && fieldsAtFault.length) record.fieldsAtFault = [...new Set(fieldsAtFault)].slice(0, MAX_FIELDS_AT_FAULT);
  if (finding.context) record.context = Object.fromEntries(Object.entries(finding.context).map(([key, value]) => [key, typeof value === 'string' ? redact(value) : value]));
  if (finding.counterexample) record.counterexample = redact(finding.counterexample);
  if (finding.replay) record.replay = finding.replay;
  if (finding.store) record.store = finding.store;
  return record;
}

/** Pointers a record keeps, and the longest: a pointer cut short points nowhere, so a longer one is left out. */
const MAX_FIELDS_AT_FAULT = 12;
const MAX_POINTER = 200;

/** Largest body failures.har keeps whole; a larger one stays cut, and says so. */
export const MAX_HAR_BODY = 1_048_576;

function wholeIfCut(part: 'request' | 'response', body: string | undefined): { request?: string; response?: string } {
  const text = body === undefined ? undefined : redact(body);
  return text !== undefined && text.length > MAX_BODY_EXCERPT && text.length <= MAX_HAR_BODY ? { [part]: text } : {};
}

/** `truncated` for a body longer than a record keeps. */
function cut(body: string | undefined): { truncated?: true } {
  return body !== undefined && redact(body).length > MAX_BODY_EXCERPT ? { truncated: true } : {};
}

/** Response headers as a finding keeps them: at most 50, each value cut to 1,000 characters, secrets redacted. */
function boundedHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).slice(0, 50).map(([name, value]) => [clip(name, 200), clip(value, 1000)]));
}

/**
 * The failure message Playwright keeps with the test: the requirement, then what was expected and
 * received, every line's content made visible (no server text can start a line or move the cursor).
 * The reporter never reads it back: it reads the attached record.
 */
export function formatFinding(finding: Finding): string {
  const r = requirement(finding.requirementId);
  return [
    `[${r.id}] ${r.level}, section ${r.section}: ${r.statement}`,
    ...visibleLines(`Expected: ${redact(finding.expected)}`),
    ...visibleLines(`Received: ${redact(finding.received)}`).map((line, i) => (i === 0 ? line : `  ${line}`)),
    ...(finding.exchange ? [`Request:  ${finding.exchange.request.method} ${visibleLines(finding.exchange.request.path).join('\\n')} → ${finding.exchange.status}`] : []),
  ].join('\n');
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

/**
 * Attaches the finding to the current test; true when it is the first of its requirement in this test.
 * Later ones are counted on the last record instead, so a violation repeated a thousand times costs little.
 */
function record(finding: Finding): boolean {
  reached(finding.requirementId);
  const info = currentTest();
  if (!info) return true;
  const ofSameRequirement = info.attachments.filter((a) => a.name === FINDING_ATTACHMENT && recordOf(a)?.requirementId === finding.requirementId);
  if (ofSameRequirement.length >= RECORDS_PER_TEST) {
    const last = ofSameRequirement[ofSameRequirement.length - 1];
    const data = recordOf(last) as FindingRecord;
    last.body = Buffer.from(JSON.stringify({ ...data, repeats: (data.repeats ?? 0) + 1 }));
    return false;
  }
  info.attachments.push({ name: FINDING_ATTACHMENT, contentType: 'application/json', body: Buffer.from(JSON.stringify(toRecord(finding))) });
  return ofSameRequirement.length === 0;
}

/** A finding record back from its attachment; undefined for anything else. */
export function recordOf(attachment: { name: string; body?: Buffer }): FindingRecord | undefined {
  if (attachment.name !== FINDING_ATTACHMENT || !attachment.body) return undefined;
  try {
    const parsed = JSON.parse(attachment.body.toString('utf8')) as FindingRecord;
    return typeof parsed?.requirementId === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Records what a judgement says (the requirement reached, the responses checked on, the violation as a
 * finding record) and lets the test go on, so one response can show every requirement it breaks.
 */
export function check(judgement: Judgement | Judgements | undefined): void {
  const finding = judged(judgement);
  // Only the first violation of a requirement becomes an expect: each is a Playwright step with a captured stack.
  if (!finding || !record(finding)) return;
  const failures = currentTest()?.failures;
  // A body run ahead of its test keeps the violation; its test makes the expect when it replays the record.
  if (failures) failures.push({ finding, stop: false });
  else expect.soft(finding).toMeetRequirement();
}

/** Annotation type of the requirement whose violation stopped a test (ensure): what the test did not get to judge is blocked by it. */
export const STOPPED_BY_ANNOTATION = 'oms-stopped-by';

/**
 * Records a judgement and stops the test at its violation, where later steps depend on it (no id to get,
 * no order to update). The requirements the test verifies and had not judged yet are reported blocked by
 * this one, never passed: the requests that would judge them are never sent without what they need.
 */
export function ensure(judgement: Judgement | Judgements | undefined): void {
  const finding = judged(judgement);
  if (!finding) return;
  record(finding);
  const info = currentTest();
  info?.annotations.push({ type: STOPPED_BY_ANNOTATION, description: finding.requirementId });
  if (info?.failures) {
    info.failures.push({ finding, stop: true });
    throw new StoppedByFinding(finding);
  }
  expect(finding).toMeetRequirement();
}

/** What stops a body run ahead of its test at a violation (ensure); its test fails with the finding when it replays the record. */
export class StoppedByFinding extends Error {
  constructor(readonly finding: Finding) {
    super(formatFinding(finding));
  }
}

/**
 * Records that the current test judged a requirement on these responses, met or not (reached, checked-on),
 * and hands back the violation, if any, for the caller to act on: check and ensure record it, a generated
 * run stops on it. Every judgement a check returns goes through here, so a test that verifies a requirement
 * but never got to judge it does not pass it (the reporter shows it as not reached), and each response it
 * judged counts for the coverage matrix (harness/record/checked-on.ts).
 */
export function judged(judgements: Judgement | Judgements | undefined): Finding | undefined {
  let violation: Finding | undefined;
  for (const judgement of judgements === undefined ? [] : 'requirementId' in judgements ? [judgements] : judgements) {
    reached(judgement.requirementId);
    recordCheckedOn(judgement.requirementId, judgement.on);
    violation ??= judgement.finding;
  }
  return violation;
}

/** Annotation type of a requirement a test judged (met or not); the reporter passes only those. */
export const REACHED_ANNOTATION = 'reached';

const reachedByTest = new WeakMap<object, Set<string>>();

/** Records that the current test judged a requirement (once per test); outside a test (a benchmark) there is nothing to record. */
export function reached(requirementId: string): void {
  const info = currentTest();
  if (!info) return;
  const seen = reachedByTest.get(info) ?? new Set<string>();
  reachedByTest.set(info, seen);
  if (seen.has(requirementId)) return;
  seen.add(requirementId);
  info.annotations.push({ type: REACHED_ANNOTATION, description: requirementId });
}

