import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ValidationError } from '../../errors.js';

/** A per-service API token carried in a named header (and optionally `Authorization: Bearer`). */
export interface TokenAuth {
  /** e.g. `X-KMD-API-Token`, `X-Node-API-Token`. */
  header: string;
  /** Further headers that carry the same tokens (the node service also takes `X-Algo-API-Token`). */
  alsoHeaders?: readonly string[];
  /** Accepted tokens (an admin and a regular token, say). */
  tokens: readonly string[];
  /** Also accept `Authorization: Bearer <token>`. */
  bearer?: boolean;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Compares fixed-size digests so neither the token's content nor its length leaks through timing. */
export class TokenChecker {
  readonly #header: string;
  readonly #headers: readonly string[];
  readonly #digests: Buffer[];
  readonly #bearer: boolean;

  constructor(auth: TokenAuth) {
    if (!auth.header) throw new ValidationError('token header name must not be empty');
    if (auth.tokens.length === 0 || auth.tokens.some((t) => typeof t !== 'string' || t.length === 0)) {
      throw new ValidationError('an API token must be a non-empty string');
    }
    this.#header = auth.header.toLowerCase();
    this.#headers = [this.#header, ...(auth.alsoHeaders ?? []).map((h) => h.toLowerCase())];
    this.#digests = auth.tokens.map(digest);
    this.#bearer = auth.bearer ?? false;
  }

  get headerName(): string {
    return this.#header;
  }

  /** Every header that may carry the token (for CORS preflight answers). */
  get headerNames(): readonly string[] {
    return this.#headers;
  }

  accepts(headers: IncomingHttpHeaders): boolean {
    const candidates: string[] = [];
    for (const name of this.#headers) {
      const direct = headers[name];
      if (typeof direct === 'string') candidates.push(direct);
      else if (Array.isArray(direct)) candidates.push(...direct);
    }
    if (this.#bearer && typeof headers.authorization === 'string') {
      const m = /^Bearer\s+(.+)$/i.exec(headers.authorization);
      if (m) candidates.push(m[1]!.trim());
    }
    let ok = false;
    for (const c of candidates) {
      const d = digest(c);
      // Check every accepted token so the time taken does not depend on which one matched.
      for (const t of this.#digests) if (timingSafeEqual(d, t)) ok = true;
    }
    return ok;
  }
}
