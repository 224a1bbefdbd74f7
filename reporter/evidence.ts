import { stripVTControlCharacters } from 'node:util';
import type { FindingRecord } from '../harness/record/findings';
import { redact } from '../config/redaction';
import { clipText } from '../config/safe-text';

/**
 * One failure as the report keeps it: the finding record the test attached (expected, received, the
 * request and response, a curl line built from the request), the test it came from, and the whole as
 * plain text. A failure with no record (a crash, a timeout, a plain expect) keeps its error text as
 * `received`. Every string may hold server text: each renderer escapes it for its own output.
 */
export interface Evidence extends FindingRecord {
  /** The test that produced it. */
  test: string;
  /** Every part as plain text (the suite's line breaks kept); escaped by whoever shows it. */
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

function messageOf(record: FindingRecord): string {
  const lines = [`Expected: ${record.expected}`, `Received: ${record.received}`];
  const request = requestLine(record);
  if (request) lines.push(`Request:  ${request}${record.request?.body === undefined ? '' : `\n  body: ${record.request.body}`}`);
  if (record.response) lines.push(`Response: ${responseLine(record)}\n  body: ${record.response.body === '' ? '(empty)' : record.response.body}`);
  if (record.curl) lines.push(`Reproduce: ${record.curl}`);
  if (record.counterexample) lines.push('', record.counterexample);
  if (record.replay) lines.push(`Replay: ${record.replay.command}`);
  if (record.repeats) lines.push(`(${record.repeats} more violation(s) of it in the same test)`);
  return lines.join('\n');
}
