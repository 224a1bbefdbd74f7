import { stripVTControlCharacters } from 'node:util';
import type { FindingRecord } from '../harness/record/findings';
import type { StoredRef } from '../checks/finding';
import { redact } from '../config/redaction';
import { clipText, commandText, visible, visibleLines } from '../config/safe-text';

/**
 * One failure as the report keeps it: the finding record the test attached (expected, received, the
 * request and response, a curl line built from the request), the test it came from, and the whole as
 * plain text. A failure with no record (a crash, a timeout, a plain expect) keeps its error text as
 * `received`. Every string may hold server text: each renderer escapes it for its own output.
 */
export interface Evidence extends FindingRecord {
  /** The test that produced it. */
  test: string;
  /** Every part as plain text, in the form evidenceLines gives it (server text already on its label's line). */
  message: string;
}

export function evidenceOf(test: string, record: FindingRecord): Evidence {
  return { ...record, test, message: messageOf(record) };
}

/** A failure that attached no finding: its error text is all there is (ANSI colours removed, length bounded). */
export function evidenceOfError(test: string, requirementId: string, error: string): Evidence {
  const received = clipText(redact(stripVTControlCharacters(error).replace(/^Error: /, '').trim()), 4000);
  const record: FindingRecord = { requirementId, expected: 'the test to complete', received };
  return evidenceOf(test, record);
}

/** Where a generated failure stands in the failure store: replayed from it (an earlier run found it), or kept in it now. */
export function storeLabel(store: StoredRef): string {
  return store.replayed
    ? `from the failure store: ${store.file} (found by an earlier run, replayed before new inputs)`
    : `kept in the failure store as ${store.file}: later runs replay it first`;
}

/** Requirements of authentication (5.1): what decides them is the Authorization header the request sent. */
export function isAboutCredentials(requirementId: string): boolean {
  return requirementId.startsWith('ORD-AUTH-');
}

/** The Authorization header of a request as sent (its credentials already masked), or "(none)" when it sent none. */
export function authorizationSent(headers: Record<string, string>): string {
  const value = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  return value === undefined ? '(none)' : JSON.stringify(redact(value));
}

/** The request line of a finding: method and path. */
export function requestLine(record: FindingRecord): string | undefined {
  return record.request && `${record.request.method} ${record.request.path}`;
}

/** The response line of a finding: status, content type and any rate-limit retries. */
export function responseLine(record: FindingRecord): string | undefined {
  const response = record.response;
  if (!response) return undefined;
  const location = response.status >= 300 && response.status < 400 ? `, Location ${JSON.stringify(response.headers.location ?? '(none)')} (not followed)` : '';
  return `${response.status} (${response.contentType || 'no content type'})${location}${response.retries ? `, after ${response.retries} rate-limit retries` : ''}`;
}

/** How much of a finding a shortened view (the terminal's) shows; the report files show it all. */
export interface EvidenceLimits {
  /** Lines of a multi-line part (received, counterexample). */
  partLines: number;
  /** Characters of a body. */
  body: number;
}

/**
 * A finding as labelled lines of plain text: the one form the terminal and junit.xml show and report.json keeps
 * as `evidence`. Each line starts with a label of the suite's (or, for the suite's own multi-line parts, their
 * indentation); every server string (a body, a path, a content type) sits after its label made visible, its
 * line breaks written \n (config/safe-text.ts), so none starts a line of its own or passes for one of the
 * suite's; a curl line stays as built, so it runs as printed.
 */
export function evidenceLines(record: FindingRecord, limits?: EvidenceLimits): string[] {
  const lines = [...part('Expected', record.expected, limits), ...part('Received', record.received, limits)];
  const request = requestLine(record);
  if (request) lines.push(`${label('Request')}${visible(request)}`);
  if (request && record.request && isAboutCredentials(record.requirementId)) lines.push(`${label('  header')}Authorization ${visible(authorizationSent(record.request.headers))}`);
  if (request && record.request?.body !== undefined) lines.push(`${label('  body')}${shownBody(record.request.body, limits)}`);
  const response = responseLine(record);
  if (response && record.response) lines.push(`${label('Response')}${visible(response)} ${shownBody(record.response.body, limits)}`);
  if (record.curl) lines.push(`${label('Reproduce')}${commandText(record.curl)}`);
  if (record.counterexample) lines.push(...part('Counterexample', record.counterexample, limits));
  if (record.store) lines.push(`${label('Store')}${visible(storeLabel(record.store))}`);
  if (record.replay) lines.push(`${label('Replay')}${commandText(record.replay.command)}`);
  if (record.repeats) lines.push(`(${record.repeats} more violation(s) of it in the same test)`);
  return lines;
}

function label(name: string): string {
  return `${name}: `.padEnd(11);
}

function shownBody(body: string, limits: EvidenceLimits | undefined): string {
  return body === '' ? '(empty)' : visible(limits ? clipText(body, limits.body) : body);
}

/** A labelled part of the suite's own text, its lines kept (each made visible, continuations indented), cut to a bounded number. */
function part(name: string, text: string, limits: EvidenceLimits | undefined): string[] {
  const all = visibleLines(text);
  const shown = limits ? all.slice(0, limits.partLines) : all;
  if (all.length > shown.length) shown.push(`… ${all.length - shown.length} more line(s) in the report`);
  return shown.map((line, i) => (i === 0 ? `${label(name)}${line}` : `  ${line}`));
}

function messageOf(record: FindingRecord): string {
  return evidenceLines(record).join('\n');
}
