import type { TokenAuth } from './token-auth';

/**
 * How a printed command (a curl line) gets an account's credentials back in the user's shell, from what the
 * user gave the run: never the secret itself, never a variable the user did not set. Worked out once, where
 * the run starts (config/settings.ts commandCredentials), and handed to every place that prints a command.
 */

/** Where the shell reads a secret back: a variable the user set, a file they named, or (typed on the command line, `typedAs`) a variable to set to it. */
export type SecretSource = { variable: string; typedAs?: string } | { file: string };

/** How the shell gets an account's token: the token as the user gave it, or POST /token with the client credentials they gave, the way the server took them. */
export type TokenSource = { token: SecretSource } | { signIn: { baseUrl: string; clientId: string; clientSecret: SecretSource; auth: TokenAuth } };

/** Per account (A, B), the token's source; an account the user gave nothing for has none. */
export type CommandCredentials = Partial<Record<'A' | 'B', TokenSource>>;
