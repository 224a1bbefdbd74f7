import { readFileSync } from 'node:fs';
import type { ConformanceReport } from '../reporter/report';
import { UsageError } from './options';

/** A report.json a command was given; any problem is one line naming the file. */
export function readReportFile(path: string): ConformanceReport {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the report ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    throw new UsageError(`${path} is not a report.json: it is not JSON`);
  }
  const requirements = (report as { requirements?: unknown } | null)?.requirements;
  if (!Array.isArray(requirements)) throw new UsageError(`${path} is not a report.json of oms-conformance: it has no requirements`);
  return report as ConformanceReport;
}
