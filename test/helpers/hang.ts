// One hang guard for every test that waits on a process, a socket or a language-server answer.
// It is deliberately generous: it only tells a hang from slow progress, and nothing asserts on
// how long work took.

/** How long a test may wait for something before it is called hung (also mocha's floor). */
export const HANG_GUARD_MS = 180_000;

/**
 * Resolves with `p`, or rejects naming `what` if it has not settled within the hang guard.
 * For waits that must not hang a run, not for measuring speed.
 */
export function settles<T>(what: string, p: Promise<T>, ms = HANG_GUARD_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, rej) => {
      timer = setTimeout(() => rej(new Error(`${what}: no answer within the hang guard (${ms / 1000} s)`)), ms);
    }),
  ]);
}

/** Polls `done` until it holds, or throws naming `what` once the hang guard has passed. */
export async function until(what: string, done: () => boolean | Promise<boolean>, ms = HANG_GUARD_MS, every = 20): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: still not so after the hang guard (${ms / 1000} s)`);
    await new Promise((r) => setTimeout(r, every));
  }
}
