/**
 * The reporter's part of the configuration contract (the tests' part is harness/settings.ts).
 * The oms-conformance command sets these from --out, --expect and --sign-key.
 */
export interface ReportSettings {
  /** OMS_REPORT_DIR: where the report files go (default conformance-report). */
  outputDir: string;
  /** OMS_EXPECT: the expectations file (known failures, with reasons). */
  expectationsFile?: string;
  /** OMS_SIGN_KEY: an Ed25519 private key (PEM) to sign report.json with. */
  signingKeyFile?: string;
  /** OMS_HAR=1: also write the exchanges of the failures as HAR 1.2 (failures.har). */
  har: boolean;
}

export const DEFAULT_REPORT_DIR = 'conformance-report';

export function readReportSettings(env: NodeJS.ProcessEnv = process.env): ReportSettings {
  return {
    outputDir: env.OMS_REPORT_DIR?.trim() || DEFAULT_REPORT_DIR,
    expectationsFile: env.OMS_EXPECT?.trim() || undefined,
    signingKeyFile: env.OMS_SIGN_KEY?.trim() || undefined,
    har: ['1', 'true', 'yes'].includes((env.OMS_HAR ?? '').trim().toLowerCase()),
  };
}
