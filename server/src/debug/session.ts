// The `tealworks` debug adapter: a thin Debug Adapter Protocol layer over the SDK's replayable
// runs (sdk/src/app/debug). Every run is recorded first — live programs on an in-memory ledger,
// or a recorded simulate response — so stepping works in both directions and is exact.
import { DAP_EXPORT_TRACE_REQUEST, DAP_POSITION_REQUEST, type DapPosition } from '../protocol.js';
import { realpathSync } from 'node:fs';
import { basename, normalize } from 'node:path';
import { DebugSession, Handles, InitializedEvent, OutputEvent, Scope, Source, StackFrame, StoppedEvent, TerminatedEvent, Thread } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import {
  avmTypeName,
  DebugRun,
  formatDebugValue,
  typedViews,
  type DebugValue,
  type ProgramFrame,
  type ReplayLocation,
  type ReplaySnapshot,
} from '@tealworks/sdk/app';
import { encodeAddress } from '@tealworks/sdk/encoding';
import { disassembleDetailed } from '@tealworks/sdk/teal';
import { consoleConditionHolds, evaluateConsole } from './console.js';
import { fromBase64 } from '@tealworks/sdk/encoding';
import { utf8 } from '@tealworks/sdk/encoding';
import { toHex } from '@tealworks/sdk/encoding';
import { exportRun, LaunchError, resolveLaunch, type TealLaunchArgs } from './launch.js';

const THREAD = 1;

interface LineBreakpoint {
  id: number;
  line: number;
  condition?: string;
  verified: boolean;
}

type VarProvider = () => DebugProtocol.Variable[];

/** Canonical form of a file path, for matching breakpoints to sources. */
/** Real paths, looked up once per path: breakpoint matching asks for them at every step of a run. */
const canonical = new Map<string, string>();
function canon(p: string): string {
  let c = canonical.get(p);
  if (c === undefined) {
    try {
      c = realpathSync(p);
    } catch {
      c = normalize(p);
    }
    canonical.set(p, c);
  }
  return c;
}

const TXN_FIELDS: Record<string, string> = {
  type: 'TypeEnum',
  snd: 'Sender',
  fee: 'Fee',
  fv: 'FirstValid',
  lv: 'LastValid',
  note: 'Note',
  grp: 'Group',
  lx: 'Lease',
  rekey: 'RekeyTo',
  rcv: 'Receiver',
  amt: 'Amount',
  close: 'CloseRemainderTo',
  apid: 'ApplicationID',
  apan: 'OnCompletion',
  apaa: 'ApplicationArgs',
  apat: 'Accounts',
  apfa: 'Applications',
  apas: 'Assets',
  apbx: 'Boxes',
  apap: 'ApprovalProgram',
  apsu: 'ClearStateProgram',
  apgs: 'GlobalStateSchema',
  apls: 'LocalStateSchema',
  apep: 'ExtraProgramPages',
  xaid: 'XferAsset',
  aamt: 'AssetAmount',
  arcv: 'AssetReceiver',
  caid: 'ConfigAsset',
  apar: 'AssetParams',
};

/**
 * Method signatures a program's TEAL names: `method "…"` lines (hand-written routers) and the
 * `// method "…"` comments compilers (Puya) write beside selector constants.
 */
export function methodSignaturesIn(lines: readonly string[] | undefined): string[] {
  const out = new Set<string>();
  for (const l of lines ?? []) for (const m of l.matchAll(/\bmethod\s+"([^"\\]+)"/g)) out.add(m[1]!);
  return [...out];
}

export class TealDebugSession extends DebugSession {
  private run: DebugRun | undefined;
  private position = 0;
  private breakOnFailure = true;
  private readonly breakpoints = new Map<string, LineBreakpoint[]>();
  private nextBreakpointId = 1;
  private readonly vars = new Handles<VarProvider>();
  /** Frames of the last stack trace, by id: program frame and step (undefined for txn/group frames). */
  private readonly frameInfo = new Map<number, { position: number; frame?: ProgramFrame; step?: number; txnPath?: number[] }>();
  /** Disassemblies served as sources of programs with no TEAL file, by program frame id. */
  private readonly disassemblies = new Map<number, { text: string; lineOfPc: Map<number, number> } | null>();
  private stopReason: 'entry' | 'step' | 'breakpoint' | 'exception' | undefined;
  private launched: (() => void) | undefined;
  private readonly configured = new Promise<void>((r) => (this.launched = r));

  constructor() {
    super();
    this.setDebuggerLinesStartAt1(false);
    this.setDebuggerColumnsStartAt1(false);
  }

  protected override dispatchRequest(request: DebugProtocol.Request): void {
    // The protocol's default path format is 'path'; the library insists on it being said.
    if (request.command === 'initialize') request.arguments = { pathFormat: 'path', ...(request.arguments ?? {}) };
    super.dispatchRequest(request);
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsConditionalBreakpoints: true,
      supportsEvaluateForHovers: true,
      supportsStepBack: true,
      supportsSteppingGranularity: true,
      supportsExceptionInfoRequest: true,
      supportsTerminateRequest: true,
      supportsDisassembleRequest: true,
      exceptionBreakpointFilters: [{ filter: 'failure', label: 'Group failure', description: 'Stop at the instruction where the group fails', default: true }],
    };
    this.sendResponse(response);
    this.sendEvent(new InitializedEvent());
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.sendResponse(response);
    this.launched?.();
  }

  protected override async launchRequest(response: DebugProtocol.LaunchResponse, args: DebugProtocol.LaunchRequestArguments & TealLaunchArgs): Promise<void> {
    try {
      const { run, description, warnings } = await resolveLaunch(args);
      for (const w of warnings ?? []) this.sendEvent(new OutputEvent(`Tealworks: skipped ${w}\n`, 'console'));
      this.run = run;
      this.breakOnFailure = args.breakOnFailure !== false;
      this.sendEvent(
        new OutputEvent(
          `Tealworks: debugging ${description}: ${run.timeline.length} steps in ${run.frames.length} program${run.frames.length === 1 ? '' : 's'}${run.failure ? `; the group fails: ${firstLine(run.failure.message)}` : '; the group succeeds'}\n`,
          'console',
        ),
      );
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.sendErrorResponse(response, { id: 1, format: `Tealworks: ${message.replace(/[{}]/g, '')}`, showUser: true });
      return;
    }
    this.sendResponse(response);
    // Breakpoints arrive between initialized and configurationDone; verify them against the run.
    await this.configured;
    this.reverifyBreakpoints();
    if (args.stopOnEntry) this.pauseAt(0, 'entry');
    else this.runForward(-1, () => false);
  }

  protected override setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): void {
    const path = args.source.path ? canon(args.source.path) : undefined;
    const list: LineBreakpoint[] = (args.breakpoints ?? []).map((b) => ({
      id: this.nextBreakpointId++,
      line: this.convertClientLineToDebugger(b.line),
      ...(b.condition ? { condition: b.condition } : {}),
      verified: false,
    }));
    if (path) this.breakpoints.set(path, list);
    if (path) for (const b of list) b.verified = this.run ? this.lineHasCode(path, b.line) : true;
    response.body = {
      breakpoints: list.map((b) => ({
        id: b.id,
        verified: b.verified,
        line: this.convertDebuggerLineToClient(b.line),
        ...(b.verified ? {} : { message: 'no instruction of this run comes from this line' }),
      })),
    };
    this.sendResponse(response);
  }

  protected override setExceptionBreakPointsRequest(
    response: DebugProtocol.SetExceptionBreakpointsResponse,
    args: DebugProtocol.SetExceptionBreakpointsArguments,
  ): void {
    this.breakOnFailure = args.filters.includes('failure');
    this.sendResponse(response);
  }

  private reverifyBreakpoints(): void {
    for (const [path, list] of this.breakpoints) for (const b of list) b.verified = this.lineHasCode(path, b.line);
  }

  private lineHasCode(path: string, line: number): boolean {
    const run = this.run;
    if (!run) return false;
    for (const f of run.frames) {
      for (const s of f.steps) {
        const loc = run.location(f, s.pc);
        if (loc && this.matches(loc, path, line)) return true;
      }
    }
    return false;
  }

  private matches(loc: ReplayLocation, path: string, line: number): boolean {
    if (loc.file && canon(loc.file) === path && loc.line === line) return true;
    const d = loc.definition;
    return !!d && !!d.file && canon(d.file) === path && d.line === line;
  }

  /** The breakpoint that stops at `t`: its line is hit at t and was not at t-1 in the same frame. */
  private breakpointAt(t: number): LineBreakpoint | undefined {
    const run = this.run!;
    const e = run.timeline[t]!;
    const f = run.frames[e.frame]!;
    const loc = run.location(f, f.steps[e.step]!.pc);
    if (!loc) return undefined;
    const prev = t > 0 ? run.timeline[t - 1] : undefined;
    const prevLoc = prev && prev.frame === e.frame ? run.location(f, f.steps[prev.step]!.pc) : undefined;
    for (const [path, list] of this.breakpoints) {
      for (const b of list) {
        if (!this.matches(loc, path, b.line)) continue;
        if (prevLoc && this.matches(prevLoc, path, b.line) && prevLoc.line === loc.line && prevLoc.definition?.line === loc.definition?.line) continue;
        if (b.condition) {
          try {
            if (!consoleConditionHolds(b.condition, { snap: run.snapshot(t), group: run.txns })) continue;
          } catch (err) {
            this.sendEvent(new OutputEvent(`breakpoint condition "${b.condition}": ${(err as Error).message}\n`, 'stderr'));
            continue;
          }
        }
        return b;
      }
    }
    return undefined;
  }

  private isFailureAt(t: number): boolean {
    return this.breakOnFailure && this.run?.failure?.position === t;
  }

  /** Runs forward from `from`+1 until a breakpoint, the failure, or `until` says stop. */
  private runForward(from: number, until: (t: number) => boolean, reason: 'step' | 'breakpoint' = 'breakpoint'): void {
    const run = this.run!;
    for (let t = from + 1; t < run.timeline.length; t++) {
      if (this.isFailureAt(t)) return this.pauseAt(t, 'exception');
      if (this.breakpointAt(t)) return this.pauseAt(t, 'breakpoint');
      if (until(t)) return this.pauseAt(t, reason);
    }
    this.sendEvent(new OutputEvent('Tealworks: the run ended.\n', 'console'));
    this.sendEvent(new TerminatedEvent());
  }

  private runBackward(from: number, until: (t: number) => boolean): void {
    for (let t = from - 1; t >= 0; t--) {
      if (this.breakpointAt(t)) return this.pauseAt(t, 'breakpoint');
      if (until(t)) return this.pauseAt(t, 'step');
    }
    this.pauseAt(0, 'entry');
  }

  private pauseAt(t: number, reason: 'entry' | 'step' | 'breakpoint' | 'exception'): void {
    this.position = t;
    this.stopReason = reason;
    this.vars.reset();
    const ev = new StoppedEvent(reason, THREAD, reason === 'exception' ? this.failureText() : undefined) as DebugProtocol.StoppedEvent;
    if (reason === 'exception') ev.body.description = 'Group failure';
    this.sendEvent(ev);
  }

  private lineKey(t: number): string {
    const run = this.run!;
    const e = run.timeline[t]!;
    const f = run.frames[e.frame]!;
    const loc = run.location(f, f.steps[e.step]!.pc);
    // Inside a macro expansion every statement of the body is its own stop (bodies often put
    // several statements on one line with `;`), so step in / step back walk through the macro.
    return `${e.frame}:${loc ? `${loc.line}:${loc.definition ? `${loc.definition.line}:${loc.definition.column}` : ''}` : `pc${f.steps[e.step]!.pc}`}`;
  }

  private useKey(t: number): string {
    const run = this.run!;
    const e = run.timeline[t]!;
    const f = run.frames[e.frame]!;
    const loc = run.location(f, f.steps[e.step]!.pc);
    return `${e.frame}:${loc ? loc.line : `pc${f.steps[e.step]!.pc}`}`;
  }

  /** Statement stepping stops only where the source says something: in a program with a user-source map, pcs it maps. */
  private stoppable(t: number): boolean {
    const run = this.run!;
    const e = run.timeline[t]!;
    const f = run.frames[e.frame]!;
    return !f.source?.userMap || run.location(f, f.steps[e.step]!.pc) !== undefined;
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    this.sendResponse(response);
    this.runForward(this.position, () => false);
  }

  protected override nextRequest(response: DebugProtocol.NextResponse, args: DebugProtocol.NextArguments): void {
    this.sendResponse(response);
    const run = this.run!;
    const start = this.position;
    const depth = run.depth(start);
    if (args.granularity === 'instruction') return this.runForward(start, (t) => run.depth(t) <= depth, 'step');
    const key = this.useKey(start);
    this.runForward(start, (t) => this.stoppable(t) && (run.depth(t) < depth || (run.depth(t) === depth && this.useKey(t) !== key)), 'step');
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse, args: DebugProtocol.StepInArguments): void {
    this.sendResponse(response);
    const start = this.position;
    if (args.granularity === 'instruction') return this.runForward(start, () => true, 'step');
    const key = this.lineKey(start);
    this.runForward(start, (t) => this.stoppable(t) && this.lineKey(t) !== key, 'step');
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.sendResponse(response);
    const run = this.run!;
    const depth = run.depth(this.position);
    this.runForward(this.position, (t) => run.depth(t) < depth && this.stoppable(t), 'step');
  }

  protected override stepBackRequest(response: DebugProtocol.StepBackResponse, args: DebugProtocol.StepBackArguments): void {
    this.sendResponse(response);
    const start = this.position;
    if (start === 0) return this.pauseAt(0, 'entry');
    if (args.granularity === 'instruction') return this.pauseAt(start - 1, 'step');
    // Back to the first instruction of the previous line (the reverse of step in); in user-source
    // programs only pcs the map names count.
    const key = this.lineKey(start);
    let t = start - 1;
    while (t > 0 && (this.lineKey(t) === key || !this.stoppable(t))) t--;
    const prevKey = this.lineKey(t);
    while (t > 0 && (this.lineKey(t - 1) === prevKey || !this.stoppable(t - 1))) t--;
    while (t < start && !this.stoppable(t)) t++;
    this.pauseAt(t, 'step');
  }

  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    this.sendResponse(response);
    this.runBackward(this.position, () => false);
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = { threads: [new Thread(THREAD, 'transaction group')] };
    this.sendResponse(response);
  }

  private sourceOf(file: string | undefined): Source | undefined {
    return file ? new Source(basename(file), file) : undefined;
  }

  /** A short name for a program: its app and kind, or the logic sig's transaction. */
  private programName(frame: ProgramFrame): string {
    if (frame.kind === 'logicsig') return `logic sig of txn ${frame.path.join('.')}`;
    return `app ${frame.appId ?? '(new)'} ${frame.kind}`;
  }

  /**
   * The frame of a program with no TEAL file (an app the launch did not name, a trace without
   * sources): its source is the program's disassembly, served by `source` requests, at the line
   * of the pc, so the editor shows the instruction instead of "Unknown Source". Without the
   * program bytes the source is only a name saying so.
   */
  private disassembledFrame(id: number, label: string, frame: ProgramFrame, pc: number): StackFrame {
    const d = this.disassemblyOf(frame);
    if (!d) {
      const sf = new StackFrame(id, label, new Source(`${this.programName(frame)} (no source or program bytes; pc ${pc})`), 0, 0);
      sf.presentationHint = 'subtle';
      return sf;
    }
    const line = d.lineOfPc.get(pc) ?? 0;
    const source = new Source(`${this.programName(frame)} (disassembled).teal`, undefined, frame.id + 1, 'disassembled from the program bytes');
    return new StackFrame(id, label, source, this.convertDebuggerLineToClient(line), this.convertDebuggerColumnToClient(0));
  }

  private disassemblyOf(frame: ProgramFrame): { text: string; lineOfPc: Map<number, number> } | undefined {
    const cached = this.disassemblies.get(frame.id);
    if (cached !== undefined) return cached ?? undefined;
    const bytes = frame.source?.bytes;
    if (!bytes) return undefined;
    this.disassemblies.set(frame.id, null); // bytes that do not disassemble are tried once
    try {
      const d = disassembleDetailed(bytes, { strictTargets: false, methodSignatures: methodSignaturesIn(frame.source?.lines) });
      const header = `// ${this.programLabel(frame)}: no TEAL file, disassembled from the program bytes\n`;
      const found = { text: header + d.text, lineOfPc: new Map(d.lines.map((l) => [l.pc, l.line + 1])) };
      this.disassemblies.set(frame.id, found);
      return found;
    } catch {
      return undefined;
    }
  }

  protected override sourceRequest(response: DebugProtocol.SourceResponse, args: DebugProtocol.SourceArguments): void {
    const ref = args.source?.sourceReference ?? args.sourceReference;
    const frame = this.run?.frames[ref - 1];
    const d = frame ? this.disassemblyOf(frame) : undefined;
    if (!d)
      return this.sendErrorResponse(response, {
        id: 5,
        format: 'no such source: only disassemblies of programs without a TEAL file are served',
        showUser: false,
      });
    response.body = { content: d.text, mimeType: 'text/x-teal' };
    this.sendResponse(response);
  }

  private programLabel(frame: ProgramFrame): string {
    const where = frame.path.map((p, i) => (i === 0 ? `txn ${p}` : `inner ${p}`)).join(' → ');
    return `${where} ${frame.kind === 'logicsig' ? 'logic sig' : `${frame.kind} program${frame.appId !== undefined ? ` (app ${frame.appId})` : ''}`}`;
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse): void {
    const run = this.run;
    if (!run) {
      response.body = { stackFrames: [], totalFrames: 0 };
      return this.sendResponse(response);
    }
    this.frameInfo.clear();
    const frames: DebugProtocol.StackFrame[] = [];
    const chain = run.frameChain(this.position);
    let id = 1;
    for (let k = chain.length - 1; k >= 0; k--) {
      const { frame, step } = chain[k]!;
      if (frame.source?.userMap) {
        // A program compiled from Algorand Python / TypeScript: one frame per subroutine level,
        // named by the compiler, at its line in the user's source (TEAL where the map has none).
        const levels = run.subroutines(run.position(frame.id, step));
        for (let l = levels.length - 1; l >= 0; l--) {
          const level = levels[l]!;
          const pc = frame.steps[level.step]!.pc;
          const loc = run.location(frame, pc) ?? run.tealLocation(frame, pc);
          const src = this.sourceOf(loc?.file);
          const sf = (
            src
              ? new StackFrame(
                  id,
                  `${level.name} @ pc ${pc} — ${this.programLabel(frame)}`,
                  src,
                  loc ? this.convertDebuggerLineToClient(loc.line) : 0,
                  loc ? this.convertDebuggerColumnToClient(loc.column) : 0,
                )
              : this.disassembledFrame(id, `${level.name} @ pc ${pc} — ${this.programLabel(frame)}`, frame, pc)
          ) as DebugProtocol.StackFrame;
          sf.instructionPointerReference = addressOf(frame.id, pc);
          frames.push(sf);
          this.frameInfo.set(id++, { position: run.position(frame.id, level.step), frame, step: level.step });
        }
        continue;
      }
      const pc = frame.steps[step]!.pc;
      const loc = run.location(frame, pc);
      const src = this.sourceOf(loc?.file);
      // Without the program bytes the op is unknown: the pc alone (not "pc 1 @ pc 1").
      const label = `${frame.ops[step] ? `${frame.ops[step]!.op.name} @ ` : ''}pc ${pc} — ${this.programLabel(frame)}`;
      const sf = (
        src
          ? new StackFrame(id, label, src, loc ? this.convertDebuggerLineToClient(loc.line) : 0, loc ? this.convertDebuggerColumnToClient(loc.column) : 0)
          : this.disassembledFrame(id, label, frame, pc)
      ) as DebugProtocol.StackFrame;
      sf.instructionPointerReference = addressOf(frame.id, pc);
      frames.push(sf);
      this.frameInfo.set(id++, { position: run.position(frame.id, step), frame, step });
      if (loc?.definition) {
        // The macro body line the instruction came from, as a related frame under the use site.
        const d = loc.definition;
        const line = frame.source?.lines?.[loc.line]?.trim();
        const df = new StackFrame(
          id,
          `#define body${line ? ` (expanded at "${line}")` : ''}`,
          this.sourceOf(d.file),
          this.convertDebuggerLineToClient(d.line),
          this.convertDebuggerColumnToClient(d.column),
        ) as DebugProtocol.StackFrame;
        df.presentationHint = 'label';
        frames.push(df);
        this.frameInfo.set(id++, { position: run.position(frame.id, step), frame, step });
      }
    }
    const top = chain[0]?.frame;
    if (top) {
      const txnIndex = top.path[0]!;
      const tf = new StackFrame(id, `txn ${txnIndex} (${String(run.txns[txnIndex]?.type ?? '?')})`) as DebugProtocol.StackFrame;
      tf.presentationHint = 'label';
      frames.push(tf);
      this.frameInfo.set(id++, { position: this.position, txnPath: [txnIndex] });
      const gf = new StackFrame(id, `group of ${run.txns.length} transaction${run.txns.length === 1 ? '' : 's'}`) as DebugProtocol.StackFrame;
      gf.presentationHint = 'label';
      frames.push(gf);
      this.frameInfo.set(id++, { position: this.position });
    }
    response.body = { stackFrames: frames, totalFrames: frames.length };
    this.sendResponse(response);
  }

  private valueVar(name: string, v: DebugValue, evaluateName?: string): DebugProtocol.Variable {
    const views = typedViews(v);
    const ref = this.vars.create(() => views.map((x) => ({ name: x.label, value: x.text, variablesReference: 0 })));
    return { name, value: formatDebugValue(v), type: avmTypeName(v), variablesReference: ref, ...(evaluateName ? { evaluateName } : {}) };
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    const run = this.run!;
    const info = this.frameInfo.get(args.frameId) ?? { position: this.position };
    const snap = run.snapshot(info.frame ? info.position : this.position);
    const scopes: DebugProtocol.Scope[] = [];
    if (info.frame) {
      scopes.push(
        new Scope(
          `Stack (${snap.stack.length})`,
          this.vars.create(() => this.stackVars(snap)),
          false,
        ),
      );
      scopes.push(
        new Scope(
          'Scratch',
          this.vars.create(() =>
            [...snap.scratch.entries()].sort((a, b) => a[0] - b[0]).map(([slot, v]) => this.valueVar(String(slot), v, `scratch[${slot}]`)),
          ),
          false,
        ),
      );
    }
    scopes.push(
      new Scope(
        'Transaction',
        this.vars.create(() => this.txnVars(snap.frame.txn)),
        true,
      ),
    );
    scopes.push(
      new Scope(
        'State (before → now)',
        this.vars.create(() => this.stateVars(snap)),
        false,
      ),
    );
    scopes.push(
      new Scope(
        `Logs (${snap.logs.length}${snap.logsExact ? '' : ', final'})`,
        this.vars.create(() => snap.logs.map((l, i) => this.valueVar(String(i), l, `logs[${i}]`))),
        false,
      ),
    );
    scopes.push(
      new Scope(
        'Budget',
        this.vars.create(() => this.budgetVars(snap)),
        false,
      ),
    );
    response.body = { scopes };
    this.sendResponse(response);
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    const provider = this.vars.get(args.variablesReference);
    response.body = { variables: provider ? provider() : [] };
    this.sendResponse(response);
  }

  private stackVars(snap: ReplaySnapshot): DebugProtocol.Variable[] {
    // Top of the stack first, named by its negative index as watch expressions read it.
    const out: DebugProtocol.Variable[] = [];
    for (let i = snap.stack.length - 1; i >= 0; i--) {
      const neg = i - snap.stack.length;
      out.push(this.valueVar(`[${neg}]`, snap.stack[i]!, `stack[${neg}]`));
    }
    return out;
  }

  private txnVars(txn: Record<string, unknown>): DebugProtocol.Variable[] {
    const render = (v: unknown): string => {
      if (typeof v === 'string' && /^[A-Za-z0-9+/]+=*$/.test(v) && v.length === 44) {
        try {
          return encodeAddress(fromBase64(v));
        } catch {
          return v;
        }
      }
      if (v instanceof Uint8Array) return v.length === 32 ? encodeAddress(v) : formatDebugValue(v);
      if (typeof v === 'bigint') return v.toString();
      return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x instanceof Uint8Array ? toHex(x) : x));
    };
    return Object.entries(txn).map(([k, v]) => {
      if (Array.isArray(v)) {
        const items = v;
        return {
          name: TXN_FIELDS[k] ?? k,
          value: `[${items.length}]`,
          variablesReference: this.vars.create(() =>
            items.map((x, i) => ({
              name: String(i),
              value: typeof x === 'string' && k === 'apaa' ? formatDebugValue(fromBase64(x)) : render(x),
              variablesReference: 0,
            })),
          ),
        };
      }
      return { name: TXN_FIELDS[k] ?? k, value: render(v), variablesReference: 0 };
    });
  }

  private stateVars(snap: ReplaySnapshot): DebugProtocol.Variable[] {
    const show = (e: { before?: DebugValue; now?: DebugValue }) =>
      `${e.before === undefined ? '(none)' : formatDebugValue(e.before)} → ${e.now === undefined ? '(deleted)' : formatDebugValue(e.now)}${e.before !== undefined && e.now !== undefined && formatDebugValue(e.before) === formatDebugValue(e.now) ? ' (unchanged)' : ''}`;
    const entries = (m: Map<string, { key: Uint8Array; before?: DebugValue; now?: DebugValue }>, kind: string, appId: bigint) =>
      [...m.values()].map((e) => ({
        name: formatDebugValue(e.key),
        value: show(e),
        variablesReference:
          e.now !== undefined ? this.vars.create(() => typedViews(e.now!).map((x) => ({ name: x.label, value: x.text, variablesReference: 0 }))) : 0,
        evaluateName: `app[${appId}].${kind}[0x${toHex(e.key)}]`,
      }));
    return [...snap.apps.values()].map((app) => ({
      name: `app ${app.appId}`,
      value: `${app.global.size} global, ${[...app.local.values()].reduce((n, m) => n + m.size, 0)} local, ${app.box.size} box`,
      variablesReference: this.vars.create(() => [
        { name: 'global', value: `${app.global.size} keys`, variablesReference: this.vars.create(() => entries(app.global, 'global', app.appId)) },
        {
          name: 'local',
          value: `${app.local.size} accounts`,
          variablesReference: this.vars.create(() =>
            [...app.local.entries()].map(([acct, m]) => ({
              name: acct,
              value: `${m.size} keys`,
              variablesReference: this.vars.create(() => entries(m, `local["${acct}"]`, app.appId)),
            })),
          ),
        },
        { name: 'box', value: `${app.box.size} boxes`, variablesReference: this.vars.create(() => entries(app.box, 'box', app.appId)) },
      ]),
    }));
  }

  private budgetVars(snap: ReplaySnapshot): DebugProtocol.Variable[] {
    const used = snap.budgetUsed;
    const total = snap.budgetTotal;
    return [
      { name: 'used', value: used === undefined ? 'unknown (program bytes not available)' : String(used), variablesReference: 0 },
      { name: 'left', value: used === undefined || total === undefined ? 'unknown' : String(total - used), variablesReference: 0 },
      {
        name: 'pool',
        value: total === undefined ? 'unknown' : `${total} (${snap.frame.kind === 'logicsig' ? 'logic signatures' : 'app calls'} of the group)`,
        variablesReference: 0,
      },
      { name: 'pc', value: String(snap.pc), variablesReference: 0 },
    ];
  }

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    const run = this.run;
    if (!run) return this.sendErrorResponse(response, { id: 2, format: 'not debugging anything yet', showUser: false });
    const info = args.frameId !== undefined ? this.frameInfo.get(args.frameId) : undefined;
    const snap = run.snapshot(info?.frame ? info.position : this.position);
    let expr = args.expression.trim();
    if (args.context === 'hover') {
      const hover = this.hoverExpression(expr, snap);
      if (!hover) return this.sendErrorResponse(response, { id: 3, format: 'no value', showUser: false });
      expr = hover;
    }
    try {
      const r = evaluateConsole(expr, { snap, group: run.txns });
      if ('verdict' in r) {
        response.body = { result: String(r.verdict), type: 'bool', variablesReference: 0 };
      } else if ('absent' in r) {
        response.body = { result: r.absent, variablesReference: 0 };
      } else {
        const v = this.valueVar(expr, r.value);
        response.body = { result: v.value, type: v.type, variablesReference: v.variablesReference };
      }
      this.sendResponse(response);
    } catch (e) {
      this.sendErrorResponse(response, { id: 4, format: (e as Error).message.replace(/[{}]/g, ''), showUser: false });
    }
  }

  /** What a hovered word means while paused: a state key of this app, a scratch slot, or a watch. */
  private hoverExpression(word: string, snap: ReplaySnapshot): string | undefined {
    if (/^(stack|scratch|app|global|box|local|logs)\b/.test(word) || word === 'pc' || word === 'budget') return word;
    const app = snap.frame.appId !== undefined ? snap.apps.get(snap.frame.appId) : undefined;
    // A macro whose body is one string (`#define COUNT "count"`) stands for that key.
    const macro = snap.frame.source?.lines?.map((l) => /^\s*#define\s+(\S+)\s+"((?:[^"\\]|\\.)*)"\s*(?:\/\/.*)?$/.exec(l)).find((m) => m?.[1] === word);
    const text = macro ? macro[2]! : word.replace(/^"|"$/g, '');
    const hex = toHex(utf8(text));
    if (app?.global.has(hex)) return `global["${text}"]`;
    if (app?.box.has(hex)) return `box["${text}"]`;
    if (/^\d+$/.test(word) && Number(word) < 256 && snap.op && /^(load|store)$/.test(snap.op.op.name)) return `scratch[${word}]`;
    return undefined;
  }

  protected override disassembleRequest(response: DebugProtocol.DisassembleResponse, args: DebugProtocol.DisassembleArguments): void {
    const run = this.run;
    const at = parseAddress(args.memoryReference);
    const frame = at && run?.frames[at.frame];
    const bytes = frame?.source?.bytes;
    if (!run || !at || !frame || !bytes) {
      response.body = { instructions: [] };
      return this.sendResponse(response);
    }
    let dis: ReturnType<typeof disassembleDetailed> | undefined;
    try {
      dis = disassembleDetailed(bytes, { strictTargets: false, methodSignatures: methodSignaturesIn(frame.source?.lines) });
    } catch {
      dis = undefined;
    }
    const text = dis?.text.split('\n') ?? [];
    const list = dis?.lines ?? [];
    let base = list.findIndex((l) => l.pc >= at.pc + (args.offset ?? 0));
    if (base < 0) base = list.length;
    const start = base + (args.instructionOffset ?? 0);
    const instructions: DebugProtocol.DisassembledInstruction[] = [];
    for (let i = start; i < start + args.instructionCount; i++) {
      const l = list[i];
      if (!l) {
        // Outside the program: VS Code wants exactly the count it asked for.
        instructions.push({
          address: addressOf(frame.id, Math.max(0, i < 0 ? 0 : bytes.length + (i - list.length))),
          instruction: '',
          presentationHint: 'invalid',
        });
        continue;
      }
      const loc = run.location(frame, l.pc);
      const ins: DebugProtocol.DisassembledInstruction = { address: addressOf(frame.id, l.pc), instruction: text[l.line]?.trim() ?? '' };
      if (loc?.file) {
        ins.location = new Source(basename(loc.file), loc.file);
        ins.line = this.convertDebuggerLineToClient(loc.line);
      }
      instructions.push(ins);
    }
    response.body = { instructions };
    this.sendResponse(response);
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse): void {
    const run = this.run!;
    const f = run.failure;
    const snap = run.snapshot(this.position);
    const operands = run.operands(this.position);
    const loc = run.location(snap.frame, snap.pc);
    const opName = snap.op?.op.name ?? `pc ${snap.pc}`;
    const where = loc
      ? `${loc.file ? basename(loc.file) : 'line'}:${loc.line + 1}${loc.definition ? ` (macro body at line ${loc.definition.line + 1})` : ''}`
      : `pc ${snap.pc}`;
    response.body = {
      exceptionId: opName,
      description: `${opName} failed: ${firstLine(f?.message ?? 'the program rejected')}; operands ${operands.length ? operands.map(formatDebugValue).join(', ') : '(none)'}`,
      breakMode: 'always',
      details: {
        message: f?.message ?? '',
        typeName: opName,
        stackTrace: [
          `at ${where} pc ${snap.pc}: ${opName} ${operands.map(formatDebugValue).join(' ')}`,
          ...(loc?.definition ? [`  expanded from the #define body at line ${loc.definition.line + 1}`] : []),
          `  in ${this.programLabel(snap.frame)}`,
        ].join('\n'),
      },
    };
    this.sendResponse(response);
  }

  private failureText(): string {
    const run = this.run!;
    const snap = run.snapshot(this.position);
    const operands = run.operands(this.position);
    const op = snap.op?.op.name ?? `pc ${snap.pc}`;
    return `${op} failed (operands: ${operands.length ? operands.map(formatDebugValue).join(', ') : 'none'}): ${firstLine(run.failure?.message ?? '')}`;
  }

  protected override customRequest(command: string, response: DebugProtocol.Response, args?: unknown): void {
    // `tealworks/position`: where the session is paused, for tools and tests.
    if (command === DAP_POSITION_REQUEST && this.run) {
      const snap = this.run.snapshot(this.position);
      const body: DapPosition = { position: this.position, pc: snap.pc, frame: snap.frame.id, path: snap.frame.path, reason: this.stopReason };
      response.body = body;
      return this.sendResponse(response);
    }
    if (command === DAP_EXPORT_TRACE_REQUEST && this.run) {
      const target = (args as { path?: unknown } | undefined)?.path;
      if (typeof target !== 'string' || !target)
        return this.sendErrorResponse(response, { id: 5, format: 'exportTrace needs a "path" for the .trace.avm.json file', showUser: true });
      try {
        response.body = exportRun(this.run, target);
        return this.sendResponse(response);
      } catch (e) {
        return this.sendErrorResponse(response, { id: 6, format: `cannot export the run: ${(e as Error).message.replace(/[{}]/g, '')}`, showUser: true });
      }
    }
    super.customRequest(command, response, args);
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse): void {
    this.sendResponse(response);
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.sendResponse(response);
    this.sendEvent(new TerminatedEvent());
  }
}

/**
 * Disassembly addresses: the program's frame in the high bits, the pc in the low 24, so each
 * program of the run has its own address space (the AVM has no shared memory).
 */
export function addressOf(frame: number, pc: number): string {
  return '0x' + (BigInt(frame) * 0x1000000n + BigInt(pc)).toString(16);
}

export function parseAddress(ref: string): { frame: number; pc: number } | undefined {
  try {
    const v = BigInt(ref);
    return { frame: Number(v / 0x1000000n), pc: Number(v % 0x1000000n) };
  } catch {
    return undefined;
  }
}

function firstLine(s: string): string {
  return s.split('\n')[0]!;
}

export { LaunchError };
