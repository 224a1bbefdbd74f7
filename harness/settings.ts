import { TOKEN_AUTH_METHODS, type TokenAuth } from './http/token';

/**
 * The configuration contract of the suite, read in this one place. Names are a public interface:
 * other tools drive the suite through them.
 */
export interface Settings {
  /** OMS_BASE_URL; undefined before the embedded server is started. */
  baseUrl?: string;
  /** OMS_TOKEN: bearer token of account A. */
  token?: string;
  /** OMS_TOKEN_B: optional second account, for isolation tests. */
  tokenB?: string;
  /** OMS_CLIENT_ID / OMS_CLIENT_SECRET: obtain the token from POST /token instead. */
  clientId?: string;
  clientSecret?: string;
  /** OMS_CLIENT_ID_B / OMS_CLIENT_SECRET_B: obtain account B's token from POST /token. */
  clientIdB?: string;
  clientSecretB?: string;
  /** OMS_TOKEN_AUTH: how POST /token gets the credentials (form, json, basic); unset: tried in that order. */
  tokenAuth?: TokenAuth;
  /** OMS_PROFILE: core (MUST gates) or strict (MUST and SHOULD gate). */
  profile: 'core' | 'strict';
  /** OMS_EFFORT: how many generated cases property tests run. */
  effort: 'quick' | 'thorough';
  /** OMS_SEED: replays generated tests exactly. */
  seed?: number;
  /** OMS_PATH: with OMS_SEED, replays one counterexample as a failure printed it. */
  replayPath?: string;
  /** OMS_READ_ONLY=1: only requests that change nothing. */
  readOnly: boolean;
  /** OMS_REQUEST_TIMEOUT_MS: per-request timeout. */
  requestTimeoutMs: number;
  /** OMS_MAX_RESPONSE_BYTES: largest response body read, after decoding (default 10 MiB); a larger one ends its request. */
  maxResponseBytes: number;
  /** OMS_MAX_RPS: cap on requests per second across all workers (unset: no cap). */
  maxRps?: number;
}

/** A setting that is wrong; the message names the variable to fix. */
export class ConfigurationError extends Error {}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const profile = oneOf(env, 'OMS_PROFILE', ['core', 'strict'], 'core');
  const effort = oneOf(env, 'OMS_EFFORT', ['quick', 'thorough'], 'quick');
  const baseUrl = env.OMS_BASE_URL?.trim() || undefined;
  if (baseUrl) {
    let parsed: URL;
    try {
      parsed = new URL(baseUrl);
    } catch {
      throw new ConfigurationError(`OMS_BASE_URL is not a URL: ${JSON.stringify(baseUrl)}. Example: https://oms.example.com/api`);
    }
    if (!['http:', 'https:'].includes(parsed.protocol)) {
      throw new ConfigurationError(`OMS_BASE_URL must start with http:// or https://, got ${JSON.stringify(baseUrl)}`);
    }
  }
  const [clientId, clientSecret] = pair(env, 'OMS_CLIENT_ID', 'OMS_CLIENT_SECRET');
  const [clientIdB, clientSecretB] = pair(env, 'OMS_CLIENT_ID_B', 'OMS_CLIENT_SECRET_B');
  const tokenAuth = env.OMS_TOKEN_AUTH?.trim() ? oneOf(env, 'OMS_TOKEN_AUTH', TOKEN_AUTH_METHODS, 'form') : undefined;
  return {
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    token: env.OMS_TOKEN || undefined,
    tokenB: env.OMS_TOKEN_B || undefined,
    clientId,
    clientSecret,
    clientIdB,
    clientSecretB,
    tokenAuth,
    profile,
    effort,
    seed: integer(env, 'OMS_SEED'),
    replayPath: env.OMS_PATH?.trim() || undefined,
    readOnly: ['1', 'true', 'yes'].includes((env.OMS_READ_ONLY ?? '').toLowerCase()),
    requestTimeoutMs: integer(env, 'OMS_REQUEST_TIMEOUT_MS') ?? 15_000,
    maxResponseBytes: integer(env, 'OMS_MAX_RESPONSE_BYTES') ?? 10 * 1024 * 1024,
    maxRps: integer(env, 'OMS_MAX_RPS'),
  };
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const value = env[name]?.trim();
  if (!value) return fallback;
  if (!allowed.includes(value as T)) {
    throw new ConfigurationError(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

/** Two variables that go together (a client id and its secret): both, or neither. */
function pair(env: NodeJS.ProcessEnv, idName: string, secretName: string): [string | undefined, string | undefined] {
  const id = env[idName] || undefined;
  const secret = env[secretName] || undefined;
  if (Boolean(id) !== Boolean(secret)) throw new ConfigurationError(`${idName} and ${secretName} go together: set both, or neither`);
  return [id, secret];
}

function integer(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  if (!/^-?\d+$/.test(value)) throw new ConfigurationError(`${name} must be an integer, got ${JSON.stringify(value)}`);
  return Number(value);
}
