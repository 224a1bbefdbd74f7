import { observedBehaviour } from '../requirements/observed';
import { visible, visibleLines } from '../config/safe-text';
import type { Level } from '../requirements/catalogue';
import { targetLabel } from './display';
import type { ConformanceReport, RequirementResult, RequirementStatus } from './report';

/**
 * `oms-conformance diff OLD NEW`: what changed between two reports (two servers, or two releases of one):
 * requirements whose status changed, and observed behaviours that changed (a freedom of the document a
 * release used differently). Pure: two reports in, the differences out.
 */

/** A requirement's status in one report; `absent` when that report's catalogue did not have it. */
export type StatusIn = RequirementStatus | 'absent';

export interface StatusChange {
  id: string;
  level: Level;
  section: string;
  statement: string;
  from: StatusIn;
  to: StatusIn;
  /** new-failure: failed now and not before, and it gates the new report's profile; fixed: failed before, passed now. */
  kind: 'new-failure' | 'fixed' | 'changed';
  /** What the first new finding says, for a requirement that failed in the new report. */
  expected?: string;
  received?: string;
  /** Skip reasons of the new report, when it no longer checked the requirement. */
  reasons: string[];
}

export interface ObservedChange {
  id: string;
  level: Level;
  section: string;
  statement: string;
  was: string[];
  now: string[];
}

export interface ReportDiff {
  old: ReportSide;
  new: ReportSide;
  /** How the two runs differ besides the server's answers (profile, effort, suite, a partial run): read the changes with these in mind. */
  notes: string[];
  statusChanges: StatusChange[];
  observedChanges: ObservedChange[];
  /** Gating requirements of the new report that failed there and not in the old one. */
  newFailures: string[];
}

interface ReportSide {
  file: string;
  runId: string;
  target: string;
  profile: string;
  verdict: string;
  score: string;
}

export function diffReports(oldFile: string, old: ConformanceReport, newFile: string, next: ConformanceReport): ReportDiff {
  const before = new Map(old.requirements.map((r) => [r.id, r]));
  const after = new Map(next.requirements.map((r) => [r.id, r]));
  const ids = [...new Set([...after.keys(), ...before.keys()])];
  const statusChanges: StatusChange[] = [];
  const observedChanges: ObservedChange[] = [];
  for (const id of ids) {
    const was = before.get(id);
    const now = after.get(id);
    const about = (now ?? was) as RequirementResult;
    const from: StatusIn = was?.status ?? 'absent';
    const to: StatusIn = now?.status ?? 'absent';
    const describe = { id, level: about.level, section: about.section, statement: about.statement };
    if (from !== to) {
      const kind = to === 'failed' && now?.gating ? 'new-failure' : from === 'failed' && to === 'passed' ? 'fixed' : 'changed';
      const finding = to === 'failed' ? now?.findings[0] : undefined;
      const evidence = finding ? { expected: finding.expected, received: finding.received } : {};
      statusChanges.push({ ...describe, from, to, kind, ...evidence, reasons: to === 'failed' || to === 'passed' ? [] : (now?.skipReasons ?? []) });
    }
    // An observation is compared only where both runs made one (one run not reaching it is a status change
    // above), by the behaviour it records: the instance that illustrates it (an id, a count) differs every run.
    const behaviours = (observed: string[] | undefined) => [...new Set((observed ?? []).map(observedBehaviour))].sort().join('\n');
    if (was?.observed.length && now?.observed.length && behaviours(was.observed) !== behaviours(now.observed)) {
      observedChanges.push({ ...describe, was: [...was.observed].sort(), now: [...now.observed].sort() });
    }
  }
  return {
    old: side(oldFile, old),
    new: side(newFile, next),
    notes: runDifferences(old, next),
    statusChanges,
    observedChanges,
    newFailures: statusChanges.filter((c) => c.kind === 'new-failure').map((c) => c.id),
  };
}

function side(file: string, report: ConformanceReport): ReportSide {
  return {
    file,
    runId: report.runId,
    target: targetLabel(report),
    profile: report.profile,
    verdict: report.verdict,
    score: report.score ? `${report.score.passed} of ${report.score.gating} gating requirements passed` : 'no score',
  };
}

/** What the two runs did differently, besides what the servers answered. */
function runDifferences(old: ConformanceReport, next: ConformanceReport): string[] {
  const notes: string[] = [];
  const compare = (what: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) notes.push(`${what}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
  };
  compare('profile', old.profile, next.profile);
  compare('effort', old.effort, next.effort);
  compare('read-only', old.readOnly, next.readOnly);
  compare('suite version', old.suite?.version, next.suite?.version);
  if (old.suite?.openapiSha256 !== next.suite?.openapiSha256 || old.suite?.catalogueSha256 !== next.suite?.catalogueSha256) {
    notes.push('the runs used different openapi.yaml or catalogue: a change may be the suite\'s, not the server\'s');
  }
  for (const [which, report] of [['old', old], ['new', next]] as const) {
    if (!report.complete) notes.push(`the ${which} run is incomplete (${(report.incompleteReasons ?? []).join('; ') || 'see its report'}): what it did not check shows as a status change`);
  }
  return notes;
}

/** The differences as the terminal shows them; server text made visible. */
export function diffLines(diff: ReportDiff): string[] {
  const sideLine = (label: string, s: ReportSide) => `${label} ${visible(s.file)}: run ${visible(s.runId)}, ${visible(s.target)}, ${s.profile}, ${s.verdict}, ${s.score}`;
  const lines = [sideLine('OLD', diff.old), sideLine('NEW', diff.new)];
  for (const note of diff.notes) lines.push(`Note: ${visible(note)}`);
  lines.push('');
  if (diff.statusChanges.length) {
    lines.push(`Status changed (${diff.statusChanges.length}):`);
    const label = { 'new-failure': 'NEW FAILURE', fixed: 'FIXED', changed: 'CHANGED' } as const;
    for (const c of diff.statusChanges) {
      lines.push(`  ${label[c.kind].padEnd(11)}  ${c.id} (${c.level}, §${c.section}) ${c.from} → ${c.to}: ${c.statement}`);
      if (c.expected !== undefined) lines.push(...visibleLines(`Expected: ${c.expected}`).map((line) => `      ${line}`));
      if (c.received !== undefined) lines.push(...visibleLines(`Received: ${c.received}`).map((line) => `      ${line}`));
      for (const reason of c.reasons) lines.push(`      ${visible(reason)}`);
    }
  } else {
    lines.push('Status changed: none.');
  }
  if (diff.observedChanges.length) {
    lines.push('', `Observed behaviour changed (${diff.observedChanges.length}): where the document leaves the answer open, the server now answers otherwise`);
    for (const c of diff.observedChanges) {
      lines.push(`  ${c.id} (§${c.section}) ${c.statement}`);
      lines.push(...c.was.map((value) => `      was: ${visible(value)}`), ...c.now.map((value) => `      now: ${visible(value)}`));
    }
  } else {
    lines.push('', 'Observed behaviour changed: none.');
  }
  return lines;
}
