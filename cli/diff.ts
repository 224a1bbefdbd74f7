import { writeFileSync } from 'node:fs';
import { EXIT_CODE } from '../config/exit-codes';
import { diffLines, diffReports } from '../reporter/diff';
import { UsageError, type Parsed } from './options';
import { readReportFile } from './report-file';

/**
 * `oms-conformance diff OLD/report.json NEW/report.json [--fail-on-observed] [--json FILE]`: exit 1 when a
 * gating requirement fails in NEW that did not fail in OLD (or, with --fail-on-observed, when an observed
 * behaviour changed), 0 otherwise.
 */
export function diff({ options, positionals }: Parsed): number {
  if (positionals.length !== 2) throw new UsageError('diff needs two reports: oms-conformance diff OLD/report.json NEW/report.json');
  const [oldFile, newFile] = positionals;
  const result = diffReports(oldFile, readReportFile(oldFile), newFile, readReportFile(newFile));
  const failOnObserved = options.has('fail-on-observed');
  console.log(diffLines(result).join('\n'));
  const json = options.get('json');
  if (typeof json === 'string') writeFileSync(json, `${JSON.stringify(result, null, 2)}\n`);
  const failing = [
    ...(result.newFailures.length ? [`${result.newFailures.length} new failure(s): ${result.newFailures.join(', ')}`] : []),
    ...(failOnObserved && result.observedChanges.length ? [`${result.observedChanges.length} observed behaviour(s) changed (--fail-on-observed)`] : []),
  ];
  console.log(`\n${failing.length ? `${failing.join('; ')}: exit 1` : 'No new failure' + (result.observedChanges.length && !failOnObserved ? ' (observed changes listed; --fail-on-observed makes them fail)' : '')}.`);
  return failing.length ? EXIT_CODE.violations : EXIT_CODE.conformant;
}
