import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigurationError } from '../config/exit-codes';
import type { ConformanceReport, Integrity, Signature } from './report';
import { sha256, sha256File } from './run-info';

/** A key that cannot sign or verify reports; the message names the file (exit code 2). */
export class KeyError extends ConfigurationError {}

/** JSON with object keys sorted at every depth: the bytes that are signed, whatever order the file has. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function loadPrivateKey(path: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(path));
  } catch (error) {
    throw new KeyError(`cannot read the signing key ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new KeyError(`the signing key ${path} is ${key.asymmetricKeyType}, not Ed25519`);
  return key;
}

export function loadPublicKey(path: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(readFileSync(path));
  } catch (error) {
    throw new KeyError(`cannot read the public key ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new KeyError(`the public key ${path} is ${key.asymmetricKeyType}, not Ed25519`);
  return key;
}

/** A new Ed25519 key pair, PEM encoded (PKCS#8 private, SPKI public). */
export function newKeyPair(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

function publicKeySha256(key: KeyObject): string {
  return sha256(key.export({ type: 'spki', format: 'der' }));
}

/** The hashes of the report's other files, as report.json carries them. */
export function integrityOf(directory: string, files: string[]): Integrity {
  return { algorithm: 'sha256', files: Object.fromEntries(files.map((file) => [file, sha256File(join(directory, file))])) };
}

/** The signature over the report as it stands (without any signature it already has). */
export function signReport(report: ConformanceReport, privateKey: KeyObject): Signature {
  const publicKey = createPublicKey(privateKey);
  return {
    algorithm: 'ed25519',
    publicKeySha256: publicKeySha256(publicKey),
    value: sign(null, Buffer.from(canonicalJson(unsigned(report))), privateKey).toString('base64'),
  };
}

function unsigned(report: ConformanceReport): ConformanceReport {
  if (!report.integrity) return report;
  const { signature: _signature, ...integrity } = report.integrity;
  return { ...report, integrity };
}

export interface Verification {
  /** What was checked and found right, one line each. */
  checked: string[];
  /** What is wrong, one line each; empty means the report verifies. */
  problems: string[];
}

/**
 * Checks a report as anyone can: every file it lists has the hash it records, and, given the
 * signer's public key, the signature matches report.json exactly.
 */
export function verifyReport(reportPath: string, publicKey?: KeyObject): Verification {
  const checked: string[] = [];
  const problems: string[] = [];
  let report: ConformanceReport;
  try {
    report = JSON.parse(readFileSync(reportPath, 'utf8')) as ConformanceReport;
  } catch (error) {
    return { checked, problems: [`${reportPath} is not a readable JSON report: ${(error as Error).message}`] };
  }
  const integrity = report.integrity;
  if (!integrity || integrity.algorithm !== 'sha256' || typeof integrity.files !== 'object') {
    return { checked, problems: [`${reportPath} carries no integrity block (made by an older or different tool?)`] };
  }
  const directory = dirname(reportPath);
  for (const [file, expected] of Object.entries(integrity.files)) {
    const path = join(directory, file);
    if (file.includes('/') || file.includes('\\') || file.startsWith('.')) problems.push(`${file}: not a file name of the report directory`);
    else if (!existsSync(path)) problems.push(`${file}: missing`);
    else if (sha256File(path) !== expected) problems.push(`${file}: changed since the report was written (SHA-256 differs)`);
    else checked.push(`${file}: SHA-256 matches`);
  }
  if (publicKey) {
    const signature = integrity.signature;
    if (!signature) problems.push('report.json is not signed');
    else if (signature.publicKeySha256 !== publicKeySha256(publicKey)) problems.push('report.json was signed with another key than the one given');
    else if (!verify(null, Buffer.from(canonicalJson(unsigned(report))), publicKey, Buffer.from(signature.value, 'base64'))) {
      problems.push('report.json: the Ed25519 signature does not match its content (changed after signing)');
    } else checked.push('report.json: Ed25519 signature matches the given public key');
  } else if (integrity.signature) {
    checked.push('report.json is signed; give --pub KEY.pub to check the signature');
  }
  return { checked, problems };
}
