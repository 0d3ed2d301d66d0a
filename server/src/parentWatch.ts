// Exit when whoever started the server is gone. An editor that kills the `tealworks lsp` wrapper
// (or crashes) may leave the server's stdin open, so waiting for end-of-input is not enough: the
// server polls its parent process, and the `processId` the client sent in `initialize`.

/** How often the parent is checked (ms). */
export const PARENT_POLL_MS = 400;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Calls `onGone` once the parent process (as it was at start) has exited or the process was
 * re-parented, or `clientPid()` names a process that has exited. The timer never keeps the
 * process alive on its own.
 */
export function watchParent(onGone: () => void, clientPid: () => number | undefined = () => undefined): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    const client = clientPid();
    if (process.ppid !== parent || !alive(parent) || (client !== undefined && client > 0 && !alive(client))) {
      clearInterval(timer);
      onGone();
    }
  }, PARENT_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
