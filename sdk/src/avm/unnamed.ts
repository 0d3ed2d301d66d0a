import type { Transaction } from '../txn/types.js';
import type { AvmLimits, UnnamedResources } from './context.js';
import type { LedgerView } from './ledger-view.js';
import { accountKey, appAddress, boxKey, pairKey, APP_ADDRESS_AVAILABLE_VERSION, SHARED_RESOURCES_VERSION } from './resources.js';
import { bytesEq } from './value.js';

/**
 * Simulate's `allow-unnamed-resources`: programs may touch resources no transaction names, as long
 * as the group could have named them (the reference simulator's rules, protocol.md §2.7 and
 * node-service simulate). Each access is recorded where it would have to be named: per top-level
 * transaction when no program on the call stack is v9+ (no group sharing), otherwise for the group.
 * Boxes, holdings and locals are always the group's. The report also says how many extra empty box
 * references the group needs for the I/O it did.
 */

interface BoxStat {
  app: bigint;
  name: Uint8Array;
  /** Bytes the box held when first touched: the read budget it used. */
  readSize: number;
  /** The box belongs to an app created in this group (its id cannot be named ahead of time). */
  newApp: boolean;
}

const ceilDiv = (a: number, b: number): number => Math.ceil(a / b);
const sat = (n: number): number => (n < 0 ? 0 : n);

/** Unnamed resources reached by one transaction or by the group, bounded by what could still be named. */
export class ResourceTracker implements UnnamedResources {
  accounts = new Map<string, Uint8Array>();
  assets = new Set<bigint>();
  apps = new Set<bigint>();
  boxes = new Map<string, BoxStat>();
  holdings = new Map<string, { account: Uint8Array; asset: bigint }>();
  locals = new Map<string, { account: Uint8Array; app: bigint }>();
  extraBoxRefs = 0;
  perTxn?: UnnamedResources[];

  maxAccounts = 0;
  maxAssets = 0;
  maxApps = 0;
  maxBoxes = 0;
  maxTotalRefs = 0;
  maxCrossProducts = 0;
  /** Highest dirty-byte count seen: the write budget the group needs throughout. */
  private maxWriteBudget = 0;
  /** I/O left (or missing, when negative) after the named boxes and large programs were read. */
  private initialReadSurplus = 0;
  /** Read budget that large programs of unnamed apps consume. */
  readonly appReadBudget = new Map<bigint, number>();

  static forTxn(txn: Transaction, l: AvmLimits): ResourceTracker {
    const t = new ResourceTracker();
    const f = txn.appCall;
    if (!f) return t;
    const accts = f.accounts.length;
    const apps = f.foreignApps.length;
    const assets = f.foreignAssets.length;
    const boxes = f.boxes.length;
    // An unknown account might be an app account, which a foreign app would make available too.
    t.maxAccounts = l.maxAppTxnForeignAccounts + l.maxAppTxnForeignApps - accts - apps;
    t.maxAssets = l.maxAppTxnForeignAssets - assets;
    t.maxApps = l.maxAppTxnForeignApps - apps;
    t.maxBoxes = l.txnLimits.maxAppBoxReferences - boxes;
    t.maxTotalRefs = l.maxAppTotalTxnReferences - accts - assets - apps - boxes;
    return t;
  }

  private refCount(): number {
    return this.accounts.size + this.assets.size + this.apps.size + this.boxCount();
  }
  private boxCount(): number {
    return this.boxes.size + this.extraBoxRefs;
  }
  private full(size: number, max: number): boolean {
    return size >= max || this.refCount() >= this.maxTotalRefs;
  }

  hasAccount(addr: Uint8Array, version: number): boolean {
    if (this.accounts.has(accountKey(addr))) return true;
    if (version >= APP_ADDRESS_AVAILABLE_VERSION) for (const id of this.apps) if (bytesEq(appAddress(id), addr)) return true;
    return false;
  }
  addAccount(addr: Uint8Array): boolean {
    if (this.full(this.accounts.size, this.maxAccounts)) return false;
    this.accounts.set(accountKey(addr), addr);
    return true;
  }
  /** One fewer slot of this kind for the group, because a transaction's own tracker used it. */
  takeAccountSlot(): boolean {
    if (this.full(this.accounts.size, this.maxAccounts)) return false;
    this.maxAccounts--;
    this.maxTotalRefs--;
    return true;
  }
  addAsset(id: bigint): boolean {
    if (this.full(this.assets.size, this.maxAssets)) return false;
    this.assets.add(id);
    return true;
  }
  takeAssetSlot(): boolean {
    if (this.full(this.assets.size, this.maxAssets)) return false;
    this.maxAssets--;
    this.maxTotalRefs--;
    return true;
  }
  addApp(id: bigint, version: number): boolean {
    if (this.apps.size >= this.maxApps) return false;
    // Naming the app names its account too (v7+), so a separately recorded account is redundant.
    if (version >= APP_ADDRESS_AVAILABLE_VERSION) this.accounts.delete(accountKey(appAddress(id)));
    if (this.refCount() >= this.maxTotalRefs) return false;
    this.apps.add(id);
    return true;
  }
  takeAppSlot(): boolean {
    if (this.full(this.apps.size, this.maxApps)) return false;
    this.maxApps--;
    this.maxTotalRefs--;
    if (this.maxAccounts > 0) this.maxAccounts--;
    return true;
  }
  /** Gives a slot back after a resource moved from the group's list to a transaction's. */
  returnSlot(kind: 'account' | 'asset' | 'app'): void {
    if (kind === 'account') this.maxAccounts++;
    else if (kind === 'asset') this.maxAssets++;
    else this.maxApps++;
    this.maxTotalRefs++;
  }

  addBox(stat: BoxStat, bytesPerRef: number): boolean {
    const key = boxKey(stat.app, stat.name);
    this.boxes.set(key, stat);
    if (!this.reconcileReadBudget(bytesPerRef, true)) {
      this.boxes.delete(key);
      return false;
    }
    return true;
  }
  private roomForBoxRefs(n: number): boolean {
    return n <= this.maxBoxes - this.boxCount() && n <= this.maxTotalRefs - this.refCount();
  }
  /** Records the read surplus (or deficit) the named references left; a deficit needs empty refs. */
  ioSurplus(amount: number, bytesPerRef: number): boolean {
    this.initialReadSurplus = amount;
    if (amount > 0) return true;
    const refs = ceilDiv(-amount, bytesPerRef);
    if (!this.roomForBoxRefs(refs)) return false;
    this.extraBoxRefs += refs;
    return true;
  }
  addRefsForWriteBudget(used: number, namedBudget: number, bytesPerRef: number): boolean {
    const budget = namedBudget + this.boxCount() * bytesPerRef;
    if (used > budget) {
      const refs = ceilDiv(used - budget, bytesPerRef);
      if (!this.roomForBoxRefs(refs)) return false;
      this.extraBoxRefs += refs;
    }
    if (this.maxWriteBudget < used) this.maxWriteBudget = used;
    return true;
  }
  private readBudget(bytesPerRef: number): number {
    return sat(this.boxCount() * bytesPerRef + this.initialReadSurplus);
  }
  private usedReadBudget(): number {
    let n = 0;
    for (const b of this.boxes.values()) n += b.readSize;
    for (const r of this.appReadBudget.values()) n += r;
    return n;
  }
  reconcileReadBudget(bytesPerRef: number, mayDropEmptyRef: boolean): boolean {
    const used = this.usedReadBudget();
    let budget = this.readBudget(bytesPerRef);
    // A newly named box brings its own budget, which may make an earlier empty ref unnecessary.
    if (mayDropEmptyRef && this.extraBoxRefs > 0 && sat(budget - used) >= bytesPerRef && sat(budget - this.maxWriteBudget) >= bytesPerRef) {
      this.extraBoxRefs--;
      budget = sat(budget - bytesPerRef);
    }
    if (this.boxCount() > this.maxBoxes || this.refCount() > this.maxTotalRefs) return false;
    if (used > budget) {
      const refs = ceilDiv(used - budget, bytesPerRef);
      if (!this.roomForBoxRefs(refs)) return false;
      this.extraBoxRefs += refs;
    }
    return true;
  }
  maxPossibleUnnamedBoxes(): number {
    return Math.min(this.maxBoxes, this.maxTotalRefs - this.accounts.size - this.assets.size - this.apps.size);
  }

  addCrossProduct(kind: 'holding' | 'local', account: Uint8Array, id: bigint): boolean {
    if (this.holdings.size + this.locals.size >= this.maxCrossProducts) return false;
    if (kind === 'holding') this.holdings.set(pairKey(account, id), { account, asset: id });
    else this.locals.set(pairKey(account, id), { account, app: id });
    return true;
  }

  /** Boxes of apps created in the group cannot be named ahead of time: an empty ref stands in. */
  simplified(): ResourceTracker {
    for (const [k, b] of this.boxes) {
      if (!b.newApp) continue;
      this.extraBoxRefs++;
      this.boxes.delete(k);
    }
    return this;
  }

  isEmpty(): boolean {
    return !this.accounts.size && !this.assets.size && !this.apps.size && !this.boxes.size && !this.holdings.size && !this.locals.size && !this.extraBoxRefs;
  }
}

/**
 * The group's unnamed-resource policy: one tracker per top-level transaction (for programs without
 * group sharing) and one for the group, sized by what the group's transactions could still name.
 */
export class UnnamedPolicy {
  readonly group: ResourceTracker;
  readonly perTxn: ResourceTracker[];
  private readonly startingBoxes: number;
  private readonly bytesPerRef: number;
  /** Top-level transaction being evaluated. */
  rootIndex = 0;
  /** Version of the program that started most recently, and whether any frame on its stack is v9+. */
  private version = 0;
  private sharing = false;

  constructor(
    txns: readonly Transaction[],
    private readonly limits: AvmLimits,
    private readonly ledger: LedgerView,
  ) {
    this.perTxn = txns.map((t) => ResourceTracker.forTxn(t, limits));
    this.bytesPerRef = limits.bytesPerBoxReference;
    let nonApps = 0;
    let boxes = 0;
    for (const t of txns) {
      if (t.type !== 'appl') nonApps++;
      boxes += t.appCall?.boxes.length ?? 0;
    }
    this.startingBoxes = boxes;
    const g = new ResourceTracker();
    const foreignApps = limits.maxAppTxnForeignApps;
    // Cross products one call could name: (apps + the called app) × (their accounts + sender),
    // less the ones always available.
    const crossPerCall = foreignApps * (foreignApps + 2);
    const unused = limits.maxTxGroupSize - txns.length;
    g.maxCrossProducts = crossPerCall * (limits.maxTxGroupSize - nonApps);
    // Missing group members could be empty app calls carrying references.
    g.maxAccounts = unused * (limits.maxAppTxnForeignAccounts + foreignApps);
    g.maxAssets = unused * limits.maxAppTxnForeignAssets;
    g.maxApps = unused * foreignApps;
    g.maxBoxes = unused * limits.txnLimits.maxAppBoxReferences;
    g.maxTotalRefs = unused * limits.maxAppTotalTxnReferences;
    for (const t of this.perTxn) {
      g.maxAccounts += t.maxAccounts;
      g.maxAssets += t.maxAssets;
      g.maxApps += t.maxApps;
      g.maxBoxes += t.maxBoxes;
      g.maxTotalRefs += t.maxTotalRefs;
    }
    g.perTxn = this.perTxn;
    this.group = g;
  }

  /** Called as each app program starts: sharing applies if any frame on the stack is v9+. */
  beginProgram(version: number, callers: Iterable<number>): void {
    this.version = version;
    let sharing = version >= SHARED_RESOURCES_VERSION;
    if (!sharing) for (const v of callers) if (v >= SHARED_RESOURCES_VERSION) sharing = true;
    this.sharing = sharing;
  }

  private get own(): ResourceTracker {
    return this.perTxn[this.rootIndex]!;
  }

  availableAccount(addr: Uint8Array): boolean {
    if (this.sharing) {
      for (const t of this.perTxn) if (t.hasAccount(addr, this.version)) return true;
      if (this.group.hasAccount(addr, this.version)) return true;
      return this.group.addAccount(addr);
    }
    const own = this.own;
    if (own.hasAccount(addr, this.version)) return true;
    if (!own.addAccount(addr)) return false;
    const k = accountKey(addr);
    if (this.group.accounts.delete(k)) this.group.returnSlot('account');
    if (this.group.takeAccountSlot()) return true;
    own.accounts.delete(k);
    return false;
  }

  availableAsset(id: bigint): boolean {
    if (this.sharing) {
      for (const t of this.perTxn) if (t.assets.has(id)) return true;
      if (this.group.assets.has(id)) return true;
      return this.group.addAsset(id);
    }
    const own = this.own;
    if (own.assets.has(id)) return true;
    if (!own.addAsset(id)) return false;
    if (this.group.assets.delete(id)) this.group.returnSlot('asset');
    if (this.group.takeAssetSlot()) return true;
    own.assets.delete(id);
    return false;
  }

  availableApp(id: bigint): boolean {
    if (this.sharing) {
      for (const t of this.perTxn) if (t.apps.has(id)) return true;
      if (this.group.apps.has(id)) return true;
    } else if (this.own.apps.has(id)) return true;
    const undo = this.chargeAppRead(id);
    if (!undo) return false;
    if (this.sharing) {
      if (this.group.addApp(id, this.version)) return true;
      undo();
      return false;
    }
    const own = this.own;
    if (!own.addApp(id, this.version)) {
      undo();
      return false;
    }
    if (this.group.apps.delete(id)) this.group.returnSlot('app');
    if (this.group.takeAppSlot()) return true;
    own.apps.delete(id);
    undo();
    return false;
  }

  /** A large program of a newly reached app costs read budget; returns an undo, or undefined if unaffordable. */
  private chargeAppRead(id: bigint): (() => void) | undefined {
    const g = this.group;
    const none = (): void => {};
    if (g.appReadBudget.has(id)) return none;
    const p = this.ledger.appParams(id);
    if (!p) return none;
    const extra = sat(
      p.approvalProgram.length + p.clearStateProgram.length - this.limits.maxAppProgramLen * (1 + this.limits.txnLimits.maxExtraAppProgramPages),
    );
    if (extra === 0) return none;
    const before = g.extraBoxRefs;
    g.appReadBudget.set(id, extra);
    const undo = (): void => {
      g.appReadBudget.delete(id);
      g.extraBoxRefs = before;
    };
    if (!g.reconcileReadBudget(this.bytesPerRef, false)) {
      undo();
      return undefined;
    }
    return undo;
  }

  allowsHolding(account: Uint8Array, asset: bigint): boolean {
    if (this.group.holdings.has(pairKey(account, asset))) return true;
    return this.group.addCrossProduct('holding', account, asset);
  }

  allowsLocal(account: Uint8Array, app: bigint): boolean {
    // An app's own account's local state in that app needs no reference.
    if (bytesEq(appAddress(app), account)) return true;
    if (this.group.locals.has(pairKey(account, app))) return true;
    return this.group.addCrossProduct('local', account, app);
  }

  availableBox(app: bigint, name: Uint8Array, newApp: boolean): boolean {
    if (this.group.boxes.has(boxKey(app, name))) return true;
    const readSize = this.ledger.getBox(app, name)?.length ?? 0;
    return this.group.addBox({ app, name, readSize, newApp }, this.bytesPerRef);
  }

  ioSurplus(amount: number): boolean {
    return this.group.ioSurplus(amount, this.bytesPerRef);
  }

  /** Dirty bytes moved: make sure enough empty refs are counted to cover the high-water mark. */
  reconcileWriteBudget(dirtyBytes: number): boolean {
    return this.group.addRefsForWriteBudget(dirtyBytes, this.startingBoxes * this.bytesPerRef, this.bytesPerRef);
  }

  /** The I/O budget programs run with: every box reference the group could still add. */
  maxPossibleIOBudget(): number {
    return (this.startingBoxes + this.group.maxPossibleUnnamedBoxes()) * this.bytesPerRef;
  }
}
