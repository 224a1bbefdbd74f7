import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import YAML from 'yaml';
import type { OperationId } from '../contract/openapi';
import { requestLine } from '../contract/operations';
import { orderRequestLine } from '../contract/order-path';
import { HttpTransport } from '../harness/http/transport';
import { createExample, ORDER_OPERATIONS, peerContract, updateExample, type PeerContractOptions } from './peer-contract';
import { freePort, runBounded, startBackground } from './processes';

/**
 * The peer tools of the network bench (bench/network.ts): API testing tools from npm that a team might use
 * instead of this suite, each installed at bench time into a cache outside the project's node_modules
 * (pinned, installed once, reused; never a dependency in package.json) and given its most typical
 * configuration for the same contract, base URL and bearer token.
 */

export type PeerId = 'requests' | 'dredd' | 'stepci' | 'prism' | 'portman';

export interface PeerContext {
  /** Where its packages are installed ('' for a peer without packages). */
  installDir: string;
  baseUrl: string;
  token: string;
  /** A fresh directory for the files it generates, removed after the run. */
  workDir: string;
  /** Its openapi.yaml (bench/peer-contract.ts), in workDir. */
  contract: string;
}

export interface PeerOutcome {
  /** The tool reported a failure: a non-zero exit, or (the request drivers) a request that did not pass. */
  failed: boolean;
  /** What happened, in a line, for the bench's log (exit code, or the request that did not pass). */
  detail: string;
}

export interface PeerTool {
  id: PeerId;
  name: string;
  /** npm packages, pinned, installed together into one cache directory. */
  packages: string[];
  /** The bins whose `--version` must succeed before the tool counts as runnable here, by package. */
  bins: Array<{ pkg: string; bin: string }>;
  /** How openapi.yaml is adapted for it, beyond the base URL (bench/peer-contract.ts). */
  contract: Omit<PeerContractOptions, 'baseUrl'>;
  /** What it is configured to do, in a sentence (results.md). */
  configuration: string;
  run(context: PeerContext): Promise<PeerOutcome>;
}

/** No peer run may take longer (a few seconds each at 150 ms). */
const PEER_TIME_LIMIT_MS = 120_000;
const INSTALL_TIME_LIMIT_MS = 10 * 60_000;
/** The example of order_id in the contract Dredd, Prism and Portman get; each replaces it with the id its create returned. */
const ORDER_ID_PLACEHOLDER = 'order-id-from-create';
const DREDD_HOOKS = join(__dirname, 'peers', 'dredd-hooks.js');
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export const PEERS: readonly PeerTool[] = [
  {
    id: 'requests',
    name: 'five requests, no tool (2xx, an id)',
    packages: [],
    bins: [],
    contract: { orderIdExample: ORDER_ID_PLACEHOLDER },
    configuration:
      'The five order operations sent once by Node in the bench process (list; create; get, update and delete of the order created), each answer required to be 2xx and the create\'s to carry a string id that can be one path segment (the next three requests need it): the floor of time and requests, no contract checked.',
    run: ({ baseUrl, token }) => sendOrderOperations(baseUrl, token),
  },
  {
    id: 'dredd',
    name: 'Dredd 14.1.0',
    packages: ['dredd@14.1.0'],
    bins: [{ pkg: 'dredd', bin: 'dredd' }],
    contract: { orderIdExample: ORDER_ID_PLACEHOLDER },
    configuration:
      'dredd <contract> <base URL> --hookfiles bench/peers/dredd-hooks.js: one request per documented operation, in document order; the hooks add the bearer token, put the id of the order its create returned into get, update and delete, and accept any 2xx. Dredd 14 reads OpenAPI 3 as experimental and skips response ranges ("2XX": "status code ranges are unsupported"), so of each answer it checks the status alone. Written with concrete codes instead (200, 201), it fails the correct server on every operation: it requires the Content-Type exactly "application/json" (the server adds "; charset=utf-8"), and, validating an OpenAPI 3 body against an example it generates from the schema rather than against the schema, it requires every property (optional fields never sent, a nullable object read as an array).',
    run: async ({ installDir, baseUrl, token, workDir, contract }) =>
      // Dredd runs the operations in document order: list, create, get, update, delete.
      exitOutcome(
        await runTool(installDir, 'dredd', 'dredd', [contract, baseUrl, '--hookfiles', DREDD_HOOKS, '--color', 'false'], workDir, {
          BENCH_PEER_TOKEN: token,
          BENCH_ORDER_ID_PLACEHOLDER: ORDER_ID_PLACEHOLDER,
        }),
      ),
  },
  {
    id: 'stepci',
    name: 'Step CI 2.8.2',
    packages: ['stepci@2.8.2'],
    bins: [{ pkg: 'stepci', bin: 'stepci' }],
    // Its generator reads parameter.schema without following a $ref, and takes path-level parameters for an operation: parameters inlined.
    // The id of the order created, captured by the step that creates it, is the order_id of the steps after it.
    contract: { orderIdExample: '${{ captures.orderId }}', inlineParameters: true },
    configuration:
      '`stepci generate` makes a workflow from the contract (one step per operation, status and JSON schema checked), edited as its docs show: the bearer token as a secret, the created order\'s id captured for get, update and delete, the status check 2XX as a range; then `stepci run`.',
    run: async ({ installDir, token, workDir, contract }) => {
      const workflow = join(workDir, 'workflow.yml');
      const env = { STEPCI_DISABLE_ANALYTICS: '1' };
      const generated = await runTool(installDir, 'stepci', 'stepci', ['generate', contract, workflow], workDir, env);
      if (generated.exitCode !== 0 || !existsSync(workflow)) throw new Error(`stepci generate failed (exit ${generated.exitCode}): ${lastLine(generated.output)}`);
      writeFileSync(workflow, YAML.stringify(editStepCiWorkflow(YAML.parse(readFileSync(workflow, 'utf8')) as StepCiWorkflow)));
      return exitOutcome(await runTool(installDir, 'stepci', 'stepci', ['run', workflow, '--secret', `token=${token}`], workDir, env));
    },
  },
  {
    id: 'prism',
    name: 'Prism 5.14.2 validating proxy',
    packages: ['@stoplight/prism-cli@5.14.2'],
    bins: [{ pkg: '@stoplight/prism-cli', bin: 'prism' }],
    contract: { orderIdExample: ORDER_ID_PLACEHOLDER },
    configuration:
      '`prism proxy <contract> <base URL> --errors` in front of the server, the five requests of the row above sent through it: Prism validates each request and response against openapi.yaml, and --errors turns a violation into an error answer (the run fails on any answer that is not 2xx). Time includes Prism\'s start and stop.',
    run: async ({ installDir, baseUrl, token, workDir, contract }) => {
      const port = await freePort();
      const proxy = startBackground(process.execPath, [binPath(installDir, '@stoplight/prism-cli', 'prism'), 'proxy', contract, baseUrl, '--errors', '--host', '127.0.0.1', '--port', String(port)], {
        cwd: workDir,
        env: { SCARF_ANALYTICS: 'false', NO_COLOR: '1' },
        timeLimitMs: PEER_TIME_LIMIT_MS,
        ready: /Prism is listening/,
      });
      try {
        await proxy.ready;
        return await sendOrderOperations(`http://127.0.0.1:${port}`, token);
      } finally {
        await proxy.stop();
      }
    },
  },
  {
    id: 'portman',
    name: 'Portman 1.33.0 + Newman 6.2.2',
    // Portman 1.33.0 requires tslib without declaring it (its dist/index.js fails with "Cannot find module 'tslib'"): pinned beside it.
    packages: ['@apideck/portman@1.33.0', 'newman@6.2.2', 'tslib@2.8.1'],
    bins: [
      { pkg: '@apideck/portman', bin: 'portman' },
      { pkg: 'newman', bin: 'newman' },
    ],
    // Portman picks the response it tests by a numeric code from 200 to 302 and silently injects no test for a range: 2XX written as 200 (its status test still accepts any 2xx).
    contract: { orderIdExample: ORDER_ID_PLACEHOLDER, successStatus: '200' },
    configuration:
      'Portman turns the contract into a Postman collection with its default contract tests (2xx status, JSON content type and body, JSON schema), the bearer token as a Postman variable, the created order\'s id assigned to a variable for get, update and delete, operations ordered create before them; `newman run` runs it.',
    run: async ({ installDir, baseUrl, token, workDir, contract }) => {
      const config = join(workDir, 'portman-config.json');
      const collection = join(workDir, 'collection.json');
      writeFileSync(config, JSON.stringify(PORTMAN_CONFIG, null, 2));
      // PORTMAN_* variables become Postman variables: PORTMAN_BEARER_TOKEN is {{bearerToken}}.
      const converted = await runTool(installDir, '@apideck/portman', 'portman', ['--local', contract, '--baseUrl', baseUrl, '--portmanConfigFile', config, '--output', collection], workDir, {
        PORTMAN_BEARER_TOKEN: token,
      });
      if (converted.exitCode !== 0 || !existsSync(collection)) throw new Error(`portman failed (exit ${converted.exitCode}): ${lastLine(converted.output)}`);
      return exitOutcome(await runTool(installDir, 'newman', 'newman', ['run', collection, '--color', 'off'], workDir, {}));
    },
  },
];

/**
 * Portman's default contract tests, and the three settings its docs give for an API whose get, update and
 * delete need an existing id and whose operations need a bearer token.
 */
const PORTMAN_CONFIG = {
  version: 1.0,
  tests: {
    // Portman's defaults (portman-config.default.json), responseTime left off as there.
    contractTests: ['statusSuccess', 'contentType', 'jsonBody', 'schemaValidation', 'headersPresent'].map((test) => ({ openApiOperation: '*::/*', [test]: { enabled: true } })),
  },
  // The id of the order createOrder made, for the operations on one order.
  assignVariables: [{ openApiOperationId: 'createOrder', collectionVariables: [{ responseBodyProp: 'id', name: 'orderId' }] }],
  overwrites: [{ openApiOperationIds: ['getOrder', 'updateOrder', 'deleteOrder'], overwriteRequestPathVariables: [{ key: 'order_id', value: '{{orderId}}' }] }],
  globals: {
    // Postman keeps the document's order (by tag) unless told: create must come before get, update and delete.
    orderOfOperations: ['GET::/orders', 'POST::/orders', 'GET::/orders/{order_id}', 'PUT::/orders/{order_id}', 'DELETE::/orders/{order_id}'],
    securityOverwrites: { bearer: { token: '{{bearerToken}}' } },
  },
};

interface StepCiWorkflow {
  tests: Record<string, { steps: Array<{ id?: string; http: { auth?: unknown; captures?: unknown; check?: { status?: unknown } } }> }>;
}

/** The edits Step CI's docs show for a generated workflow: auth from a secret, a capture of the created id, the 2XX range. */
function editStepCiWorkflow(workflow: StepCiWorkflow): StepCiWorkflow {
  for (const test of Object.values(workflow.tests)) {
    for (const step of test.steps) {
      step.http.auth = { bearer: { token: '${{ secrets.token }}' } };
      // The generator writes Number('2XX'), which is NaN: the range as Step CI's matchers say it.
      step.http.check = { ...step.http.check, status: [{ gte: 200 }, { lt: 300 }] };
      if (step.id === 'createOrder') step.http.captures = { orderId: { jsonpath: '$.id' } };
    }
  }
  return workflow;
}

/**
 * The five order operations, one request each, on one keep-alive connection: list; create; then get, update
 * and delete of the order the create returned. Fails at the first answer that is not 2xx (through Prism
 * with --errors, a violation of the contract is one) or a create without an id.
 */
export async function sendOrderOperations(baseUrl: string, token: string): Promise<PeerOutcome> {
  const transport = new HttpTransport();
  const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
  const bodies: Partial<Record<OperationId, unknown>> = { createOrder: createExample(), updateOrder: updateExample() };
  let orderId: string | undefined;
  try {
    for (const operationId of ORDER_OPERATIONS) {
      const line = ['listOrders', 'createOrder'].includes(operationId) ? requestLine(operationId) : orderRequestLine(operationId, orderId!);
      const body = bodies[operationId];
      const response = await transport.send({
        url: `${baseUrl}${line.path}${operationId === 'listOrders' ? '?page=1&limit=10' : ''}`,
        method: line.method,
        headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
        timeoutMs: 30_000,
        maxResponseBytes: MAX_ANSWER_BYTES,
      });
      if (response.status < 200 || response.status >= 300) return { failed: true, detail: `${line.method} ${operationId} answered ${response.status}` };
      if (operationId === 'createOrder') {
        orderId = idOf(response.body.toString('utf8'));
        if (orderId === undefined) return { failed: true, detail: 'createOrder answered no string id' };
      }
    }
    return { failed: false, detail: 'five 2xx answers' };
  } catch (error) {
    return { failed: true, detail: `no answer: ${(error as Error).message}` };
  } finally {
    transport.close();
  }
}

function idOf(text: string): string | undefined {
  try {
    const id = (JSON.parse(text) as { id?: unknown }).id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Where peers are installed: BENCH_PEERS_DIR, else ~/.cache/oms-conformance/bench-peers (outside the project's node_modules). */
export function peersDirectory(): string {
  return process.env.BENCH_PEERS_DIR ? resolve(process.env.BENCH_PEERS_DIR) : join(homedir(), '.cache', 'oms-conformance', 'bench-peers');
}

export type Availability = { installDir: string } | { unavailable: string };

/**
 * The tool's install directory once its pinned packages are there (installed now when `install` allows)
 * and each of its bins answers `--version` on this Node; otherwise why it cannot run here.
 */
export async function preparePeer(tool: PeerTool, install: boolean, log: (line: string) => void): Promise<Availability> {
  if (tool.packages.length === 0) return { installDir: '' };
  const dir = join(peersDirectory(), tool.packages.map((spec) => spec.replace('/', '+')).join('_'));
  const marker = join(dir, 'installed.json');
  if (!existsSync(marker)) {
    if (!install) return { unavailable: `not installed in ${dir}, and this run installs nothing (--no-install or --quick); \`npm run bench -- --only network\` installs it` };
    log(`installing ${tool.packages.join(' ')} into ${dir}`);
    const failure = await installPackages(dir, tool.packages);
    if (failure) return { unavailable: failure };
  }
  for (const { pkg, bin } of tool.bins) {
    let file: string;
    try {
      file = binPath(dir, pkg, bin);
    } catch (error) {
      return { unavailable: (error as Error).message };
    }
    const run = await runBounded(process.execPath, [file, '--version'], { cwd: dir, env: {}, timeLimitMs: 60_000 });
    if (run.exitCode !== 0) return { unavailable: `\`${bin} --version\` fails on Node ${process.version} (exit ${run.exitCode}): ${lastLine(run.output)}` };
  }
  return { installDir: dir };
}

/** npm install of pinned packages into a directory of their own, made whole or not at all. */
async function installPackages(dir: string, packages: string[]): Promise<string | undefined> {
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  writeFileSync(join(partial, 'package.json'), '{ "private": true }\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // --ignore-scripts: none of these tools needs its install scripts to run (Prism's only sends analytics).
  const run = await runBounded(npm, ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', partial, ...packages], {
    cwd: partial,
    env: { SCARF_ANALYTICS: 'false' },
    timeLimitMs: INSTALL_TIME_LIMIT_MS,
  });
  if (run.exitCode !== 0) {
    rmSync(partial, { recursive: true, force: true });
    const reason = run.output.split('\n').filter((line) => /npm (error|ERR!)/.test(line)).slice(0, 3).join(' ') || lastLine(run.output);
    return `npm install ${packages.join(' ')} failed${run.timedOut ? ' (time limit)' : ` (exit ${run.exitCode})`}: ${plain(reason)}`;
  }
  writeFileSync(join(partial, 'installed.json'), `${JSON.stringify({ packages, installedAt: new Date().toISOString(), node: process.version }, null, 2)}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  return undefined;
}

/** The file a package's bin runs (read from its package.json), to run with this Node. */
function binPath(installDir: string, pkg: string, bin: string): string {
  const root = join(installDir, 'node_modules', pkg);
  const manifest = join(root, 'package.json');
  if (!existsSync(manifest)) throw new Error(`${pkg} is missing from ${installDir}`);
  const declared = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> }).bin;
  const file = typeof declared === 'string' ? declared : declared?.[bin];
  if (!file) throw new Error(`${pkg} has no bin ${bin}`);
  return join(root, file);
}

function runTool(installDir: string, pkg: string, bin: string, args: string[], cwd: string, env: Record<string, string>) {
  return runBounded(process.execPath, [binPath(installDir, pkg, bin), ...args], { cwd, env: { NO_COLOR: '1', ...env }, timeLimitMs: PEER_TIME_LIMIT_MS });
}

function exitOutcome(run: { exitCode: number; timedOut: boolean }): PeerOutcome {
  if (run.timedOut) return { failed: true, detail: `stopped after ${PEER_TIME_LIMIT_MS / 1000} s` };
  return { failed: run.exitCode !== 0, detail: `exit ${run.exitCode}` };
}

/** One run of a peer against a server: its contract written into a fresh directory, removed afterwards. */
export async function runPeer(peer: PeerTool, installDir: string, baseUrl: string, token: string): Promise<PeerOutcome> {
  const workDir = mkdtempSync(join(tmpdir(), `oms-bench-${peer.id}-`));
  try {
    const contract = join(workDir, 'openapi.yaml');
    writeFileSync(contract, peerContract({ ...peer.contract, baseUrl }));
    return await peer.run({ installDir, baseUrl, token, workDir, contract });
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** The last line with text in it, without terminal colours or control characters. */
function lastLine(output: string): string {
  return plain(output.split('\n').filter((line) => plain(line) !== '').pop() ?? '(no output)');
}

function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '').replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);
}
