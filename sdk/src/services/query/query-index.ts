import { toHex } from '../../encoding/hex.js';
import { appParamsFromCreate, assetParamsFromCreate } from '../../avm/records.js';
import type { Block } from '../../ledger/block.js';
import type { RoundDelta } from '../../ledger/delta.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { AppData, AssetData } from '../../ledger/state.js';
import { OnComplete, type Transaction } from '../../txn/types.js';
import { StateIndex, snapAccount, type TotalsSource } from './state-index.js';
import { TxnIndex, sigTypeOf } from './txn-index.js';

/**
 * The query service's in-memory index: transactions (root and inner rows) and entity state with
 * history, fed one committed block at a time. `attach` reads what the ledger already holds and
 * then follows its change feed.
 */
export class QueryIndex {
  txns = new TxnIndex();
  state = new StateIndex();
  #totals: TotalsSource | undefined;
  #ledger: Ledger | undefined;
  #unsubscribe: (() => void) | undefined;
  /** The ledger's `generation` this index reflects (cheats and reverts change state without a block event). */
  #generation = -1;
  #stale = false;

  constructor(options: { totals?: TotalsSource } = {}) {
    this.#totals = options.totals;
  }

  /** The newest round indexed (0 before the first block): what the query API answers as `current-round`. */
  get latestRound(): bigint {
    return this.txns.headers.length ? this.txns.latestRound : 0n;
  }

  /** Indexes one block; with its delta the entity state follows exactly, round by round. */
  addBlock(block: Block, delta?: RoundDelta): void {
    this.txns.addBlock(block);
    if (delta) this.state.applyDelta(delta, this.#totals);
    this.#noteSigners(block);
  }

  #noteSigners(block: Block): void {
    for (const ct of block.txns) {
      const sig = sigTypeOf(ct.stxn);
      if (!sig) continue;
      const signer = ct.stxn.authAddress?.publicKey ?? ct.stxn.txn.sender.publicKey;
      const rec = this.state.account(toHex(signer));
      if (rec) rec.sigType = sig;
    }
  }

  /**
   * Follows a ledger: indexes its history now and every block it commits from here on. With
   * `lazy`, the history is indexed at the first {@link refresh} (the query service's first request)
   * or the first new block, whichever comes first; rounds before that see current values, as
   * after any rebuild.
   */
  attach(ledger: Ledger, options: { lazy?: boolean } = {}): this {
    this.detach();
    this.#ledger = ledger;
    this.#totals = { schemaTotals: (a) => ledger.state.schemaTotals(a) };
    // Lazy: a devnet that starts on a long chain answers the node API at once; the history is
    // indexed when someone first asks the query service.
    let unbuilt = options.lazy === true;
    if (unbuilt) this.#stale = true;
    else this.rebuild();
    this.#unsubscribe = ledger.onBlock((ev) => {
      if (unbuilt) {
        // First block since a lazy attach: index the history now so later blocks follow exactly.
        unbuilt = false;
        if (this.#stale) {
          this.rebuild();
          return;
        }
      }
      // A block bumps the generation by one; more means a cheat, revert or skipped rounds happened
      // in between: the index is rebuilt by the next request that reads it (refresh), not here.
      if (this.#stale || ev.block.header.round !== this.latestRound + 1n || this.txns.headers.length === 0 || ledger.generation !== this.#generation + 1) {
        this.#stale = true;
        return;
      }
      this.addBlock(ev.block, ev.delta);
      this.#generation = ledger.generation;
    });
    return this;
  }

  /**
   * Rebuilds when the attached ledger was reset or replaced its history behind our back (a reset
   * emits no block event): cheap enough to call before every request.
   */
  refresh(): void {
    const ledger = this.#ledger;
    if (!ledger) return;
    if (
      this.#stale ||
      ledger.latestRound !== this.latestRound ||
      ledger.generation !== this.#generation ||
      ledger.block(ledger.firstRound) !== this.txns.blocks[0]
    )
      this.rebuild();
  }

  detach(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  /**
   * Rebuilds from the attached ledger. Transactions come from every stored block; entity state
   * comes from the ledger's current state, with creation, deletion and opt-in rounds recovered
   * from the transactions (per-round history before this point is not recoverable: older rounds
   * see the current values).
   */
  rebuild(): void {
    const ledger = this.#ledger;
    if (!ledger) return;
    this.#generation = ledger.generation;
    this.#stale = false;
    this.txns = new TxnIndex();
    this.state = new StateIndex();
    const latest = ledger.latestRound;
    for (let r = ledger.firstRound; r <= latest; r++) {
      const b = ledger.block(r);
      this.txns.addBlock(b);
    }
    seedState(this, ledger, latest);
    for (let r = ledger.firstRound; r <= latest; r++) this.#noteSigners(ledger.block(r));
  }
}

interface Derived {
  firstSeen: Map<string, bigint>;
  lastSeen: Map<string, bigint>;
  assetCreated: Map<bigint, { round: bigint; txn: Transaction }>;
  assetDestroyed: Map<bigint, bigint>;
  appCreated: Map<bigint, { round: bigint; txn: Transaction }>;
  appDeleted: Map<bigint, bigint>;
  /** `${hex}/${id}` → first opt-in round and last opt-out round, for holdings and local states. */
  assetIn: Map<string, bigint>;
  assetOut: Map<string, bigint>;
  appIn: Map<string, bigint>;
  appOut: Map<string, bigint>;
}

function derive(index: QueryIndex): Derived {
  const d: Derived = {
    firstSeen: new Map(),
    lastSeen: new Map(),
    assetCreated: new Map(),
    assetDestroyed: new Map(),
    appCreated: new Map(),
    appDeleted: new Map(),
    assetIn: new Map(),
    assetOut: new Map(),
    appIn: new Map(),
    appOut: new Map(),
  };
  // An account whose first appearance is as a sender was funded at genesis.
  const seen = (b: Uint8Array | undefined, round: bigint, asSender = false) => {
    if (!b) return;
    const h = toHex(b);
    if (!d.firstSeen.has(h)) d.firstSeen.set(h, asSender ? 0n : round);
    d.lastSeen.set(h, round);
  };
  for (const e of index.txns.entries) {
    const t = e.txn;
    const r = e.round;
    seen(t.sender.publicKey, r, true);
    seen(t.payment?.receiver.publicKey, r);
    seen(t.payment?.closeRemainderTo?.publicKey, r);
    seen(t.assetTransfer?.receiver.publicKey, r);
    seen(t.assetTransfer?.closeTo?.publicKey, r);
    if (e.ad.createdAssetId) d.assetCreated.set(e.ad.createdAssetId, { round: r, txn: t });
    if (t.assetConfig && t.assetConfig.assetId && !t.assetConfig.params) d.assetDestroyed.set(t.assetConfig.assetId, r);
    if (e.ad.createdAppId) d.appCreated.set(e.ad.createdAppId, { round: r, txn: t });
    if (t.appCall?.onComplete === OnComplete.DeleteApplication && t.appCall.appId) d.appDeleted.set(t.appCall.appId, r);
    const key = (h: Uint8Array, id: bigint) => `${toHex(h)}/${id}`;
    if (t.assetTransfer) {
      const x = t.assetTransfer;
      const k = key(x.receiver.publicKey, x.assetId);
      if (!d.assetIn.has(k)) d.assetIn.set(k, r);
      if (x.closeTo) d.assetOut.set(key((x.assetSender ?? t.sender).publicKey, x.assetId), r);
    }
    if (e.ad.createdAssetId) d.assetIn.set(key(t.sender.publicKey, e.ad.createdAssetId), r);
    if (t.assetConfig && t.assetConfig.assetId && !t.assetConfig.params) {
      const c = d.assetCreated.get(t.assetConfig.assetId);
      if (c) d.assetOut.set(key(c.txn.sender.publicKey, t.assetConfig.assetId), r);
    }
    const app = t.appCall ? t.appCall.appId || e.ad.createdAppId : undefined;
    if (app !== undefined) {
      const k = key(t.sender.publicKey, app);
      const oc = t.appCall!.onComplete;
      if (!d.appIn.has(k) && oc === OnComplete.OptIn) d.appIn.set(k, r);
      if (oc === OnComplete.CloseOut || oc === OnComplete.ClearState) d.appOut.set(k, r);
    }
  }
  return d;
}

function assetFromTxn(id: bigint, t: Transaction): AssetData | undefined {
  const p = t.assetConfig?.params;
  if (!p) return undefined;
  // An absent metadata hash stays empty here (the ledger's record holds 32 zero bytes).
  return { id, ...assetParamsFromCreate(t.sender.publicKey, p), metadataHash: p.metadataHash ?? new Uint8Array(0) };
}

function appFromTxn(id: bigint, t: Transaction): AppData | undefined {
  const a = t.appCall;
  if (!a) return undefined;
  return { id, ...appParamsFromCreate(t.sender.publicKey, a), global: new Map() };
}

function seedState(index: QueryIndex, ledger: Ledger, latest: bigint): void {
  const d = derive(index);
  const st = index.state;
  const totals: TotalsSource = { schemaTotals: (a) => ledger.state.schemaTotals(a) };
  // Gone entities first, from what their creating transactions said.
  for (const [id, c] of d.assetCreated) {
    if (ledger.state.assets.has(id)) continue;
    const params = assetFromTxn(id, c.txn);
    if (!params) continue;
    st.putAsset(id, c.round, params);
    st.putAsset(id, d.assetDestroyed.get(id) ?? latest, undefined);
  }
  for (const [id, c] of d.appCreated) {
    if (ledger.state.apps.has(id)) continue;
    const app = appFromTxn(id, c.txn);
    if (!app) continue;
    st.putApp(id, c.round, app);
    st.putApp(id, d.appDeleted.get(id) ?? latest, undefined);
  }
  for (const [id, a] of ledger.state.assets) st.putAsset(id, d.assetCreated.get(id)?.round ?? 0n, a);
  for (const [id, a] of ledger.state.apps) st.putApp(id, d.appCreated.get(id)?.round ?? 0n, a);
  for (const [hex, a] of ledger.state.accounts) {
    const address = ledger.addressOf(hex).publicKey;
    const round = d.firstSeen.get(hex) ?? 0n;
    st.putAccount(address, round, snapAccount(a, ledger.state.minBalanceOf(a), totals));
    for (const [assetId, h] of a.holdings) st.putHolding(address, assetId, d.assetIn.get(`${hex}/${assetId}`) ?? round, h);
    for (const [appId, kv] of a.locals) st.putLocal(address, appId, d.appIn.get(`${hex}/${appId}`) ?? round, [...kv.values()]);
  }
  // Addresses seen in transactions but absent now were closed.
  for (const [hex, first] of d.firstSeen) {
    if (ledger.state.accounts.has(hex)) continue;
    const address = ledger.addressOf(hex).publicKey;
    const empty = {
      balance: 0n,
      minBalance: 0n,
      status: 0 as const,
      totalAssets: 0,
      totalCreatedAssets: 0,
      totalAppsOptedIn: 0,
      totalCreatedApps: 0,
      totalBoxes: 0n,
      totalBoxBytes: 0n,
      schema: { nui: 0n, nbs: 0n },
      extraPages: 0n,
      incentiveEligible: false,
      lastProposed: 0n,
      lastHeartbeat: 0n,
    };
    st.putAccount(address, first, empty);
    st.putAccount(address, d.lastSeen.get(hex) ?? latest, undefined);
  }
  // Holdings and local states that are gone now: opted in, then closed out, before this start.
  const splitKey = (k: string): [Uint8Array, bigint] => {
    const slash = k.indexOf('/');
    return [ledger.addressOf(k.slice(0, slash)).publicKey, BigInt(k.slice(slash + 1))];
  };
  for (const [k, out] of d.assetOut) {
    const [address, assetId] = splitKey(k);
    if (st.holding(k.slice(0, k.indexOf('/')), assetId)) continue;
    st.putHolding(address, assetId, d.assetIn.get(k) ?? out, { amount: 0n, frozen: false });
    st.putHolding(address, assetId, out, undefined);
  }
  for (const [k, out] of d.appOut) {
    const [address, appId] = splitKey(k);
    if (st.local(k.slice(0, k.indexOf('/')), appId)) continue;
    st.putLocal(address, appId, d.appIn.get(k) ?? out, []);
    st.putLocal(address, appId, out, undefined);
  }
  for (const [key, value] of ledger.state.boxes) {
    const slash = key.indexOf('/');
    const appId = BigInt(key.slice(0, slash));
    const nameHex = key.slice(slash + 1);
    const name = new Uint8Array(nameHex.length / 2);
    for (let i = 0; i < name.length; i++) name[i] = parseInt(nameHex.slice(2 * i, 2 * i + 2), 16);
    st.putBox(appId, name, latest, value);
  }
}
