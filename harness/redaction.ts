/** Secrets the suite knows (tokens, client secret), each with the shell variable that stands for it in output. */
const secrets = new Map<string, string>();

export function registerSecret(value: string | undefined, placeholder: string): void {
  // Very short values would blank out ordinary text; no real token is that short.
  if (value && value.length >= 6) secrets.set(value, placeholder);
}

/** The shell variables that stand for secrets in output: the only text a reproduction line lets the shell expand. */
export function placeholders(): string[] {
  return [...new Set(['$OMS_TOKEN', '$OMS_TOKEN_B', '$OMS_CLIENT_SECRET', ...secrets.values()])];
}

/** Replaces every known secret in text by its placeholder ($OMS_TOKEN …). */
export function redact(text: string): string {
  let out = text;
  for (const [value, placeholder] of secrets) out = out.split(value).join(placeholder);
  return out;
}

/** Registers every secret of the configuration contract (tokens, client secret) under its variable's name. */
export function registerSettingsSecrets(settings: { token?: string; tokenB?: string; clientSecret?: string }): void {
  registerSecret(settings.token, '$OMS_TOKEN');
  registerSecret(settings.tokenB, '$OMS_TOKEN_B');
  registerSecret(settings.clientSecret, '$OMS_CLIENT_SECRET');
}
