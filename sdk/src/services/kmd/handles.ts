import { randomBytes, timingSafeEqual } from 'node:crypto';
import { MSG, unauthorized } from './errors.js';

/** Milliseconds since the epoch; injectable so tests can move time instead of sleeping. */
export type Clock = () => number;

/** Seconds a wallet handle stays valid without renewal. */
export const DEFAULT_HANDLE_LIFETIME_SECONDS = 60;

/** An open wallet handle: the wallet it opens and when it expires. */
export interface Handle {
  readonly walletId: string;
  expiresAt: number;
}

interface Entry extends Handle {
  secret: Buffer;
}

const ID_RE = /^[0-9a-f]{16}$/;
const SECRET_RE = /^[0-9a-f]{64}$/;

/**
 * Wallet handle tokens: `<16 hex id>.<64 hex secret>`. A handle lives for a fixed time from
 * init; only renew pushes the deadline out again (protocol.md §5.3).
 */
export class HandleTable {
  readonly #entries = new Map<string, Entry>();

  constructor(
    readonly clock: Clock,
    readonly lifetimeMs: number,
  ) {}

  create(walletId: string): string {
    let id: string;
    do id = randomBytes(8).toString('hex');
    while (this.#entries.has(id));
    const secret = randomBytes(32);
    this.#entries.set(id, { walletId, expiresAt: this.clock() + this.lifetimeMs, secret });
    return `${id}.${secret.toString('hex')}`;
  }

  /** The live handle behind a token, or the 401 the token deserves. */
  get(token: string): Handle {
    return this.#lookup(token)[1];
  }

  renew(token: string): Handle {
    const [, entry] = this.#lookup(token);
    entry.expiresAt = this.clock() + this.lifetimeMs;
    return entry;
  }

  release(token: string): Handle {
    const [id, entry] = this.#lookup(token);
    this.#entries.delete(id);
    return entry;
  }

  /** Whole seconds left, truncated. */
  secondsLeft(handle: Handle): number {
    return Math.max(0, Math.trunc((handle.expiresAt - this.clock()) / 1000));
  }

  /** Drops expired handles. */
  sweep(): void {
    const now = this.clock();
    for (const [id, e] of this.#entries) if (now > e.expiresAt) this.#entries.delete(id);
  }

  /** Wallet ids that still have at least one live handle. */
  walletsInUse(): Set<string> {
    this.sweep();
    return new Set([...this.#entries.values()].map((e) => e.walletId));
  }

  clear(): void {
    this.#entries.clear();
  }

  #lookup(token: string): [string, Entry] {
    const parts = typeof token === 'string' ? token.split('.') : [];
    if (parts.length !== 2) throw unauthorized(MSG.tokenParts);
    const [id, secretHex] = parts as [string, string];
    if (!ID_RE.test(id)) throw unauthorized(MSG.tokenId);
    if (!SECRET_RE.test(secretHex)) throw unauthorized(MSG.tokenSecret);
    const entry = this.#entries.get(id);
    if (!entry) throw unauthorized(MSG.handleMissing);
    if (!timingSafeEqual(Buffer.from(secretHex, 'hex'), entry.secret)) throw unauthorized(MSG.tokenInvalid);
    if (this.clock() > entry.expiresAt) {
      this.#entries.delete(id);
      throw unauthorized(MSG.handleExpired);
    }
    return [id, entry];
  }
}
