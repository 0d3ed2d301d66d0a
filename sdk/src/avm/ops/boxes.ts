import { fault } from '../errors.js';
import { defineOp } from './registry.js';
import type { EvalContext } from '../context.js';
import { big, bytesEq, goHex, asIndex } from '../value.js';
import type { StackValue } from '../value.js';
import { boxKey } from '../resources.js';
import { extractCarefully } from './bytes.js';

type U = number | bigint;
type BoxOp = 'create' | 'read' | 'write' | 'delete' | 'resize';

function creatorOf(cx: EvalContext, app: bigint): Uint8Array {
  const p = cx.ledger.appParams(app);
  if (!p) fault(`app ${app} does not exist`);
  return p!.creator;
}

/**
 * An app may always use its own boxes; another app's boxes need `AppForeignBoxReads` (reads) or
 * `AppFamilyBoxAccess` plus the same creator. Boxes of a same-creator app with family access set
 * (own boxes included) behave like state shared across the family, so they get the family
 * re-entrancy guard below.
 */
function authorize(cx: EvalContext, owner: bigint, op: BoxOp): void {
  const ownerParams = cx.ledger.appParams(owner);
  if (!ownerParams) fault(`app ${owner} does not exist`);
  let familyShared = !!ownerParams!.familyBoxAccess;
  if (owner !== cx.appId) {
    const inFamily = bytesEq(creatorOf(cx, cx.appId), ownerParams!.creator);
    const isRead = op === 'read';
    if (!(isRead && ownerParams!.foreignBoxReads) && !(ownerParams!.familyBoxAccess && inFamily)) {
      fault(`${inFamily ? 'family' : 'foreign'} app ${cx.appId} may not ${isRead ? 'read' : 'write'} box of ${owner}`);
    }
    familyShared = familyShared && inFamily;
  }
  if (!familyShared) return;
  if (op !== 'read') checkFamilyReentrancy(cx);
  cx.touchedFamilyShared = true;
}

/**
 * A write to family-shared state fails when an app of another creator sits on the call stack
 * between this frame and a family member that already touched such state: that member is relying
 * on the state staying put across its inner call. Reads stay free, so outside apps can still query
 * the family. Ancestors are suspended, so one pass per frame is enough.
 */
function checkFamilyReentrancy(cx: EvalContext): void {
  if (cx.familyReentrancyChecked) return;
  const mine = creatorOf(cx, cx.appId);
  let seenForeign = false;
  for (let f = cx.caller; f; f = f.caller) {
    if (!bytesEq(creatorOf(f, f.appId), mine)) {
      seenForeign = true;
      continue;
    }
    if (seenForeign && f.touchedFamilyShared) {
      fault(`app ${cx.appId} may not write family-shared box: app ${f.appId} is relying on family state across a foreign call`);
    }
  }
  cx.familyReentrancyChecked = true;
}

function lengthChecks(cx: EvalContext, name: Uint8Array, size: bigint): void {
  if (name.length === 0) fault('box names may not be zero length');
  const maxKey = cx.group.limits.maxAppKeyLen;
  if (name.length > maxKey) fault(`name too long: length was ${name.length}, maximum is ${maxKey}`);
  const maxBox = BigInt(cx.group.limits.maxBoxSize);
  if (size > maxBox) fault(`box size too large: ${size}, maximum is ${maxBox}`);
}

/** Availability, authorization and I/O budget accounting for one box access (box.go's rules). */
function access(cx: EvalContext, app: bigint, name: Uint8Array, op: BoxOp, size: number): Uint8Array | undefined {
  if (cx.clearState) fault('boxes may not be accessed from ClearState program');
  const g = cx.group;
  const key = boxKey(app, name);
  if (!g.available.boxes.has(key)) {
    // An app created in this group has no boxes yet, so each empty reference lets it reach one
    // box without naming it (its id was unknown when the group was signed).
    const newApp = g.available.createdApps.has(app);
    let ok = false;
    if (newApp && g.emptyBoxRefsLeft > 0) {
      g.emptyBoxRefsLeft--;
      ok = true;
    }
    if (!ok && g.unnamedPolicy) ok = g.unnamedPolicy.availableBox(app, name, newApp);
    if (!ok) fault(`invalid Box reference ${goHex(name)}`);
  }
  authorize(cx, app, op);
  const content = cx.ledger.getBox(app, name);
  let verb = 'accessing';
  let dirty = g.dirtyBoxes.has(key);
  switch (op) {
    case 'create':
    case 'write': {
      if (op === 'create') {
        verb = 'creating';
        if (content) {
          if (content.length !== size) fault(`box size mismatch ${content.length} ${size}`);
          return content;
        }
      } else verb = 'writing';
      const writeSize = content ? content.length : size;
      if (!dirty) g.dirtyBytes += writeSize;
      dirty = true;
      break;
    }
    case 'resize':
      verb = 'resizing';
      if (dirty && content) g.dirtyBytes -= content.length;
      g.dirtyBytes += size;
      dirty = true;
      break;
    case 'delete':
      if (dirty && content) g.dirtyBytes -= content.length;
      dirty = false;
      break;
    case 'read':
      break;
  }
  if (dirty) g.dirtyBoxes.add(key);
  else g.dirtyBoxes.delete(key);
  g.available.boxes.add(key);
  const policy = g.unnamedPolicy;
  // Under simulate, I/O may use every box reference the group could still add.
  const budget = policy ? policy.maxPossibleIOBudget() : g.ioBudget;
  if (g.dirtyBytes > budget) fault(`write budget exceeded (${g.dirtyBytes} > ${budget}) while ${verb} box ${goHex(name)}`);
  if (policy && !policy.reconcileWriteBudget(g.dirtyBytes)) fault(`cannot add extra box refs to satisfy write budget of ${g.dirtyBytes} bytes`);
  return content;
}

/** {@link access} for ops that need the box to exist already. */
function existingBox(cx: EvalContext, app: bigint, name: Uint8Array, op: BoxOp, size: number): Uint8Array {
  const content = access(cx, app, name, op, size);
  if (!content) fault(`no such box ${goHex(name)}`);
  return content!;
}

function put(cx: EvalContext, app: bigint, name: Uint8Array, value: Uint8Array): void {
  cx.ledger.putBox(app, name, value);
}

/**
 * The app an app_box_* op addresses, removed from deep in the stack. Unlike box references in a
 * transaction, 0 does not mean the current app here: it names no app, so no reference matches.
 */
function popDeepApp(cx: EvalContext, depth: number): bigint {
  const s = cx.stack;
  const deep = cx.sp - 1 - depth;
  const app = big(s[deep] as U);
  for (let i = deep; i < cx.sp - 1; i++) s[i] = s[i + 1]!;
  cx.sp--;
  return app;
}

type Impl = (cx: EvalContext, app: bigint) => void;
function both(name: string, depth: number, impl: Impl): void {
  defineOp(name, (cx) => impl(cx, cx.appId));
  defineOp(`app_${name}`, (cx) => impl(cx, popDeepApp(cx, depth)));
}

both('box_create', 2, (cx, app) => {
  const s = cx.stack;
  const name = s[cx.sp - 2] as Uint8Array;
  const size = big(s[cx.sp - 1] as U);
  lengthChecks(cx, name, size);
  const existing = access(cx, app, name, 'create', Number(size));
  if (!existing) put(cx, app, name, new Uint8Array(Number(size)));
  cx.sp--;
  s[cx.sp - 1] = existing ? 0 : 1;
});
both('box_extract', 3, (cx, app) => {
  const s = cx.stack;
  const name = s[cx.sp - 3] as Uint8Array;
  const start = s[cx.sp - 2] as U;
  const length = s[cx.sp - 1] as U;
  const end = big(start) + big(length);
  lengthChecks(cx, name, end > 0xffffffffffffffffn ? 0xffffffffffffffffn : end);
  const content = existingBox(cx, app, name, 'read', 0);
  cx.sp -= 2;
  s[cx.sp - 1] = extractCarefully(content, start, length);
});
both('box_replace', 3, (cx, app) => {
  const s = cx.stack;
  const name = s[cx.sp - 3] as Uint8Array;
  const start = s[cx.sp - 2] as U;
  const repl = s[cx.sp - 1] as Uint8Array;
  lengthChecks(cx, name, big(start) + BigInt(repl.length));
  const content = existingBox(cx, app, name, 'write', 0);
  if (start > content.length) fault(`replacement start ${start} beyond length: ${content.length}`);
  const st = Number(start);
  const end = st + repl.length;
  if (end > content.length) fault(`replacement end ${end} beyond original length: ${content.length}`);
  const out = content.slice();
  out.set(repl, st);
  cx.sp -= 3;
  put(cx, app, name, out);
});
both('box_splice', 4, (cx, app) => {
  const s = cx.stack;
  const name = s[cx.sp - 4] as Uint8Array;
  const start = s[cx.sp - 3] as U;
  const olen = s[cx.sp - 2] as U;
  const repl = s[cx.sp - 1] as Uint8Array;
  lengthChecks(cx, name, 0n);
  const c = existingBox(cx, app, name, 'write', 0);
  if (start > c.length) fault(`replacement start ${start} beyond length: ${c.length}`);
  const oend = big(start) + big(olen);
  if (oend > 0xffff_ffff_ffff_ffffn) fault('splice end exceeds uint64');
  if (oend > BigInt(c.length)) fault(`splice end ${oend} beyond original length: ${c.length}`);
  const st = Number(start);
  // The box keeps its size: the replacement must fit in what remains after `start`.
  if (repl.length > c.length - st) fault('splice inserted bytes too long');
  const out = new Uint8Array(c.length);
  out.set(c.subarray(0, st), 0);
  out.set(repl, st);
  const tail = c.subarray(Number(oend));
  out.set(tail.subarray(0, c.length - st - repl.length), st + repl.length);
  cx.sp -= 4;
  put(cx, app, name, out);
});
both('box_del', 1, (cx, app) => {
  const s = cx.stack;
  const name = s[cx.sp - 1] as Uint8Array;
  lengthChecks(cx, name, 0n);
  const content = access(cx, app, name, 'delete', 0);
  if (content) {
    cx.ledger.delBox(app, name);
  }
  s[cx.sp - 1] = content ? 1 : 0;
});
both('box_resize', 2, (cx, app) => {
  const s = cx.stack;
  const name = s[cx.sp - 2] as Uint8Array;
  const size = big(s[cx.sp - 1] as U);
  lengthChecks(cx, name, size);
  const content = existingBox(cx, app, name, 'resize', Number(size));
  const n = Number(size);
  const out = new Uint8Array(n);
  out.set(n > content.length ? content : content.subarray(0, n));
  cx.sp -= 2;
  put(cx, app, name, out);
});
both('box_len', 1, (cx, app) => {
  const s = cx.stack;
  const name = s[cx.sp - 1] as Uint8Array;
  lengthChecks(cx, name, 0n);
  const content = access(cx, app, name, 'read', 0);
  s[cx.sp - 1] = content ? content.length : 0;
  s[cx.sp++] = content ? 1 : 0;
});
both('box_get', 1, (cx, app) => {
  const s = cx.stack;
  const name = s[cx.sp - 1] as Uint8Array;
  lengthChecks(cx, name, 0n);
  const content = access(cx, app, name, 'read', 0);
  s[cx.sp - 1] = content ?? new Uint8Array(0);
  s[cx.sp++] = content ? 1 : 0;
});
both('box_put', 2, (cx, app) => {
  const s = cx.stack;
  const name = s[cx.sp - 2] as Uint8Array;
  const value = s[cx.sp - 1] as Uint8Array;
  lengthChecks(cx, name, BigInt(value.length));
  const content = access(cx, app, name, 'write', value.length);
  cx.sp -= 2;
  if (content && content.length !== value.length) fault(`attempt to box_put wrong size ${content.length} != ${value.length}`);
  put(cx, app, name, value);
});

export const boxIndexOf = (v: StackValue): number => asIndex(v as U);
