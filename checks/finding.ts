import type { Exchange } from '../contract/exchange';

/** A requirement that a response did not meet, with what it takes to act on it. */
export interface Finding {
  requirementId: string;
  expected: string;
  received: string;
  /** The exchange that shows it; its request, response excerpt and curl line go into the record. */
  exchange?: Exchange;
  /**
   * Where in the exchange's response body the fault is: JSON pointers (RFC 6901, '' the root), a field the
   * server left out named where it should be. The reports mark these lines of the body.
   */
  fieldsAtFault?: readonly string[];
  /** A generated test's shrunk counterexample, as the requests it made (rendered by the property runner). */
  counterexample?: string;
  /** How to replay a generated failure exactly: OMS_SEED, OMS_PATH and the test's file:line. */
  replay?: Replay;
  /** A generated failure's entry in the failure store (OMS_FAILURE_STORE): its file, and whether this run replayed it from there (found by an earlier run) or kept it now. */
  store?: StoredRef;
  /**
   * What the check knew besides the exchange (an id of the service's own form, say): kept with the
   * record and in the HAR, so that `oms-conformance judge` can judge the recorded exchange the same way.
   */
  context?: FindingContext;
}

export type FindingContext = Record<string, string | number | boolean>;

export interface StoredRef {
  file: string;
  replayed: boolean;
}

export interface Replay {
  seed: number;
  path: string;
  /** file:line of the test, relative to the project root. */
  location: string;
  /** The command that replays it, for the place the run was started from (harness/replay-command.ts). */
  command: string;
}
