import { randomBytes } from 'node:crypto';

export interface Account {
  /** The account's user_id (UUID form, section 2.1). */
  id: string;
  /** Development token: always valid, so people can poke the server with curl. */
  developmentToken: string;
  /** A client configured for POST /token (section 5.2). */
  client: { id: string; secret: string };
}

/** Two accounts, A and B, so isolation between accounts can be exercised out of the box. */
export const DEVELOPMENT_ACCOUNTS: readonly Account[] = [
  {
    id: '4f1c2b7e-8a3d-4c5e-9f60-1a2b3c4d5e6f',
    developmentToken: 'oms-dev-token-a',
    client: { id: 'reference-client-a', secret: 'reference-secret-a' },
  },
  {
    id: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    developmentToken: 'oms-dev-token-b',
    client: { id: 'reference-client-b', secret: 'reference-secret-b' },
  },
];

/** Who a bearer token belongs to, until it expires (lifetimes are not shown, 5.3: each issuer chooses one). */
export class AccountRegistry {
  private readonly tokens = new Map<string, Account>();
  private readonly expiry = new Map<string, number>();

  constructor(readonly accounts: readonly Account[] = DEVELOPMENT_ACCOUNTS) {
    for (const account of accounts) this.tokens.set(account.developmentToken, account);
  }

  accountFor(token: string): Account | undefined {
    const expiresAt = this.expiry.get(token);
    if (expiresAt !== undefined && Date.now() >= expiresAt) return undefined;
    return this.tokens.get(token);
  }

  /** Every valid token and its account (development tokens and those issued so far). */
  validTokens(): Array<[string, Account]> {
    return [...this.tokens];
  }

  /** A fresh access token for a configured client, or undefined if the credentials are wrong. */
  issueToken(clientId: unknown, clientSecret: unknown, lifetimeMs?: number): string | undefined {
    const account = this.accounts.find((a) => a.client.id === clientId && a.client.secret === clientSecret);
    if (!account) return undefined;
    const token = `oms_${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, account);
    if (lifetimeMs !== undefined) this.expiry.set(token, Date.now() + lifetimeMs);
    return token;
  }
}
