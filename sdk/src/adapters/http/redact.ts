/**
 * Keeps credentials out of anything a user may see (errors, logs). URLs lose their user-info and the
 * values of query parameters whose names look like credentials; free text loses every secret the
 * client knows about.
 */

// Credential-like names only: `sig-type` and `auth-addr` are ordinary query filters and stay visible.
const SECRET_PARAM = /token|secret|passw|passphrase|api[-_]?key|^key$|mnemonic|credential|authorization|^auth$|signature/i;
/** What replaces a secret in URLs, messages and logs. */
export const REDACTED = 'REDACTED';

/** The URL without user info and with credential-like query values (and the given secrets) replaced. */
export function redactUrl(url: URL | string, secrets: Iterable<string> = []): string {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : new URL(url.href);
  } catch {
    return scrubSecrets(String(url), secrets);
  }
  if (parsed.username) parsed.username = REDACTED;
  if (parsed.password) parsed.password = REDACTED;
  const names = [...new Set([...parsed.searchParams.keys()])];
  for (const name of names) {
    if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, REDACTED);
  }
  return scrubSecrets(parsed.href, secrets);
}

/** Replaces every occurrence of each secret (and its URL-encoded form) in `text`. */
export function scrubSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret || secret.length < 3) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      if (out.includes(form)) out = out.split(form).join(REDACTED);
    }
  }
  return out;
}
