/** Secrets the suite knows (tokens, client secret), each with the shell variable that stands for it in output. */
const secrets = new Map<string, string>();

export function registerSecret(value: string | undefined, placeholder: string): void {
  // Very short values would blank out ordinary text; no real token is that short.
  if (value && value.length >= 6) secrets.set(value, placeholder);
}

/** Replaces every known secret in text by its placeholder ($OMS_TOKEN …). */
export function redact(text: string): string {
  let out = text;
  for (const [value, placeholder] of secrets) out = out.split(value).join(placeholder);
  return out;
}

/** Registers every secret of the configuration contract (tokens, client secret) under its variable's name. */
export function registerSettingsSecrets(settings: { token?: string; tokenB?: string; clientSecret?: string; clientSecretB?: string }): void {
  registerSecret(settings.token, '$OMS_TOKEN');
  registerSecret(settings.tokenB, '$OMS_TOKEN_B');
  registerSecret(settings.clientSecret, '$OMS_CLIENT_SECRET');
  registerSecret(settings.clientSecretB, '$OMS_CLIENT_SECRET_B');
}
