import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { parse } from 'yaml';

/**
 * A composite action's steps run as GitHub's runner runs them, on this machine: `${{ … }}` expressions
 * substituted from the inputs (with their defaults), the earlier steps' outputs, `github.action_path` and
 * `runner.*`; each `run:` step a bash script (`bash --noprofile --norc -eo pipefail`, the runner's command
 * for `shell: bash`) with the step's env and fresh GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ENV and
 * GITHUB_PATH files; `if:` evaluated (success() by default); `uses:` steps recorded with their resolved
 * `with:`, not run (they are other repositories' code). Only the expression forms action.yml uses are
 * understood; any other throws.
 */

interface ActionStep {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  'working-directory'?: string;
}

export interface ActionDefinition {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface StepRun {
  id?: string;
  name: string;
  /** False when its `if:` was false; a `uses:` step that would run is `ran: 'recorded'`. */
  ran: boolean | 'recorded';
  exitCode?: number;
  output: string;
  outputs: Record<string, string>;
  /** A `uses:` step's `with:`, expressions resolved. */
  with?: Record<string, string>;
}

export interface ActionRun {
  steps: StepRun[];
  outputs: Record<string, string>;
  succeeded: boolean;
  summary: string;
  /** What the steps asked the runner to change for the rest of the job: lines of GITHUB_ENV and GITHUB_PATH. */
  jobEnv: string;
  jobPath: string;
  /** RUNNER_TEMP of this run. */
  runnerTemp: string;
}

export function readAction(file: string): ActionDefinition {
  return parse(readFileSync(file, 'utf8')) as ActionDefinition;
}

export interface RunOptions {
  actionPath: string;
  workspace: string;
  inputs: Record<string, string>;
  /** The job's environment (PATH, tokens it holds): what every step starts from. */
  env: NodeJS.ProcessEnv;
  /** Step env values replaced by the test, by step id (a local mirror for a download). */
  stepEnv?: Record<string, Record<string, string>>;
  /** Stop after the step with this id. */
  stopAfter?: string;
}

export async function runAction(options: RunOptions): Promise<ActionRun> {
  const action = readAction(join(options.actionPath, 'action.yml'));
  if (action.runs.using !== 'composite') throw new Error(`runs.using is ${action.runs.using}, not composite`);
  const temp = mkdtempSync(join(tmpdir(), 'oms-runner-'));
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, spec]) => [name, options.inputs[name] ?? spec.default ?? '']));
  for (const name of Object.keys(options.inputs)) if (!(name in action.inputs)) throw new Error(`action.yml has no input ${name}`);
  const stepOutputs: Record<string, Record<string, string>> = {};
  const context = (path: string): string => {
    const [head, ...rest] = path.split('.');
    if (head === 'inputs') return inputs[rest.join('.')] ?? '';
    if (head === 'steps' && rest[1] === 'outputs') return stepOutputs[rest[0]]?.[rest.slice(2).join('.')] ?? '';
    if (path === 'github.action_path') return options.actionPath;
    if (path === 'github.workspace') return options.workspace;
    if (path === 'runner.temp') return temp;
    if (path === 'runner.os') return 'Linux';
    throw new Error(`the simulated runner does not know ${path}`);
  };
  const files = { summary: join(temp, 'summary.md'), env: join(temp, 'env'), path: join(temp, 'path') };
  for (const file of Object.values(files)) writeFileSync(file, '');
  const run: ActionRun = { steps: [], outputs: {}, succeeded: true, summary: '', jobEnv: '', jobPath: '', runnerTemp: temp };
  for (const [index, step] of action.runs.steps.entries()) {
    const name = step.name ?? step.uses ?? `step ${index + 1}`;
    const status = { success: run.succeeded };
    if (!evaluateCondition(step.if ?? 'success()', context, status)) {
      run.steps.push({ id: step.id, name, ran: false, output: '', outputs: {} });
      continue;
    }
    if (step.uses) {
      const resolved = Object.fromEntries(Object.entries(step.with ?? {}).map(([key, value]) => [key, substitute(String(value), context)]));
      run.steps.push({ id: step.id, name, ran: 'recorded', output: '', outputs: {}, with: resolved });
      continue;
    }
    if (step.shell !== 'bash' || step.run === undefined) throw new Error(`step "${name}": only run steps with shell: bash are simulated`);
    const outputFile = join(temp, `output-${index}`);
    const summaryFile = join(temp, `summary-${index}.md`);
    writeFileSync(outputFile, '');
    writeFileSync(summaryFile, '');
    const script = join(temp, `step-${index}.sh`);
    writeFileSync(script, substitute(step.run, context));
    const env: NodeJS.ProcessEnv = {
      ...options.env,
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: options.workspace,
      GITHUB_ACTION_PATH: options.actionPath,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ENV: files.env,
      GITHUB_PATH: files.path,
      GITHUB_RUN_ID: '4242',
      GITHUB_RUN_ATTEMPT: '1',
      RUNNER_TEMP: temp,
      RUNNER_OS: 'Linux',
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, substitute(String(value), context)])),
      ...(step.id ? options.stepEnv?.[step.id] : {}),
    };
    const directory = step['working-directory'] ? substitute(step['working-directory'], context) : options.workspace;
    const { code, output } = await bash(script, isAbsolute(directory) ? directory : join(options.workspace, directory), env);
    const outputs = parseOutputs(readFileSync(outputFile, 'utf8'));
    if (step.id) stepOutputs[step.id] = outputs;
    appendFileSync(files.summary, readFileSync(summaryFile, 'utf8'));
    run.steps.push({ id: step.id, name, ran: true, exitCode: code, output, outputs });
    if (code !== 0) run.succeeded = false;
    if (step.id && step.id === options.stopAfter) break;
  }
  run.outputs = Object.fromEntries(Object.entries(action.outputs ?? {}).map(([name, { value }]) => [name, substitute(value, context)]));
  run.summary = readFileSync(files.summary, 'utf8');
  run.jobEnv = readFileSync(files.env, 'utf8');
  run.jobPath = readFileSync(files.path, 'utf8');
  return run;
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

/** GITHUB_OUTPUT's two forms: name=value, and name<<DELIMITER … DELIMITER. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      if (end < 0) throw new Error(`GITHUB_OUTPUT: no closing ${heredoc[2]}`);
      outputs[heredoc[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return outputs;
}

/** Every ${{ expression }} replaced by its value. */
function substitute(text: string, context: (path: string) => string): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => String(evaluate(expression, context, { success: true })));
}

function evaluateCondition(condition: string, context: (path: string) => string, status: { success: boolean }): boolean {
  const expression = condition.replace(/^\$\{\{\s*|\s*\}\}$/g, '');
  const value = evaluate(expression, context, status);
  // GitHub adds success() to a condition that calls no status function.
  return /\b(always|success|failure|cancelled)\(\)/.test(expression) ? Boolean(value) : status.success && Boolean(value);
}

/** The expression forms action.yml uses: a || b, a && b, a == 'x', a != 'x', always() and success(), 'literals', context paths. */
function evaluate(expression: string, context: (path: string) => string, status: { success: boolean }): string | boolean {
  const or = splitTop(expression, '||');
  if (or.length > 1) return or.map((part) => evaluate(part, context, status)).find(Boolean) ?? '';
  const and = splitTop(expression, '&&');
  if (and.length > 1) return and.every((part) => Boolean(evaluate(part, context, status)));
  const comparison = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(expression.trim());
  if (comparison) {
    const equal = String(evaluate(comparison[1], context, status)) === String(evaluate(comparison[3], context, status));
    return comparison[2] === '==' ? equal : !equal;
  }
  const term = expression.trim();
  if (term === 'always()') return true;
  if (term === 'success()') return status.success;
  if (term === 'failure()') return !status.success;
  const literal = /^'(.*)'$/.exec(term);
  if (literal) return literal[1].replace(/''/g, "'");
  if (/^[\w-]+(\.[\w-]+)+$/.test(term)) return context(term);
  throw new Error(`the simulated runner cannot evaluate ${JSON.stringify(expression)}`);
}

function splitTop(expression: string, operator: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < expression.length; i++) {
    if (expression[i] === "'") quoted = !quoted;
    if (!quoted && expression.startsWith(operator, i)) {
      parts.push(expression.slice(start, i));
      start = i + operator.length;
      i += operator.length - 1;
    }
  }
  parts.push(expression.slice(start));
  return parts.map((part) => part.trim());
}
