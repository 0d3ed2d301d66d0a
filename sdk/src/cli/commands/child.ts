// What `tealworks lsp` and `tealworks debug --dap` share: they run a program that lives beside the
// CLI (the language server, the debug adapter) as a child on the same stdin/stdout, pass on the
// signals they get, and exit with its status.
import { spawn } from 'node:child_process';

/** `--import` for tsx, resolved from here so it works whatever the editor's working directory is. */
export function tsxLoader(): string[] {
  try {
    return ['--import', import.meta.resolve('tsx')];
  } catch {
    return ['--import', 'tsx'];
  }
}

/**
 * Runs `node [...nodeArgs] path ...args` with inherited stdio until it exits; SIGTERM and SIGINT
 * are passed on. With `watchParent`, the child is also stopped when this process's parent goes
 * away without stopping us. Resolves to the child's exit status (128 for a signal).
 */
export async function runChild(
  entry: { nodeArgs: string[]; path: string },
  args: readonly string[] = [],
  options: { watchParent?: boolean } = {},
): Promise<number> {
  const child = spawn(process.execPath, [...entry.nodeArgs, entry.path, ...args], { stdio: 'inherit' });
  const onTerm = () => child.kill('SIGTERM');
  const onInt = () => child.kill('SIGINT');
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  let watch: NodeJS.Timeout | undefined;
  if (options.watchParent) {
    const parent = process.ppid;
    watch = setInterval(() => {
      let gone = process.ppid !== parent;
      try {
        if (!gone) process.kill(parent, 0);
      } catch (e) {
        gone = (e as NodeJS.ErrnoException).code !== 'EPERM';
      }
      if (gone) child.kill('SIGTERM');
    }, 400);
    watch.unref();
  }
  try {
    return await new Promise<number>((res, rej) => {
      child.once('error', rej);
      child.once('exit', (code, signal) => res(code ?? (signal ? 128 : 1)));
    });
  } finally {
    if (watch) clearInterval(watch);
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
  }
}
