import type { TokenAuth } from './token-auth';

/** Where a run's seed came from: OMS_SEED, the suite version (the default: the same inputs every run), or drawn for the run (exploring). */
export const SEED_SOURCES = ['given', 'suite-version', 'drawn'] as const;
export type SeedSource = (typeof SEED_SOURCES)[number];

/** What was run, against what: everything a reader needs to judge or replay the result. */
export interface RunInfo {
  runId: string;
  target: {
    /** The base URL tested (for the embedded server, the address it had during the run). */
    baseUrl: string | null;
    /** True when no OMS_BASE_URL was given and the embedded reference server was tested. */
    embedded: boolean;
    /** How POST /token took the client credentials (given, or found by trying); absent when no token was obtained there. */
    tokenAuth?: TokenAuth;
  };
  profile: 'core' | 'strict';
  effort: 'quick' | 'thorough';
  /** The seed of the generated tests (OMS_SEED replays the run with it); null in reports of suites that had none per run. */
  seed: number | null;
  /** Where the seed came from; null where it is not known (older shards). */
  seedFrom: SeedSource | null;
  readOnly: boolean;
  /** The filters of a partial run, as given (--grep X --grep-invert Y, file filters); null when every test was selected. */
  grep: string | null;
  /** The shard of a partial run ("1/3"); null for a whole run or a merged one. */
  shard: string | null;
  /** How many shard reports a merged report was made from; null when it was not merged. */
  mergedShards: number | null;
}
