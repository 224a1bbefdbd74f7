import type { ClientCost } from './client-cost';
import type { FailingRuns } from './failing';
import type { GenerationCost, StoreCost, ValidationCost } from './micro';
import type { NetworkResults } from './network';
import type { Throughput } from './throughput';
import type { WallTimes } from './stats';

/** bench/results.json: every figure is a median of runs measured in one session, side by side. */
export interface BenchResults {
  schemaVersion: 1;
  generatedAt: string;
  /** The command that produced the file. */
  command: string;
  mode: 'default' | 'quick';
  durationSeconds: number;
  machine: { cpus: number; cpuModel: string; node: string; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  settings: { rounds: number; thoroughRuns: number; accountSizes: number[]; replays: number; clientCounts: number[]; clientRounds: number; loadSeconds: number; loadRounds: number; faults: string[] };
  /** `npm run conformance` against the embedded server, command start to exit. */
  quickRun: WallTimes;
  /** The same with OMS_EFFORT=thorough (fewer runs; none in --quick mode). */
  thoroughRun: WallTimes;
  /** The same command selecting one cheap test: what every run pays before and after its tests. */
  oneTestRun: WallTimes & { args: string };
  /** A passing quick run beside quick runs against reference faults of several classes, lines printed, and the bare floor. */
  failingRuns: FailingRuns;
  /** The quick run and peer tools against a server 0, 50 and 150 ms away (issue 21); null when not measured. It carries its own date and command: `--only network` measures it alone. */
  network: NetworkResults | null;
  /** Counted at the server, in runs against the bench's server at the empty account. */
  requests: { quick: RequestFigures; thorough: RequestFigures | null };
  overhead: Overhead;
  /** Microseconds (wall, and the worker's CPU) per sequential GET inside a Playwright worker, by client and requests in the test. */
  clientCost: { requestCounts: number[]; rounds: number } & ClientCost;
  validation: ValidationCost;
  /** Microseconds per store.page() call, the reference store against the store before its fix. */
  store: StoreCost;
  generation: GenerationCost;
  /** autocannon against the reference server, by endpoint. */
  throughput: Record<string, LoadFigures>;
  scale: { effort: EffortRow[]; accountSize: SizeRow[]; growingTests: GrowingTest[] };
  targets: Target[];
  warnings: string[];
}

export interface RequestFigures {
  runs: number;
  requests: number;
  /** Requests over the whole command (start-up included), and over the time tests were sending. */
  perSecondWall: number;
  perSecondInRun: number;
  byOperation: Record<string, number>;
  startupMs: number;
  inRunMs: number;
  teardownMs: number;
  serverMs: number;
  /** CPU time of the suite's processes, and of the server, during the run. */
  suiteCpuMs: number;
  serverCpuMs: number;
  serverMsByOperation: Record<string, number>;
  rateLimited: number;
}

export interface Overhead {
  requests: number;
  /** The recorded suite run, command start to exit. */
  suiteWallMs: number;
  /** The same run, first request to last response. */
  suiteInRunMs: number;
  /** The bare client sending the same requests one after another. */
  replayMs: number;
  ratioWall: number;
  ratioInRun: number;
  /** CPU time of the suite run (its processes and the server) and of the replay (client and server, one process). */
  suiteCpuMs: number;
  replayCpuMs: number;
  ratioCpu: number;
  /** Share of replayed requests answered with the status the suite got. */
  replaySameStatus: number;
}

export interface LoadFigures extends Throughput {
  path: string;
  accountOrders: number;
  rounds: number;
}

export interface EffortRow {
  effort: 'quick' | 'thorough';
  numRuns: number;
  sequences: number;
  maxCommands: number;
  runs: number;
  wallMs: number;
  inRunMs: number;
  requests: number;
  /** Playwright steps in the whole run: every expect (the harness's check()) and every API call is one. */
  steps: number;
  expectSteps: number;
  apiSteps: number;
  /** The tests that take longest at this effort, with their time and steps. */
  slowestTests: Array<{ test: string; ms: number; steps: number }>;
}

export interface SizeRow {
  orders: number;
  runs: number;
  wallMs: number;
  inRunMs: number;
  requests: number;
  listRequests: number;
  serverMs: number;
}

export interface GrowingTest {
  test: string;
  /** Median duration per account size. */
  msBySize: Record<string, number>;
  ratio: number;
}

export interface Target {
  name: string;
  target: string;
  measured: number | null;
  unit: string;
  met: boolean | null;
  note: string;
}
