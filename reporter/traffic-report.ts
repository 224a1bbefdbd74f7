import { JUDGED_FROM_TRAFFIC, judgeExchange, SEQUENCE_NOT_SEEN, type RecordedExchange, type TrafficJudgement, type TrafficJudging } from '../checks/traffic';
import type { Finding } from '../checks/finding';
import { redact } from '../config/redaction';
import { authorizationSent, isAboutCredentials } from './evidence';
import { visible, visibleLines } from '../config/safe-text';
import { catalogue, gatingLevels, type Level } from '../requirements/catalogue';

/**
 * `oms-conformance judge`: the result per requirement of judging recorded traffic, and how it reads.
 * Pure: the exchanges in, the report out; nothing is sent.
 */

export type TrafficStatus = 'failed' | 'passed' | 'not-judged';

/** An exchange of the recording shown as evidence: where it is in the file, what it was, what was wrong. */
export interface TrafficEvidence {
  /** Index of the entry in log.entries, from 0. */
  entry: number;
  request: string;
  /** For a requirement of authentication: the Authorization header the request sent (masked), or "(none)". */
  authorization?: string;
  status: number;
  startedAt?: string;
  expected: string;
  received: string;
}

export interface TrafficRequirement {
  id: string;
  section: string;
  level: Level;
  statement: string;
  status: TrafficStatus;
  gating: boolean;
  /** Exchanges it was judged on. */
  judgedOn: number;
  /** Violations seen; the first ten are kept as evidence. */
  occurrences: number;
  evidence: TrafficEvidence[];
  /** For a requirement not judged: why the traffic could not show it. */
  reason?: string;
  /** The exchanges of recorded traffic it is judged on, for a requirement traffic can show. */
  judgedFrom?: string;
}

/** A requirement the recording says its run failed, on which entries, and what judging the same entries found. */
export interface RecordedFailure {
  id: string;
  entries: number[];
  judged: TrafficStatus;
}

export interface TrafficReport {
  file: string;
  profile: 'core' | 'strict';
  /** Entries in the file, and how many of them were requests of the interface (the rest were judged on nothing). */
  entries: number;
  ofTheInterface: number;
  requirements: TrafficRequirement[];
  recordedFailures: RecordedFailure[];
  /** Gating requirements (those that can be tested), and how many of them the traffic judged. */
  gating: number;
  gatingJudged: number;
  /** failed: a gating requirement failed; passed: none did, of those the traffic could judge. */
  verdict: 'failed' | 'passed';
  /** The proxy's: requests the service gave no answer to (not in the traffic judged), and why the first got none. */
  unanswered?: { requests: number; first: string };
}

const MAX_EVIDENCE = 10;

/** Why the traffic cannot show a requirement the suite judges with requests of its own, by family. */
const NEEDS: Array<[RegExp, string]> = [
  [/^ORD-ISO-/, 'it needs a second account and the knowledge of which account owns which order'],
  [/^ORD-LIST-(003|006|011)$/, 'it needs several list pages read as one unchanged view of the account'],
  [/^ORD-LIST-008$/, 'it needs an order found in the list and got in full at the same time'],
  [/^ORD-DELETE-004$/, 'it needs the orders of the account got before and after a delete'],
  [/^ORD-(CREATE-00[128]|UPDATE-00[1578]|GET-00[35])$/, 'it needs a request body the suite designs for it, or the orders it holds before and after'],
  [/^ORD-ERR-00[2-5]$/, 'it needs a request the suite knows to be invalid in one way'],
  [/^ORD-(CREATE-007|UPDATE-00[34])$/, 'it needs requests made at set times or in parallel, and what the suite sent'],
];

/** Judges every exchange of a recording, in order, and gathers the result per requirement of the catalogue. */
export function judgeTraffic(file: string, recorded: ReadonlyArray<RecordedExchange & { index: number }>, profile: 'core' | 'strict', judging: TrafficJudging): TrafficReport {
  const judge = new TrafficJudge(profile, judging);
  for (const entry of recorded) judge.add(entry);
  return judge.report(file);
}

/**
 * The judging of a recording as it grows (the proxy's, exchange by exchange): each exchange judged once, against
 * those added before it, and the report of all so far at any time, at the cost of the catalogue, not the traffic.
 */
export class TrafficJudge {
  private readonly judged = new Map<string, { on: number; findings: Array<{ entry: RecordedExchange & { index: number }; finding: Finding }> }>();
  private readonly recorded: Array<RecordedExchange & { index: number }> = [];

  constructor(
    readonly profile: 'core' | 'strict',
    private readonly judging: TrafficJudging,
  ) {}

  /** Judges the next exchange; its judgements, for the lines printed the moment it is judged (exchangeViolationLines). */
  add(entry: RecordedExchange & { index: number }): TrafficJudgement[] {
    const judgements = judgeExchange(entry, this.recorded, this.judging);
    const seen = new Set<string>();
    for (const { requirementId, finding } of judgements) {
      const result = this.judged.get(requirementId) ?? { on: 0, findings: [] };
      if (!seen.has(requirementId)) result.on++;
      seen.add(requirementId);
      if (finding) result.findings.push({ entry, finding });
      this.judged.set(requirementId, result);
    }
    this.recorded.push(entry);
    return judgements;
  }

  report(file: string): TrafficReport {
    const { judged, recorded, profile } = this;
    const gatingLevelsOfProfile = gatingLevels(profile);
    const requirements = [...catalogue().values()].map((r): TrafficRequirement => {
      const result = judged.get(r.id);
      const base = {
        id: r.id,
        section: r.section,
        level: r.level,
        statement: r.statement,
        gating: gatingLevelsOfProfile.includes(r.level) && !r.not_tested,
        ...(JUDGED_FROM_TRAFFIC[r.id] && { judgedFrom: JUDGED_FROM_TRAFFIC[r.id] }),
      };
      if (!result) return { ...base, status: 'not-judged', judgedOn: 0, occurrences: 0, evidence: [], reason: notJudgedReason(r.id, r.level, r.not_tested) };
      const evidence = result.findings.slice(0, MAX_EVIDENCE).map(({ entry, finding }) => evidenceOf(entry, finding, r.id));
      return { ...base, status: result.findings.length ? 'failed' : 'passed', judgedOn: result.on, occurrences: result.findings.length, evidence };
    });
    const byId = new Map(requirements.map((r) => [r.id, r]));
    const recordedEntries = new Map<string, number[]>();
    for (const { requirement, index } of recorded) if (requirement) recordedEntries.set(requirement, [...(recordedEntries.get(requirement) ?? []), index]);
    const gating = requirements.filter((r) => r.gating);
    return {
      file,
      profile,
      entries: recorded.length,
      ofTheInterface: recorded.filter((entry) => entry.exchange.operationId).length,
      requirements,
      recordedFailures: [...recordedEntries].map(([id, entries]) => ({ id, entries, judged: byId.get(id)?.status ?? 'not-judged' })),
      gating: gating.length,
      gatingJudged: gating.filter((r) => r.status !== 'not-judged').length,
      verdict: gating.some((r) => r.status === 'failed') ? 'failed' : 'passed',
    };
  }
}

function notJudgedReason(id: string, level: Level, notTested: string | undefined): string {
  if (notTested) return `not testable: ${notTested}`;
  if (SEQUENCE_NOT_SEEN[id]) return SEQUENCE_NOT_SEEN[id];
  if (JUDGED_FROM_TRAFFIC[id]) return 'no exchange in this traffic shows it (--json lists what each is judged on)';
  if (level === 'OBSERVED' || level === 'NONE') return 'an observation the suite makes with requests of its own; traffic is judged, not observed';
  const need = NEEDS.find(([pattern]) => pattern.test(id))?.[1] ?? 'it needs requests the suite designs for it';
  return `recorded traffic cannot show it: ${need}`;
}

function evidenceOf(entry: RecordedExchange & { index: number }, finding: Finding, requirementId: string): TrafficEvidence {
  const { exchange } = entry;
  const authorization = isAboutCredentials(requirementId) ? authorizationSent(exchange.request.headers) : undefined;
  return {
    entry: entry.index,
    request: redact(`${exchange.request.method} ${exchange.request.url}`),
    ...(authorization !== undefined && { authorization }),
    status: exchange.status,
    ...(exchange.timing && { startedAt: exchange.timing.startedAt }),
    expected: redact(finding.expected),
    received: redact(finding.received),
  };
}

/** The report as the terminal shows it: failures in full, then passes and what was not judged, then the verdict; server text made visible. */
export function trafficLines(report: TrafficReport): string[] {
  const lines = [`Judged ${visible(report.file)}: ${report.entries} exchange(s), ${report.ofTheInterface} of them requests of the interface; no request sent.`, ''];
  const { unanswered } = report;
  if (unanswered && report.entries === 0) {
    // Nothing to list as judged or not: say only that, and what to do.
    return [
      ...lines,
      `None of the ${unanswered.requests} request(s) reached the service: it gave no answer (${visible(unanswered.first)}), the client was answered 502, and nothing was judged. Start the service, or check --base-url, and send the requests again.`,
    ];
  }
  const head = (r: TrafficRequirement, word: string) => `${word} ${r.id} (${r.level}, §${r.section}) ${r.statement}`;
  for (const r of report.requirements.filter((x) => x.status === 'failed')) {
    lines.push(`${head(r, r.gating ? 'FAIL' : 'WARN')} — ${r.occurrences} of ${r.judgedOn} exchange(s)`);
    for (const e of r.evidence) lines.push(...evidenceLines(e));
    if (r.occurrences > r.evidence.length) lines.push(`    + ${r.occurrences - r.evidence.length} more exchange(s)`);
  }
  const passed = report.requirements.filter((r) => r.status === 'passed');
  if (passed.length) lines.push('', `Passed, on the exchanges that show them: ${passed.map((r) => `${r.id} (${r.judgedOn})`).join(', ')}`);
  // By reason, each with the requirements it holds for; the not-testable ones (the catalogue says why) are left out.
  const notJudged = new Map<string, string[]>();
  for (const r of report.requirements.filter((x) => x.status === 'not-judged' && !x.reason?.startsWith('not testable'))) notJudged.set(r.reason ?? '', [...(notJudged.get(r.reason ?? '') ?? []), r.id]);
  if (notJudged.size) {
    lines.push('', 'Not judged:');
    for (const [reason, ids] of notJudged) lines.push(`  ${ids.join(', ')}: ${reason}`);
  }
  if (report.recordedFailures.length) {
    const byId = new Map(report.requirements.map((r) => [r.id, r]));
    lines.push('', 'The recording names the requirements its run failed on these exchanges (failures.har):');
    for (const f of report.recordedFailures) lines.push(`  ${visible(f.id)} on ${f.entries.length} exchange(s): ${f.judged === 'not-judged' ? `not judged here: ${visible(byId.get(f.id)?.reason ?? 'not a requirement of the catalogue')}` : `${f.judged} here`}`);
  }
  const failed = report.requirements.filter((r) => r.status === 'failed' && r.gating).map((r) => r.id);
  if (unanswered) lines.push('', `${unanswered.requests} request(s) got no answer from the service (the first: ${visible(unanswered.first)}); the client was answered 502, and they are not judged.`);
  lines.push(
    '',
    `Traffic judged (${report.profile}): ${report.verdict === 'failed' ? `VIOLATIONS FOUND (${failed.join(', ')})` : 'NO VIOLATION SEEN'}; ` +
      `${report.gatingJudged} of ${report.gating} gating requirements judged from this traffic, the rest not judged: not a certification.`,
  );
  return lines;
}

/** One exchange as evidence: where it is in the traffic, the request and status, what was expected and received. */
function evidenceLines(e: TrafficEvidence): string[] {
  return [
    `    entry ${e.entry}: ${visible(e.request)} → ${e.status}${e.startedAt ? ` (${visible(e.startedAt)})` : ''}`,
    ...(e.authorization === undefined ? [] : [`      Sent: Authorization ${visible(e.authorization)}`]),
    ...visibleLines(`Expected: ${e.expected}`).map((line) => `      ${line}`),
    ...visibleLines(`Received: ${e.received}`).map((line) => `      ${line}`),
  ];
}

/**
 * The violations one exchange showed, as `oms-conformance proxy` prints them the moment it is judged (the
 * lines of trafficLines' failures); empty when it showed none.
 */
export function exchangeViolationLines(entry: RecordedExchange & { index: number }, judgements: readonly TrafficJudgement[], profile: 'core' | 'strict'): string[] {
  const gating = gatingLevels(profile);
  const requirements = catalogue();
  return judgements.flatMap(({ requirementId, finding }) => {
    const r = requirements.get(requirementId);
    if (!finding || !r) return [];
    return [`${gating.includes(r.level) ? 'FAIL' : 'WARN'} ${r.id} (${r.level}, §${r.section}) ${r.statement}`, ...evidenceLines(evidenceOf(entry, finding, r.id))];
  });
}
