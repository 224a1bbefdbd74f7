import { visible, visibleControls } from '../config/safe-text';
import { leavesInconclusive, VERDICT_WORDS, type ConformanceReport, type CutEntry, type GeneratedEntry, type RequirementResult } from './report';
import type { RunInfo } from '../config/run-info';

/** How a requirement is shown: its status, with failures told apart by whether they gate and whether they are known. */
export type Display = 'passed' | 'failed' | 'warned' | 'known' | 'observed' | 'skipped' | 'not-reached' | 'not-testable';

export function displayOf(r: RequirementResult): Display {
  if (r.status !== 'failed') return r.status;
  if (r.knownFailure) return 'known';
  return r.gating ? 'failed' : 'warned';
}

export const DISPLAY: Record<Display, { label: string; colour: string; text: string }> = {
  passed: { label: 'passed', colour: '#2da44e', text: '#ffffff' },
  failed: { label: 'failed', colour: '#cf222e', text: '#ffffff' },
  warned: { label: 'failed (not gating)', colour: '#e16f24', text: '#ffffff' },
  known: { label: 'known failure', colour: '#8250df', text: '#ffffff' },
  observed: { label: 'observed', colour: '#0969da', text: '#ffffff' },
  skipped: { label: 'skipped', colour: '#8c959f', text: '#ffffff' },
  'not-reached': { label: 'not reached', colour: '#d0d7de', text: '#24292f' },
  'not-testable': { label: 'not testable', colour: '#ffffff', text: '#57606a' },
};

/** The failures to show first: new gating ones, then the others. */
export function failures(report: ConformanceReport): RequirementResult[] {
  const order: Display[] = ['failed', 'warned', 'known'];
  return report.requirements
    .filter((r) => r.status === 'failed')
    .sort((a, b) => order.indexOf(displayOf(a)) - order.indexOf(displayOf(b)));
}

/** Skipped requirements grouped by cause and reason ("server: rate limited …"), most frequent first. */
export function skipsByReason(report: ConformanceReport): Array<[string, string[]]> {
  const reasons = new Map<string, string[]>();
  for (const r of report.requirements.filter((x) => x.status === 'skipped')) {
    for (const skip of r.skips) {
      const reason = `${skip.kind}: ${skip.reason}`;
      if (!reasons.get(reason)?.includes(r.id)) reasons.set(reason, [...(reasons.get(reason) ?? []), r.id]);
    }
  }
  return [...reasons].sort((a, b) => b[1].length - a[1].length);
}

/** A cut as one line: the test, how far it got, why, and what its cut leaves unchecked. */
export function cutLine(cut: CutEntry): string {
  const unchecked = cut.belowFloor ? `; below its floor, so it checked nothing: ${cut.requirements.join(', ')}` : '';
  return `${cut.test}: ${cut.made} of ${cut.planned} ${cut.unit} (${cut.cause}: ${cut.reason}; ${cut.requests} requests)${unchecked}`;
}

/** One line on what the generated tests ran: every planned run made, or how many of them were. */
export function generatedLine(report: ConformanceReport): string {
  const made = report.generated.reduce((sum, g) => sum + g.made, 0);
  const planned = report.generated.reduce((sum, g) => sum + g.planned, 0);
  const short = report.generated.filter((g) => g.made < g.planned && !g.failed).length;
  const failed = report.generated.filter((g) => g.failed).length;
  const requests = report.generated.reduce((sum, g) => sum + g.requests, 0);
  const stored = report.generated.reduce((sum, g) => sum + (g.stored ?? 0), 0);
  const notes = [
    ...(stored ? [`${stored} stored counterexample(s) of the failure store replayed first`] : []),
    ...(failed ? [`${failed} stopped at a failure`] : []),
    ...(short ? [`${short} short of their plan: see "Cut short"`] : []),
  ];
  return `Generated tests: ${report.generated.length}, ${made} of ${planned} planned runs made${notes.length ? ` (${notes.join('; ')})` : ''}, ${requests} requests`;
}

/** The run's seed and where it came from: whether a rerun draws the same inputs, and how to replay this one. */
export function seedLabel(run: Pick<RunInfo, 'seed' | 'seedFrom'>): string {
  if (run.seed === null) return 'random (not recorded)';
  if (run.seedFrom === 'suite-version') return `${run.seed} (from the suite version: the same inputs every run)`;
  if (run.seedFrom === 'drawn') return `${run.seed} (drawn for this run, exploring: OMS_SEED=${run.seed} replays it)`;
  return `${run.seed} (OMS_SEED)`;
}

/** One generated test's runs: made of planned, whether they stopped at a failure, the stored counterexamples replayed first. */
export function runsMade(g: GeneratedEntry): string {
  const notes = [...(g.stored ? [`${g.stored} from the failure store first`] : []), ...(g.failed ? ['stopped at a failure'] : [])];
  return `${g.made} of ${g.planned} ${g.unit}${notes.length ? ` (${notes.join('; ')})` : ''}`;
}

export function targetLabel(report: ConformanceReport): string {
  if (report.target.embedded) return `the embedded reference server${report.target.baseUrl ? ` (${report.target.baseUrl})` : ''}`;
  return report.target.baseUrl ?? 'unknown';
}

/** The verdict as one short line for index.html and report.md: the verdict, the gating count, complete or not; the reasons go below it (verdictReasons). */
export function verdictHeadline(report: ConformanceReport): string {
  const complete = report.complete ? 'complete' : 'incomplete, not a certification';
  return `OMS conformance (${report.profile}): ${VERDICT_WORDS[report.verdict]} · ${report.score.passed} of ${report.score.gating} gating requirements passed · ${complete}`;
}

/** What the headline leaves out, each once: the known failures, what the run did not judge (and what would complete it), expired expectations. */
export function verdictReasons(report: ConformanceReport): Array<{ cause: string; what: string }> {
  const { knownFailures, expectationsFile, expired } = report.gate;
  return [
    ...(knownFailures.length ? [{ cause: 'known failures', what: `${knownFailures.join(', ')}, listed in ${expectationsFile}` }] : []),
    ...(report.complete ? [] : decisiveFirst(report).map(({ cause, what }) => ({ cause, what }))),
    ...(expired?.length ? [{ cause: 'expired expectations', what: `renew or remove in ${expectationsFile}: ${expired.map((e) => `${e.id} (until ${e.until})`).join(', ')}` }] : []),
  ];
}

/** The gaps, the ones that decided the verdict first: what left it inconclusive, or the interruption. */
function decisiveFirst(report: ConformanceReport): ConformanceReport['gaps'] {
  const decides = (gap: ConformanceReport['gaps'][number]) =>
    (report.verdict === 'inconclusive' && leavesInconclusive(gap)) || (report.verdict === 'interrupted' && gap.cause === 'interrupted');
  return [...report.gaps.filter(decides), ...report.gaps.filter((gap) => !decides(gap))];
}

/** Lines of a body or a message shown before the rest is folded away: about a screenful. */
export const SCREENFUL_LINES = 40;

/**
 * A body as a reader reads it: JSON laid out two spaces a level (a body the report cut too), anything else as
 * it came. Only whitespace next to the structure ({ } [ ] , :) changes: every number, string and key stays as
 * the server wrote it (parsing and printing again would round 2^53+1 and merge duplicate keys), and text that
 * is not JSON is one line, made visible (config/safe-text.ts). Server text never brings a line break of its own:
 * controls are made visible first, so every line break is one this layout put before indentation or a bracket,
 * and no line of a body can read as a line of the suite.
 */
export function readableBody(served: string): string {
  return laidOutBody(served).text;
}

/**
 * readableBody's layout, and for each of its lines the JSON pointer (RFC 6901) of the member or element that
 * starts there (none for a closing bracket), tracked while laying out, so a pointer a check gave finds its
 * line from the structure, never by searching the server's text. A body that is not laid out has no pointers.
 */
export function laidOutBody(served: string): { text: string; paths: Array<string | undefined> } {
  if (!looksLikeJson(served)) return { text: visible(served), paths: [undefined] };
  // visibleControls, not visible: a JSON escape (\") keeps its one backslash, so strings are still told apart.
  const body = visibleControls(served);
  const structure = '{}[],:';
  let out = '';
  let depth = 0;
  let inString = false;
  // The containers open around the current position: their pointer, and the key or index being written.
  const open: Array<{ pointer: string; array: boolean; index: number; key?: string; expectKey: boolean }> = [];
  const paths: Array<string | undefined> = [undefined];
  let stringStart = -1;
  const current = (): string => {
    const top = open[open.length - 1];
    if (!top) return '';
    return `${top.pointer}/${top.array ? top.index : pointerSegment(top.key ?? '')}`;
  };
  const startsLine = (pointer: string) => {
    if (paths[paths.length - 1] === undefined) paths[paths.length - 1] = pointer;
  };
  const newline = () => {
    paths.push(undefined);
    return `\n${'  '.repeat(Math.max(0, depth))}`;
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      out += c;
      if (c === '\\' && i + 1 < body.length) out += body[++i];
      else if (c === '"') {
        inString = false;
        const top = open[open.length - 1];
        if (top && !top.array && top.expectKey) {
          top.key = keyOf(body.slice(stringStart, i + 1));
          top.expectKey = false;
          startsLine(current());
        }
      }
    } else if (c === '"') {
      inString = true;
      stringStart = i;
      const top = open[open.length - 1];
      if (!(top && !top.array && top.expectKey)) startsLine(current());
      out += c;
    } else if (c === '{' || c === '[') {
      startsLine(current());
      const close = c === '{' ? '}' : ']';
      const after = body.slice(i + 1).search(/\S/);
      if (after >= 0 && body[i + 1 + after] === close) {
        out += `${c}${close}`;
        i += 1 + after;
      } else {
        open.push({ pointer: current(), array: c === '[', index: 0, expectKey: c === '{' });
        depth++;
        out += `${c}${newline()}`;
      }
    } else if (c === '}' || c === ']') {
      depth--;
      open.pop();
      out += `${newline()}${c}`;
    } else if (c === ',') {
      const top = open[open.length - 1];
      if (top?.array) top.index++;
      else if (top) top.expectKey = true;
      out += `,${newline()}`;
    } else if (c === ':') out += ': ';
    else if (/\s/.test(c)) {
      const next = body.slice(i + 1).trimStart()[0] ?? '';
      if (!structure.includes(out.trimEnd().slice(-1)) && !structure.includes(next)) out += c;
    } else {
      startsLine(current());
      out += c;
    }
  }
  return { text: out, paths };
}

/** A key as a pointer names it: the string decoded (a literal the report cut, or one JSON refuses, as written). */
function keyOf(literal: string): string {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return literal.slice(1, -1);
  }
}

/** One reference token of a JSON pointer (RFC 6901: ~ as ~0, / as ~1). */
function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The lines of a laid-out body (laidOutBody) that hold the fields at fault, each with the pointer it marks: the
 * line where the member or element starts (of a key written twice, the last: the one a parser keeps), or, for a
 * field the body lacks (a required field left out) or one the report cut away, the line of its nearest container that is there.
 */
export function linesAtFault(paths: ReadonlyArray<string | undefined>, pointers: readonly string[]): Map<number, string> {
  const marked = new Map<number, string>();
  for (const pointer of pointers) {
    for (let at: string | undefined = pointer; at !== undefined; at = at === '' ? undefined : at.slice(0, at.lastIndexOf('/'))) {
      const line = paths.lastIndexOf(at);
      if (line < 0) continue;
      if (!marked.has(line)) marked.set(line, pointer);
      break;
    }
  }
  return marked;
}

/** A JSON literal outside strings; the report's cut (clipText's "… (N characters)") may end a body in the middle of one. */
const BARE_TOKEN = /^(?:-?[0-9][0-9.eE+-]*|true|false|null)$/;
const CUT_TOKEN = /^[-0-9.eE+a-z]*$/;
const CUT_MARK = /… \(\d+ characters\)$/;

/**
 * Text laid out as JSON only when all it holds outside strings is structure and literals: a body with bare
 * text ({ Reproduce: … }) stays one line, so no line the layout starts can begin with the server's words.
 */
function looksLikeJson(body: string): boolean {
  if (!/^\s*[[{]/.test(body)) return false;
  const cut = CUT_MARK.test(body);
  const bare = body.replace(CUT_MARK, '').replace(/"(?:[^"\\]|\\.)*"?/g, ' ').split(/[\s{}[\],:]+/).filter(Boolean);
  return bare.every((token, i) => BARE_TOKEN.test(token) || (cut && i === bare.length - 1 && CUT_TOKEN.test(token)));
}

/**
 * A screenful of `lineCount` lines to show, the rest folded before and after it: from the first line, or, where
 * the first of `focus` (marked lines) would be folded away, around it, so a marked line is always in view.
 */
export function screenfulAround(lineCount: number, focus: readonly number[] = []): { start: number; end: number } {
  const first = focus.length ? Math.min(...focus) : 0;
  if (lineCount <= SCREENFUL_LINES || first < SCREENFUL_LINES) return { start: 0, end: Math.min(lineCount, SCREENFUL_LINES) };
  const start = Math.min(first - CONTEXT_LINES, lineCount - SCREENFUL_LINES);
  return { start, end: start + SCREENFUL_LINES };
}

/** Lines shown above a marked line when the screenful moves to it: enough to see which object it belongs to. */
const CONTEXT_LINES = 8;

/** Text cut at a screenful: what is shown, and the rest to fold away ('' when it fits). */
export function foldAtScreenful(text: string): { shown: string; rest: string; restLines: number } {
  const lines = text.split('\n');
  if (lines.length <= SCREENFUL_LINES) return { shown: text, rest: '', restLines: 0 };
  return { shown: lines.slice(0, SCREENFUL_LINES).join('\n'), rest: lines.slice(SCREENFUL_LINES).join('\n'), restLines: lines.length - SCREENFUL_LINES };
}
