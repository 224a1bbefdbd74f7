import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { EXIT_CODE } from '../config/exit-codes';
import { loadPublicKey, newKeyPair, verifyReport } from '../reporter/integrity';
import type { ConformanceReport } from '../reporter/report';
import { suiteIdentity } from '../reporter/run-info';
import { UsageError, type Parsed } from './options';

/**
 * `oms-conformance verify report.json --pub KEY.pub`: 0 when every hash and the signature check, 1 when
 * not. Without --pub nothing proves report.json itself unedited (anyone can recompute the hashes it
 * records), so it exits 1 unless --integrity-only says that a check of the other files is all that is wanted.
 */
export function verify({ options, positionals }: Parsed): number {
  if (positionals.length !== 1) throw new UsageError('verify needs one report: oms-conformance verify conformance-report/report.json --pub KEY.pub');
  const [reportPath] = positionals;
  const pub = options.get('pub');
  const integrityOnly = options.has('integrity-only');
  if (typeof pub === 'string' && integrityOnly) throw new UsageError('give --pub KEY.pub (integrity and origin) or --integrity-only, not both');
  if (!existsSync(reportPath)) throw new UsageError(`${reportPath} does not exist`);
  const publicKey = typeof pub === 'string' ? loadPublicKey(pub) : undefined;
  const { checked, problems } = verifyReport(reportPath, publicKey);
  for (const line of checked) console.log(`  ok    ${line}`);
  for (const line of problems) console.log(`  FAIL  ${line}`);
  if (!problems.length) console.log(suiteNote(reportPath));
  if (problems.length) {
    console.log(`${reportPath}: does NOT verify`);
    return EXIT_CODE.violations;
  }
  if (publicKey) {
    console.log(`${reportPath}: verifies (integrity and origin: the hashes match and the signature is by the given key)`);
    return EXIT_CODE.conformant;
  }
  if (integrityOnly) {
    console.log(`${reportPath}: the other report files match its hashes (integrity only, as asked: report.json itself is not proved unedited, and its origin not at all)`);
    return EXIT_CODE.conformant;
  }
  console.log(
    `${reportPath}: NOT verified: without --pub KEY.pub nothing proves report.json unedited (anyone can change it and recompute the hashes it records). ` +
      'Give the signer\'s public key with --pub, or --integrity-only to check only the other files.',
  );
  return EXIT_CODE.violations;
}

/** Whether the report was made with the contract and catalogue of this installation: information, not a check. */
function suiteNote(reportPath: string): string {
  const { suite } = JSON.parse(readFileSync(reportPath, 'utf8')) as ConformanceReport;
  const here = suiteIdentity();
  const same = suite.openapiSha256 === here.openapiSha256 && suite.catalogueSha256 === here.catalogueSha256 && suite.codeSha256 === here.codeSha256;
  return `  note  made with ${suite.name} ${suite.version}; its openapi.yaml, catalogue and test code are ${same ? 'the same as' : 'NOT the same as'} this installation's (${here.version})`;
}

/** `oms-conformance keygen KEY.pem`: a new Ed25519 key pair, KEY.pem (private, mode 600) and KEY.pub. */
export function keygen({ positionals }: Parsed): number {
  if (positionals.length !== 1) throw new UsageError('keygen needs the private key file to write: oms-conformance keygen signing-key.pem');
  const privatePath = positionals[0];
  const publicPath = `${privatePath.replace(/\.pem$/, '')}.pub`;
  for (const path of [privatePath, publicPath]) if (existsSync(path)) throw new UsageError(`${path} exists; keygen does not overwrite keys`);
  const { privatePem, publicPem } = newKeyPair();
  writeFileSync(privatePath, privatePem, { mode: 0o600 });
  writeFileSync(publicPath, publicPem);
  console.log(`wrote ${privatePath} (private: sign with --sign-key ${privatePath}; keep it secret) and ${publicPath} (public: publish it with the report)`);
  return EXIT_CODE.conformant;
}
