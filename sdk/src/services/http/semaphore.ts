import { ServiceUnavailableError } from './errors.js';

/** What a {@link Semaphore} has done so far (counts only). */
export interface SemaphoreStats {
  /** Most holders at once. */
  peak: number;
  /** Acquisitions that had to wait for a slot. */
  waited: number;
  /** Acquisitions refused (503) because too many were already waiting. */
  refused: number;
  /** Waiting acquisitions dropped because their request was abandoned. */
  abandoned: number;
}

interface Waiter {
  grant: (release: () => void) => void;
  fail: (e: unknown) => void;
}

/**
 * A first-come, first-served limit on how many requests hold an expensive resource at once (the
 * node service's traced simulations). Waiters whose request is abandoned leave the queue; more than
 * `maxWaiting` waiters are refused with 503 so a flood cannot queue without bound.
 */
export class Semaphore {
  readonly #queue: Waiter[] = [];
  #held = 0;
  readonly stats: SemaphoreStats = { peak: 0, waited: 0, refused: 0, abandoned: 0 };

  constructor(
    readonly slots: number,
    readonly maxWaiting: number,
    /** The 503 message when the queue is full. */
    readonly busyMessage = 'the service is busy; retry in a moment',
  ) {
    if (!(slots >= 1)) throw new RangeError('a semaphore needs at least one slot');
  }

  /** Holders right now. */
  get held(): number {
    return this.#held;
  }

  /** Waiters right now. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** Resolves with a release function once a slot is free (call it exactly once; extra calls are ignored). */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new ServiceUnavailableError('the request was abandoned'));
    if (this.#held < this.slots && this.#queue.length === 0) return Promise.resolve(this.#grant());
    if (this.#queue.length >= this.maxWaiting) {
      this.stats.refused++;
      return Promise.reject(new ServiceUnavailableError(this.busyMessage));
    }
    this.stats.waited++;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
        fail: reject,
      };
      const onAbort = () => {
        const i = this.#queue.indexOf(waiter);
        if (i >= 0) {
          this.#queue.splice(i, 1);
          this.stats.abandoned++;
          reject(new ServiceUnavailableError('the request was abandoned'));
        }
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  #grant(): () => void {
    this.#held++;
    this.stats.peak = Math.max(this.stats.peak, this.#held);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held--;
      const next = this.#queue.shift();
      if (next) next.grant(this.#grant());
    };
  }
}
