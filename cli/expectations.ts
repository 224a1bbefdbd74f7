import { resolve } from 'node:path';
import { EXIT_CODE } from '../config/exit-codes';
import { loadExpectations } from '../reporter/expectations';
import { UsageError, type Parsed } from './options';
import { readReportFile } from './report-file';

/**
 * `oms-conformance expectations --prune REPORT.json [--expect FILE]`: lists the entries of the
 * expectations file (by default the one the report was made with) whose requirement passes in that report,
 * and the entries past their until day. Changes nothing.
 */
export function expectations({ options, positionals }: Parsed): number {
  if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}: give the report with --prune REPORT.json`);
  const reportPath = options.get('prune');
  if (typeof reportPath !== 'string') throw new UsageError('expectations needs --prune REPORT.json (the report of a run against the server)');
  const report = readReportFile(reportPath);
  const given = options.get('expect');
  const file = typeof given === 'string' ? given : report.gate?.expectationsFile;
  if (!file) throw new UsageError(`${reportPath} was made without an expectations file: give the file with --expect FILE`);
  const entries = loadExpectations(resolve(file));
  const status = new Map(report.requirements.map((r) => [r.id, r.status]));
  const passing = [...entries].filter(([id]) => status.get(id) === 'passed' || status.get(id) === 'observed');
  for (const [id, reason] of passing) console.log(`now passes: ${id} (${reason}): remove it from ${file}`);
  for (const { id, until } of entries.expired) console.log(`expired:    ${id} (until ${until}): renew its until or remove it from ${file}`);
  const unchecked = [...entries.keys()].filter((id) => !status.has(id) || status.get(id) === 'not-reached' || status.get(id) === 'skipped');
  if (unchecked.length) console.log(`not checked in ${reportPath} (kept): ${unchecked.join(', ')}`);
  console.log(
    passing.length || entries.expired.length
      ? `${passing.length + entries.expired.length} of ${entries.size + entries.expired.length} entries of ${file} can go.`
      : `Every entry of ${file} still holds.`,
  );
  return EXIT_CODE.conformant;
}
