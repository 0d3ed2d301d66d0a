import type {
  AccountRecord,
  AppParamsRecord,
  AssetHoldingRecord,
  AssetParamsRecord,
  BlockHeaderRecord,
  ChainInfo,
  LedgerView,
  TealValue,
} from '../avm/ledger-view.js';
import type { Transaction } from '../txn/types.js';
import { toHex } from '../encoding/hex.js';
import { countStateValues } from '../avm/records.js';
import { applyTransaction, checkSchemas, finishAppCall, type ApplyContext } from './apply.js';
import type { LedgerState } from './state.js';

/** Block headers the `block` opcode may read, supplied by the ledger. */
export interface HeaderSource {
  header(round: bigint): BlockHeaderRecord | undefined;
}

/**
 * The AVM's window onto the ledger during one round's evaluation: reads and writes go straight to
 * the (undo-logged) state, inner transactions are applied with the same rules as top-level ones.
 */
export class StateView implements LedgerView {
  /** Accounts whose local state an inner app call touched (schema checks after it approves). */
  constructor(
    private readonly st: LedgerState,
    private readonly cx: ApplyContext,
    private readonly info: ChainInfo,
    private readonly headers: HeaderSource,
  ) {}

  chain(): ChainInfo {
    return this.info;
  }

  account(addr: Uint8Array): AccountRecord {
    const a = this.st.get(addr);
    if (!a) {
      return {
        balance: 0n,
        totalNumUint: 0n,
        totalNumByteSlice: 0n,
        totalExtraAppPages: 0n,
        totalAppsCreated: 0n,
        totalAppsOptedIn: 0n,
        totalAssetsCreated: 0n,
        totalAssets: 0n,
        totalBoxes: 0n,
        totalBoxBytes: 0n,
        incentiveEligible: false,
        lastProposed: 0n,
        lastHeartbeat: 0n,
      };
    }
    const s = this.st.schemaTotals(a);
    return {
      balance: a.balance,
      ...(a.authAddr ? { authAddr: a.authAddr } : {}),
      totalNumUint: s.nui,
      totalNumByteSlice: s.nbs,
      totalExtraAppPages: s.pages,
      totalAppsCreated: BigInt(a.createdApps.size),
      totalAppsOptedIn: BigInt(a.locals.size),
      totalAssetsCreated: BigInt(a.createdAssets.size),
      totalAssets: BigInt(a.holdings.size),
      totalBoxes: a.totalBoxes,
      totalBoxBytes: a.totalBoxBytes,
      incentiveEligible: a.incentiveEligible,
      lastProposed: a.lastProposed,
      lastHeartbeat: a.lastHeartbeat,
    };
  }

  minBalance(addr: Uint8Array): bigint {
    return this.st.minBalanceOf(this.st.get(addr));
  }

  assetHolding(addr: Uint8Array, assetId: bigint): AssetHoldingRecord | undefined {
    return this.st.get(addr)?.holdings.get(assetId);
  }

  assetParams(assetId: bigint): AssetParamsRecord | undefined {
    return this.st.assets.get(assetId);
  }

  appParams(appId: bigint): AppParamsRecord | undefined {
    return this.st.apps.get(appId);
  }

  setAppParamFlag(appId: bigint, field: 'foreignBoxReads' | 'familyBoxAccess', value: boolean): void {
    const app = this.st.apps.get(appId);
    if (app) this.st.putApp({ ...app, [field]: value });
  }

  optedIn(addr: Uint8Array, appId: bigint): boolean {
    return this.st.get(addr)?.locals.has(appId) ?? false;
  }

  getGlobal(appId: bigint, key: Uint8Array): TealValue | undefined {
    return this.st.apps.get(appId)?.global.get(toHex(key))?.value;
  }
  setGlobal(appId: bigint, key: Uint8Array, value: TealValue): void {
    this.st.setGlobal(appId, key, value);
  }
  delGlobal(appId: bigint, key: Uint8Array): void {
    this.st.setGlobal(appId, key, undefined);
  }
  countGlobal(appId: bigint): { uints: number; bytes: number } {
    return countStateValues(this.st.apps.get(appId)?.global.values() ?? []);
  }
  countLocal(addr: Uint8Array, appId: bigint): { uints: number; bytes: number } {
    return countStateValues(this.st.get(addr)?.locals.get(appId)?.values() ?? []);
  }
  getLocal(addr: Uint8Array, appId: bigint, key: Uint8Array): TealValue | undefined {
    return this.st.get(addr)?.locals.get(appId)?.get(toHex(key))?.value;
  }
  setLocal(addr: Uint8Array, appId: bigint, key: Uint8Array, value: TealValue): void {
    this.st.setLocal(addr, appId, key, value);
  }
  delLocal(addr: Uint8Array, appId: bigint, key: Uint8Array): void {
    this.st.setLocal(addr, appId, key, undefined);
  }
  getBox(appId: bigint, name: Uint8Array): Uint8Array | undefined {
    return this.st.getBox(appId, name);
  }
  putBox(appId: bigint, name: Uint8Array, value: Uint8Array): void {
    this.st.putBox(appId, name, value);
  }
  delBox(appId: bigint, name: Uint8Array): boolean {
    return this.st.deleteBox(appId, name);
  }

  blockHeader(round: bigint): BlockHeaderRecord | undefined {
    return this.headers.header(round);
  }

  blockRange(): { first: bigint; last: bigint } {
    const last = this.info.round - 1n;
    const first = last > 1000n ? last - 1000n : 0n;
    return { first, last };
  }

  /** Effects the interpreter's ApplyData has no field for (asset closing amounts of inner axfers). */
  readonly innerAssetClosing = new WeakMap<Transaction, bigint>();

  applyInner(txn: Transaction): { createdAssetId?: bigint; createdAppId?: bigint; closingAmount?: bigint } {
    const e = applyTransaction(this.cx, txn);
    if (e.assetClosingAmount !== undefined) this.innerAssetClosing.set(txn, e.assetClosingAmount);
    return {
      ...(e.createdAssetId !== undefined ? { createdAssetId: e.createdAssetId } : {}),
      ...(e.createdAppId !== undefined ? { createdAppId: e.createdAppId } : {}),
      ...(e.closingAmount !== undefined ? { closingAmount: e.closingAmount } : {}),
    };
  }

  finishAppCall(txn: Transaction, appId: bigint): void {
    checkSchemas(this.cx, appId);
    finishAppCall(this.cx, txn, appId);
  }

  checkpoint(): unknown {
    return this.st.checkpoint();
  }

  rollback(token: unknown): void {
    this.st.rollback(token as number);
  }
}
