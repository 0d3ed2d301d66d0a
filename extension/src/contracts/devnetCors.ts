// The `tealworks.devnet.cors` setting: browser origins allowed to call the embedded devnet's
// services (the CLI's `--cors ORIGIN`). Pure, so it is tested without VS Code.

/** A browser origin (`scheme://host[:port]`, no path) or `*`, as `tealworks devnet --cors` accepts. */
export const CORS_ORIGIN = /^(\*|[a-z][a-z0-9+.-]*:\/\/[^\s/]+)$/i;

/**
 * The origins of a `tealworks.devnet.cors` value: strings that are origins (a trailing `/` is
 * dropped), in order, without repeats. Anything else is reported through `ignored` and left out,
 * so a typo never opens the devnet to more than the user wrote.
 */
export function corsSetting(value: unknown, ignored: (entry: string) => void): string[] {
  if (!Array.isArray(value)) {
    if (value !== undefined && value !== null) ignored(String(value));
    return [];
  }
  const out: string[] = [];
  for (const v of value) {
    const o = typeof v === 'string' ? v.trim().replace(/\/$/, '') : undefined;
    if (o === undefined || !CORS_ORIGIN.test(o)) {
      ignored(String(v));
      continue;
    }
    if (!out.includes(o)) out.push(o);
  }
  return out;
}
