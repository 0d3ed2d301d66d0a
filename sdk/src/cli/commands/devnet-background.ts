// `tealworks devnet --detach | status | logs | stop`: the devnet in the background, as
// `algokit localnet start/status/logs/stop`. The running devnet's lock file in its data directory
// (pid, URLs, tokens, wallet, accounts) is the state file; a detached devnet writes its output to
// `devnet.log` beside it.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError, type CliIo } from '../command.js';
import { ArgReader } from '../args.js';
import { TealworksError } from '../../errors.js';
import { ALGOD_TOKEN_HEADER } from '../../adapters/node/algod.js';
import { QUERY_TOKEN_HEADER } from '../../adapters/query/client.js';
import { KEY_MANAGER_TOKEN_HEADER } from '../../adapters/kmd/client.js';
import {
  dataDirHolder,
  DEFAULT_DEVNET_DATA_DIR,
  DEFAULT_LOCALNET_DATA_DIR,
  LOCK_FILE,
  processAlive,
  type RunningDevnetRecord,
} from '../../services/devnet/lock.js';

/** A background devnet could not be started: already running, exited early, or never listened. */
export class DevnetDetachError extends TealworksError {}

/** File name of a detached devnet's output, inside its data directory. */
export const DEVNET_LOG_FILE = 'devnet.log';

/** How long `--detach` waits for the background devnet to listen, and `stop` for it to exit. */
const START_WAIT_MS = 120_000;
const STOP_WAIT_MS = 60_000;

/** Where a CLI process that re-runs this one starts: node, its flags (loaders) and the CLI script. */
export interface SelfCommand {
  command: string;
  args: string[];
}

/** This process's own command line (node, `--import` loaders, the CLI entry), to start a copy of it. */
export function selfCommand(): SelfCommand {
  const entry = process.argv[1];
  if (!entry) throw new UsageError('--detach cannot find the tealworks CLI script to start in the background; run the devnet in the foreground');
  return { command: process.execPath, args: [...process.execArgv, entry] };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The last `lines` lines of a text (all of it for `lines` undefined). */
function tail(text: string, lines: number | undefined): string {
  if (lines === undefined) return text;
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts
    .slice(Math.max(0, parts.length - lines))
    .map((l) => l + '\n')
    .join('');
}

function readLog(dir: string): string {
  try {
    return readFileSync(join(dir, DEVNET_LOG_FILE), 'utf8');
  } catch {
    return '';
  }
}

/**
 * Starts `tealworks devnet ARGS` (ARGS without `--detach`) in the background on `dataDir`, its
 * output appended to `devnet.log`, and resolves with its published record once its services
 * listen. Throws a `UsageError` saying why when it exits first or does not come up.
 */
export async function detachDevnet(childArgs: string[], dataDir: string, io: CliIo, self: SelfCommand = selfCommand()): Promise<RunningDevnetRecord> {
  const holder = dataDirHolder(dataDir);
  if (holder) {
    throw new DevnetDetachError(
      `a devnet is already running on ${dataDir} (process ${holder.pid}${holder.node ? `, node ${holder.node}` : ''}): \`tealworks devnet status\` shows it, \`tealworks devnet stop\` stops it`,
    );
  }
  const logPath = join(dataDir, DEVNET_LOG_FILE);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const fd = openSync(logPath, 'a', 0o600);
  const logStart = statSync(logPath).size;
  let exited: { code: number | null; error?: Error } | undefined;
  let child;
  try {
    writeSync(fd, `--- ${new Date().toISOString()} tealworks devnet ${childArgs.join(' ')}\n`);
    child = spawn(self.command, [...self.args, 'devnet', ...childArgs], { cwd: io.cwd, detached: true, stdio: ['ignore', fd, fd], env: process.env });
  } finally {
    closeSync(fd);
  }
  const onExit = (code: number | null) => (exited = { code });
  const onError = (error: Error) => (exited = { code: null, error });
  child.once('exit', onExit);
  child.once('error', onError);
  const pid = child.pid;
  try {
    const deadline = Date.now() + START_WAIT_MS;
    for (;;) {
      const h = dataDirHolder(dataDir);
      if (h?.running && h.pid === pid) return h.running;
      if (exited || pid === undefined) {
        const out = readLog(dataDir)
          .slice(logStart)
          .split('\n')
          .filter((l) => l.trim() !== '' && !l.startsWith('--- '))
          .slice(-5)
          .join('\n');
        throw new DevnetDetachError(
          `the background devnet exited before it was ready${exited?.code != null ? ` (exit code ${exited.code})` : exited?.error ? ` (${exited.error.message})` : ''}${out ? `:\n${out}` : ''}\nfull output: ${logPath}`,
        );
      }
      if (Date.now() > deadline) {
        child.kill('SIGTERM');
        throw new DevnetDetachError(
          `the background devnet (process ${pid}) did not start listening within ${START_WAIT_MS / 1000} s and was stopped; see ${logPath}`,
        );
      }
      await sleep(100);
    }
  } finally {
    child.off('exit', onExit);
    child.off('error', onError);
    child.unref();
  }
}

// ---- status / logs / stop -------------------------------------------------------------------------

interface Target {
  dir: string;
  /** Named by --data/--localnet (errors name it), or one of the default folders looked through. */
  explicit: boolean;
}

interface SubArgs {
  targets: Target[];
  json: boolean;
  tail?: number;
  follow: boolean;
}

function parseSubArgs(sub: string, args: string[], cwd: string): SubArgs {
  let data: string | undefined;
  let localnet = false;
  let json = false;
  let follow = false;
  let tailLines: number | undefined;
  const argv = new ArgReader(args);
  for (let a = argv.next(); a !== undefined; a = argv.next()) {
    if (a === '--data') data = argv.value();
    else if (a === '--localnet') localnet = true;
    else if (a === '--json' && sub === 'status') json = true;
    else if (a === '--follow' && sub === 'logs') follow = true;
    else if (a === '--tail' && sub === 'logs') {
      const v = argv.value();
      if (!/^\d{1,9}$/.test(v)) throw new UsageError(`--tail wants a number of lines, got "${v}"`);
      tailLines = Number(v);
    } else throw new UsageError(a.startsWith('-') ? `unknown option ${a} for \`tealworks devnet ${sub}\`` : `unexpected argument "${a}"`);
  }
  if (data !== undefined && localnet) throw new UsageError('--data and --localnet exclude each other (--localnet means --data .tealworks/localnet)');
  const targets: Target[] =
    data !== undefined
      ? [{ dir: resolve(cwd, data), explicit: true }]
      : localnet
        ? [{ dir: resolve(cwd, DEFAULT_LOCALNET_DATA_DIR), explicit: true }]
        : [DEFAULT_DEVNET_DATA_DIR, DEFAULT_LOCALNET_DATA_DIR, '.tealworks/fork'].map((d) => ({ dir: resolve(cwd, d), explicit: false }));
  return { targets, json, follow, ...(tailLines !== undefined ? { tail: tailLines } : {}) };
}

/** The pid of a lock file whose process is gone, or undefined when there is no such file. */
function staleLockPid(dir: string): number | undefined {
  const path = join(dir, LOCK_FILE);
  if (!existsSync(path) || dataDirHolder(dir)) return undefined;
  try {
    const pid = Number((JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown }).pid);
    return Number.isInteger(pid) && pid > 0 ? pid : -1;
  } catch {
    return -1;
  }
}

function whereLooked(targets: Target[]): string {
  return targets.length === 1 ? targets[0]!.dir : `${targets.map((t) => t.dir).join(', ')} (give --data DIR for another)`;
}

type Health = { ok: true; detail?: string } | { ok: false; detail: string };

async function probe(url: string, headers: Record<string, string>): Promise<{ ok: boolean; status: number; body: unknown; error?: string }> {
  try {
    const r = await fetch(url, { headers, signal: AbortSignal.timeout(5000) });
    const text = await r.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { ok: r.ok, status: r.status, body };
  } catch (e) {
    return { ok: false, status: 0, body: undefined, error: (e as Error).message };
  }
}

async function health(rec: RunningDevnetRecord): Promise<{ node: Health; query: Health; keyManager: Health; round?: string }> {
  const [node, query, keyManager] = await Promise.all([
    probe(`${rec.node.url}/v2/status`, { [ALGOD_TOKEN_HEADER]: rec.node.token }),
    probe(`${rec.query.url}/health`, { [QUERY_TOKEN_HEADER]: rec.query.token }),
    probe(`${rec.kmd.url}/versions`, { [KEY_MANAGER_TOKEN_HEADER]: rec.kmd.token }),
  ]);
  const h = (p: Awaited<ReturnType<typeof probe>>, detail?: string): Health =>
    p.ok ? { ok: true, ...(detail ? { detail } : {}) } : { ok: false, detail: p.error ? `not answering (${p.error})` : `answered ${p.status}` };
  const round = node.ok ? String((node.body as { 'last-round'?: unknown })['last-round'] ?? '') : undefined;
  return { node: h(node, round ? `round ${round}` : undefined), query: h(query), keyManager: h(keyManager), ...(round ? { round } : {}) };
}

const healthText = (h: Health) => (h.ok ? `healthy${h.detail ? ` (${h.detail})` : ''}` : `UNHEALTHY: ${h.detail}`);

async function status(a: SubArgs, io: CliIo): Promise<number> {
  const running = a.targets.map((t) => ({ t, h: dataDirHolder(t.dir) })).filter((x) => x.h !== undefined);
  if (running.length === 0) {
    const stale = a.targets.map((t) => ({ t, pid: staleLockPid(t.dir) })).filter((x) => x.pid !== undefined);
    if (a.json) io.stdout(JSON.stringify({ running: false, stale: stale.map((s) => ({ dataDir: s.t.dir, pid: s.pid })) }) + '\n');
    for (const s of stale)
      io.stderr(
        `the devnet that ran on ${s.t.dir} (process ${s.pid}) is gone without stopping cleanly: its state file ${LOCK_FILE} is stale; \`tealworks devnet stop\` removes it, the next start takes it over\n`,
      );
    io.stderr(`no devnet is running on ${whereLooked(a.targets)}; start one with \`tealworks devnet --detach\`\n`);
    return 1;
  }
  let allHealthy = true;
  const json: unknown[] = [];
  for (const { t, h } of running) {
    const rec = h!.running;
    if (!rec) {
      allHealthy = false;
      json.push({ dataDir: t.dir, pid: h!.pid, starting: true });
      if (!a.json) io.stdout(`tealworks devnet (process ${h!.pid}; data: ${t.dir}) is starting: its services do not listen yet\n`);
      continue;
    }
    const hs = await health(rec);
    allHealthy &&= hs.node.ok && hs.query.ok && hs.keyManager.ok;
    const log = join(t.dir, DEVNET_LOG_FILE);
    if (a.json) {
      json.push({
        dataDir: t.dir,
        pid: rec.pid,
        genesisId: rec.genesisId,
        node: { ...rec.node, healthy: hs.node.ok, ...(hs.round ? { lastRound: hs.round } : {}) },
        query: { ...rec.query, healthy: hs.query.ok },
        kmd: { ...rec.kmd, healthy: hs.keyManager.ok },
        wallet: rec.wallet,
        log: existsSync(log) ? log : null,
      });
      continue;
    }
    io.stdout(
      [
        `tealworks devnet running (process ${rec.pid}; data: ${t.dir}; genesis ${rec.genesisId})`,
        `  node   ${rec.node.url}  token ${rec.node.token}  ${healthText(hs.node)}`,
        `  query  ${rec.query.url}  token ${rec.query.token}  ${healthText(hs.query)}`,
        `  kmd    ${rec.kmd.url}  token ${rec.kmd.token}  ${healthText(hs.keyManager)}`,
        `  wallet ${rec.wallet.name} (password: ${rec.wallet.password === '' ? 'empty' : rec.wallet.password})`,
        existsSync(log) ? `  log    ${log} (\`tealworks devnet logs\`)` : '  log    none: running in the foreground of another terminal',
      ].join('\n') + '\n',
    );
  }
  if (a.json) io.stdout(JSON.stringify({ running: true, devnets: json }) + '\n');
  return allHealthy ? 0 : 1;
}

async function logs(a: SubArgs, io: CliIo, stopSignal: Promise<unknown>): Promise<number> {
  const withLog = a.targets.filter((t) => existsSync(join(t.dir, DEVNET_LOG_FILE)));
  if (withLog.length === 0) {
    io.stderr(`no devnet log in ${whereLooked(a.targets)}: logs are kept for devnets started with \`tealworks devnet --detach\`\n`);
    return 1;
  }
  // Without --data, the most recently written log.
  const t = withLog.sort((x, y) => statSync(join(y.dir, DEVNET_LOG_FILE)).mtimeMs - statSync(join(x.dir, DEVNET_LOG_FILE)).mtimeMs)[0]!;
  const path = join(t.dir, DEVNET_LOG_FILE);
  const text = readFileSync(path, 'utf8');
  io.stdout(tail(text, a.tail));
  if (!a.follow) return 0;
  // --follow: print what is appended until Ctrl+C or the devnet stops.
  let offset = Buffer.byteLength(text);
  let stopped = false;
  void stopSignal.then(() => (stopped = true));
  while (!stopped) {
    await Promise.race([sleep(200), stopSignal]);
    const size = existsSync(path) ? statSync(path).size : 0;
    if (size > offset) {
      const fd = openSync(path, 'r');
      try {
        const buf = Buffer.alloc(size - offset);
        readSync(fd, buf, 0, buf.length, offset);
        io.stdout(buf.toString('utf8'));
      } finally {
        closeSync(fd);
      }
      offset = size;
    }
    if (!dataDirHolder(t.dir)) break;
  }
  return 0;
}

/** Whether `pid` still looks like the devnet that published `rec` (and not a process that reused a dead one's id). */
async function looksLikeOurDevnet(rec: RunningDevnetRecord): Promise<boolean> {
  const r = await probe(`${rec.node.url}/health`, { [ALGOD_TOKEN_HEADER]: rec.node.token });
  if (r.status !== 0) return true;
  try {
    const cmd = readFileSync(`/proc/${rec.pid}/cmdline`, 'utf8');
    return /tealworks|devnet|node/.test(cmd);
  } catch {
    return true; // no /proc to tell: trust the lock file
  }
}

async function stop(a: SubArgs, io: CliIo): Promise<number> {
  const running = a.targets.map((t) => ({ t, h: dataDirHolder(t.dir) })).filter((x) => x.h !== undefined && x.h.pid !== process.pid);
  if (running.length === 0) {
    let removed = false;
    for (const t of a.targets) {
      const pid = staleLockPid(t.dir);
      if (pid === undefined) continue;
      rmSync(join(t.dir, LOCK_FILE), { force: true });
      removed = true;
      io.stderr(
        `no devnet is running on ${t.dir}: the state file left by process ${pid} (gone without stopping cleanly) was stale and is removed; the chain in it is intact up to its last acknowledged round\n`,
      );
    }
    if (!removed) io.stderr(`no devnet is running on ${whereLooked(a.targets)}; nothing to stop\n`);
    return 1;
  }
  let code = 0;
  for (const { t, h } of running) {
    const pid = h!.pid;
    if (h!.running && !(await looksLikeOurDevnet(h!.running))) {
      io.stderr(
        `process ${pid} named in ${join(t.dir, LOCK_FILE)} does not answer as the devnet and does not look like one (its id may have been reused after a crash): not stopping it. If no devnet runs on ${t.dir}, delete that file.\n`,
      );
      code = 1;
      continue;
    }
    try {
      process.kill(pid, 'SIGTERM');
    } catch (e) {
      io.stderr(`cannot stop process ${pid} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): it belongs to another user? Stop it there.\n`);
      code = 1;
      continue;
    }
    const deadline = Date.now() + STOP_WAIT_MS;
    while (processAlive(pid) && dataDirHolder(t.dir)?.pid === pid && Date.now() < deadline) await sleep(100);
    // The lock goes away just before the process exits; give it a moment to be gone.
    while (processAlive(pid) && Date.now() < deadline) await sleep(50);
    if (processAlive(pid)) {
      io.stderr(`the devnet (process ${pid}) is still stopping after ${STOP_WAIT_MS / 1000} s; \`kill -9 ${pid}\` loses nothing it acknowledged\n`);
      code = 1;
      continue;
    }
    io.stdout(`devnet on ${t.dir} (process ${pid}) stopped; chain and wallets flushed\n`);
  }
  return code;
}

/** Runs `tealworks devnet status|logs|stop ARGS`. */
export function runDevnetSubcommand(sub: 'status' | 'logs' | 'stop', args: string[], io: CliIo, stopSignal: Promise<unknown>): Promise<number> {
  const a = parseSubArgs(sub, args, io.cwd);
  if (sub === 'status') return status(a, io);
  if (sub === 'logs') return logs(a, io, stopSignal);
  return stop(a, io);
}
