// A minimal Debug Adapter Protocol client for tests: spawns the adapter (or the CLI) and speaks
// Content-Length framed JSON over its stdio, as VS Code and nvim-dap do.
import { HANG_GUARD_MS } from '../../helpers/hang.js';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DebugProtocol } from '@vscode/debugprotocol';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export class DapClient {
  readonly child: ChildProcessWithoutNullStreams;
  private seq = 1;
  private buffer = Buffer.alloc(0);
  private readonly pending = new Map<number, (r: DebugProtocol.Response) => void>();
  private readonly events: DebugProtocol.Event[] = [];
  private readonly waiters: { name: string; resolve: (e: DebugProtocol.Event) => void }[] = [];
  stderr = '';

  constructor(args: string[] = ['--import', 'tsx', resolve(repoRoot, 'server/src/debug/main.ts')]) {
    this.child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (d: Buffer) => this.onData(d));
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
  }

  private onData(d: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, d]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const m = /Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString());
      if (!m) throw new Error(`bad DAP header: ${this.buffer.subarray(0, headerEnd).toString()}`);
      const len = Number(m[1]);
      if (this.buffer.length < headerEnd + 4 + len) return;
      const msg = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + len).toString()) as DebugProtocol.ProtocolMessage;
      this.buffer = this.buffer.subarray(headerEnd + 4 + len);
      if (msg.type === 'response') {
        const r = msg as DebugProtocol.Response;
        this.pending.get(r.request_seq)?.(r);
        this.pending.delete(r.request_seq);
      } else if (msg.type === 'event') {
        const e = msg as DebugProtocol.Event;
        const w = this.waiters.findIndex((x) => x.name === e.event);
        if (w >= 0) this.waiters.splice(w, 1)[0]!.resolve(e);
        else this.events.push(e);
      }
    }
  }

  /** Sends a request; resolves with the response (failed responses too: check `success`). */
  request<T extends DebugProtocol.Response = DebugProtocol.Response>(command: string, args?: unknown): Promise<T> {
    const seq = this.seq++;
    const body = JSON.stringify({ seq, type: 'request', command, ...(args !== undefined ? { arguments: args } : {}) });
    const p = new Promise<T>((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`no response to ${command} within the hang guard; stderr: ${this.stderr}`)), HANG_GUARD_MS);
      this.pending.set(seq, (r) => {
        clearTimeout(timer);
        res(r as T);
      });
    });
    this.child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    return p;
  }

  /** The next event of this name (already received ones first). */
  event<T extends DebugProtocol.Event = DebugProtocol.Event>(name: string): Promise<T> {
    const i = this.events.findIndex((e) => e.event === name);
    if (i >= 0) return Promise.resolve(this.events.splice(i, 1)[0] as T);
    return new Promise<T>((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`no ${name} event within the hang guard; stderr: ${this.stderr}`)), HANG_GUARD_MS);
      this.waiters.push({
        name,
        resolve: (e) => {
          clearTimeout(timer);
          res(e as T);
        },
      });
    });
  }

  /** initialize → launch → breakpoints → configurationDone; resolves once the first stop (or the end) is reported. */
  async start(
    launch: Record<string, unknown>,
    breakpoints: Record<string, { line: number; condition?: string }[]> = {},
  ): Promise<{ launch: DebugProtocol.Response; breakpoints: Record<string, DebugProtocol.Breakpoint[]> }> {
    const init = await this.request('initialize', { adapterID: 'tealworks', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    if (!init.success) throw new Error(`initialize failed: ${init.message}`);
    await this.event('initialized');
    const launchP = this.request('launch', launch);
    const launched = await launchP;
    const bps: Record<string, DebugProtocol.Breakpoint[]> = {};
    for (const [path, list] of Object.entries(breakpoints)) {
      const r = await this.request<DebugProtocol.SetBreakpointsResponse>('setBreakpoints', { source: { path }, breakpoints: list });
      bps[path] = r.body.breakpoints;
    }
    await this.request('configurationDone');
    return { launch: launched, breakpoints: bps };
  }

  async stopped(): Promise<DebugProtocol.StoppedEvent> {
    return this.event<DebugProtocol.StoppedEvent>('stopped');
  }

  /** Where the adapter is paused: top stack frame (line 1-based) and pc. */
  async where(): Promise<{ line: number; pc: number; name: string; frames: DebugProtocol.StackFrame[] }> {
    const st = await this.request<DebugProtocol.StackTraceResponse>('stackTrace', { threadId: 1 });
    const top = st.body.stackFrames[0]!;
    return { line: top.line, pc: Number(BigInt(top.instructionPointerReference!) % 0x1000000n), name: top.name, frames: st.body.stackFrames };
  }

  async scope(name: RegExp, frameId?: number): Promise<DebugProtocol.Variable[]> {
    const id = frameId ?? (await this.where()).frames[0]!.id;
    const scopes = await this.request<DebugProtocol.ScopesResponse>('scopes', { frameId: id });
    const s = scopes.body.scopes.find((x) => name.test(x.name));
    if (!s) throw new Error(`no scope ${name}: ${scopes.body.scopes.map((x) => x.name).join(', ')}`);
    return this.variables(s.variablesReference);
  }

  async variables(ref: number): Promise<DebugProtocol.Variable[]> {
    const v = await this.request<DebugProtocol.VariablesResponse>('variables', { variablesReference: ref });
    return v.body.variables;
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null) {
      await Promise.race([this.request('disconnect', {}), new Promise((r) => setTimeout(r, 2000))]);
      this.child.stdin.end();
      this.child.kill();
    }
  }
}
