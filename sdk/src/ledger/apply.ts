import { formatMicroAlgos } from '../txn/microalgos.js';
import { encodeAddress } from '../encoding/address.js';
import { bytesEqual } from '../encoding/bytes.js';
import type { Transaction } from '../txn/types.js';
import { OnComplete } from '../txn/types.js';
import { reject } from './errors.js';
import { compileProgram, programVersion } from '../avm/program.js';
import { programSizeError } from '../avm/well-formed.js';
import { appParamsFromCreate, assetParamsFromCreate } from '../avm/records.js';
import type { AccountData, AppData, AssetData, LedgerState } from './state.js';

const ZERO32 = new Uint8Array(32);
const addr = (b: Uint8Array): string => encodeAddress(b);
const isZero = (b: Uint8Array | undefined): boolean => !b || b.every((x) => x === 0);

/** What applying a transaction's own effects produced (program effects are the AVM's). */
export interface Effects {
  createdAssetId?: bigint;
  createdAppId?: bigint;
  closingAmount?: bigint;
  assetClosingAmount?: bigint;
}

export interface ApplyContext {
  state: LedgerState;
  feeSink: Uint8Array;
}

/** Moves microalgos, failing with the node's `overspend` wording when the source is short. */
export function move(cx: ApplyContext, from: Uint8Array, to: Uint8Array, amount: bigint): void {
  if (amount === 0n) {
    cx.state.mut(from);
    cx.state.mut(to);
    return;
  }
  const st = cx.state;
  const bal = st.balanceOf(from);
  if (bal < amount) {
    reject('overspend', `overspend (account ${addr(from)}, data ${accountDataText(st, st.get(from), bal)}, tried to spend ${formatMicroAlgos(amount)})`);
  }
  st.setBalance(from, bal - amount);
  st.setBalance(to, st.balanceOf(to) + amount);
}

/**
 * The account as the node prints it in an overspend (Go's `%+v` of its ledger account record:
 * every field named, amounts and schemas by their own text forms, keys as byte lists).
 */
function accountDataText(st: LedgerState, a: AccountData | undefined, balance: bigint): string {
  const bytes = (b: Uint8Array | undefined, n: number) => `[${Array.from(b && b.length === n ? b : new Uint8Array(n)).join(' ')}]`;
  const totals = a ? st.schemaTotals(a) : { nui: 0n, nbs: 0n, pages: 0n };
  const p = a?.participation;
  const base = [
    `Status:${['Offline', 'Online', 'Not Participating'][a?.status ?? 0]}`,
    `MicroAlgos:${formatMicroAlgos(balance)}`,
    'RewardsBase:0',
    'RewardedMicroAlgos:0.0A',
    `AuthAddr:${addr(a?.authAddr ?? ZERO32)}`,
    `IncentiveEligible:${a?.incentiveEligible ?? false}`,
    `TotalAppSchema:{NumUint:${totals.nui} NumByteSlice:${totals.nbs}}`,
    `TotalExtraAppPages:${totals.pages}`,
    `TotalAppParams:${a?.createdApps.size ?? 0}`,
    `TotalAppLocalStates:${a?.locals.size ?? 0}`,
    `TotalAssetParams:${a?.createdAssets.size ?? 0}`,
    `TotalAssets:${a?.holdings.size ?? 0}`,
    `TotalBoxes:${a?.totalBoxes ?? 0n}`,
    `TotalBoxBytes:${a?.totalBoxBytes ?? 0n}`,
    `LastProposed:${a?.lastProposed ?? 0n}`,
    `LastHeartbeat:${a?.lastHeartbeat ?? 0n}`,
  ];
  const voting = [
    `VoteID:${bytes(p?.voteKey, 32)}`,
    `SelectionID:${bytes(p?.selectionKey, 32)}`,
    `StateProofID:${bytes(p?.stateProofKey, 64)}`,
    `VoteFirstValid:${p?.voteFirst ?? 0n}`,
    `VoteLastValid:${p?.voteLast ?? 0n}`,
    `VoteKeyDilution:${p?.voteKeyDilution ?? 0n}`,
  ];
  return `{AccountBaseData:{${base.join(' ')}} VotingData:{${voting.join(' ')}}}`;
}

/** Fee to the fee sink, rekeying, and the transaction-type effects (not app programs). */
export function applyTransaction(cx: ApplyContext, txn: Transaction): Effects {
  const snd = txn.sender.publicKey;
  const counter = cx.state.nextTxn();
  move(cx, snd, cx.feeSink, txn.fee);
  if (txn.rekeyTo) {
    const to = txn.rekeyTo.publicKey;
    cx.state.setAccountField(snd, 'authAddr', bytesEqual(to, snd) || isZero(to) ? undefined : to.slice());
  }
  switch (txn.type) {
    case 'pay':
      return applyPayment(cx, txn);
    case 'keyreg':
      applyKeyreg(cx, txn);
      return {};
    case 'acfg':
      return applyAssetConfig(cx, txn, counter);
    case 'axfer':
      return applyAssetTransfer(cx, txn);
    case 'afrz':
      applyAssetFreeze(cx, txn);
      return {};
    case 'appl':
      return prepareAppCall(cx, txn, counter);
    default:
      reject('malformed', `transaction type ${txn.type} cannot be submitted to the devnet`);
  }
}

function checkClosable(cx: ApplyContext, who: Uint8Array): void {
  const a = cx.state.get(who);
  if (!a) return;
  if (a.holdings.size) reject('account', `cannot close: ${a.holdings.size} outstanding assets`);
  if (a.locals.size) reject('account', `cannot close: ${a.locals.size} outstanding applications opted in. Please opt out or clear them`);
  if (a.createdApps.size) reject('account', `cannot close: ${a.createdApps.size} outstanding created applications`);
  if (a.totalBoxBytes > 0n) reject('account', `cannot close: ${a.totalBoxBytes} outstanding box bytes`);
}

function applyPayment(cx: ApplyContext, txn: Transaction): Effects {
  const p = txn.payment!;
  const snd = txn.sender.publicKey;
  move(cx, snd, p.receiver.publicKey, p.amount);
  if (!p.closeRemainderTo) return {};
  const to = p.closeRemainderTo.publicKey;
  if (bytesEqual(to, snd)) reject('malformed', 'transaction cannot close account to its sender');
  checkClosable(cx, snd);
  const rest = cx.state.balanceOf(snd);
  move(cx, snd, to, rest);
  // Closing forgets everything about the account, including a rekey.
  const st = cx.state;
  st.setAccountField(snd, 'authAddr', undefined);
  st.setAccountField(snd, 'status', 0);
  st.setAccountField(snd, 'participation', undefined);
  st.setAccountField(snd, 'incentiveEligible', false);
  return { closingAmount: rest };
}

function applyKeyreg(cx: ApplyContext, txn: Transaction): void {
  const k = txn.keyreg!;
  const snd = txn.sender.publicKey;
  const st = cx.state;
  if (k.nonParticipation) {
    st.setAccountField(snd, 'status', 2);
    st.setAccountField(snd, 'participation', undefined);
    return;
  }
  if (k.voteKey && k.selectionKey) {
    st.setAccountField(snd, 'status', 1);
    if (txn.fee >= st.params.goOnlineFee) st.setAccountField(snd, 'incentiveEligible', true);
    st.setAccountField(snd, 'participation', {
      voteKey: k.voteKey,
      selectionKey: k.selectionKey,
      ...(k.stateProofKey ? { stateProofKey: k.stateProofKey } : {}),
      voteFirst: k.voteFirst,
      voteLast: k.voteLast,
      voteKeyDilution: k.voteKeyDilution,
    });
    return;
  }
  st.setAccountField(snd, 'status', 0);
  st.setAccountField(snd, 'participation', undefined);
}

function assetOrFail(cx: ApplyContext, id: bigint): AssetData {
  const a = cx.state.assets.get(id);
  if (!a) reject('asset', `asset ${id} does not exist or has been deleted`);
  return a;
}

function applyAssetConfig(cx: ApplyContext, txn: Transaction, counter: bigint): Effects {
  const c = txn.assetConfig!;
  const snd = txn.sender.publicKey;
  const st = cx.state;
  if (c.assetId === 0n) {
    const p = c.params ?? { total: 0n, decimals: 0, defaultFrozen: false };
    const id = counter;
    st.putAsset({ id, ...assetParamsFromCreate(snd.slice(), p) });
    st.setHolding(snd, id, { amount: p.total, frozen: false });
    return { createdAssetId: id };
  }
  const asset = assetOrFail(cx, c.assetId);
  if (isZero(asset.manager) || !bytesEqual(asset.manager, snd)) {
    reject('asset', `this transaction should be issued by the manager. It is issued by ${addr(snd)}, manager key ${addr(asset.manager)}`);
  }
  if (!c.params) {
    const held = st.get(asset.creator)?.holdings.get(asset.id);
    if (!held || held.amount !== asset.total) {
      reject('asset', `cannot destroy asset: creator is holding only ${held?.amount ?? 0n}/${asset.total}`);
    }
    st.setHolding(asset.creator, asset.id, undefined);
    st.deleteAsset(asset.id);
    return {};
  }
  // Only the four role addresses can change, and one that was cleared stays cleared.
  const p = c.params;
  const keep = (current: Uint8Array, next: Uint8Array | undefined): Uint8Array => (isZero(current) ? current : (next ?? ZERO32));
  st.putAsset({
    ...asset,
    manager: keep(asset.manager, p.manager?.publicKey),
    reserve: keep(asset.reserve, p.reserve?.publicKey),
    freeze: keep(asset.freeze, p.freeze?.publicKey),
    clawback: keep(asset.clawback, p.clawback?.publicKey),
  });
  return {};
}

function applyAssetTransfer(cx: ApplyContext, txn: Transaction): Effects {
  const x = txn.assetTransfer!;
  const st = cx.state;
  const snd = txn.sender.publicKey;
  const rcv = x.receiver.publicKey;
  let source = snd;
  const clawback = !!x.assetSender;
  if (clawback) {
    const asset = assetOrFail(cx, x.assetId);
    if (isZero(asset.clawback) || !bytesEqual(asset.clawback, snd)) {
      reject('asset', `clawback not allowed: sender ${addr(snd)}, clawback ${addr(asset.clawback)}`);
    }
    source = x.assetSender!.publicKey;
  }
  // Opt-in: a zero transfer from the account to itself allocates the holding.
  if (x.amount === 0n && bytesEqual(rcv, source) && !clawback) {
    if (!st.get(source)?.holdings.has(x.assetId)) {
      const asset = assetOrFail(cx, x.assetId);
      st.setHolding(source, x.assetId, { amount: 0n, frozen: asset.defaultFrozen });
    } else st.mut(source);
  }
  // Zero amounts move nothing and look nothing up (so a close-only transfer may name any receiver).
  const takeOut = (from: Uint8Array, amount: bigint, bypassFreeze: boolean): void => {
    if (amount === 0n) return;
    const h = st.get(from)?.holdings.get(x.assetId);
    if (!h) reject('asset', `asset ${x.assetId} missing from ${addr(from)}`);
    if (h.frozen && !bypassFreeze) reject('asset', `asset ${x.assetId} frozen in ${addr(from)}`);
    if (h.amount < amount) reject('asset', `underflow on subtracting ${amount} from sender amount ${h.amount}`);
    st.setHolding(from, x.assetId, { amount: h.amount - amount, frozen: h.frozen });
  };
  const putIn = (to: Uint8Array, amount: bigint, bypassFreeze: boolean): void => {
    if (amount === 0n) return;
    const h = st.get(to)?.holdings.get(x.assetId);
    if (!h) reject('asset', `receiver error: must optin, asset ${x.assetId} missing from ${addr(to)}`);
    if (h.frozen && !bypassFreeze) reject('asset', 'asset frozen in recipient');
    const sum = h.amount + amount;
    if (sum >= 1n << 64n) reject('asset', `overflow on adding ${amount} to receiver amount ${h.amount}`);
    st.setHolding(to, x.assetId, { amount: sum, frozen: h.frozen });
  };
  takeOut(source, x.amount, clawback);
  putIn(rcv, x.amount, clawback);
  if (!x.closeTo) return {};
  if (clawback) reject('asset', 'cannot close asset by clawback');
  const mine = st.get(source);
  if (mine?.createdAssets.has(x.assetId)) reject('asset', 'cannot close asset ID in allocating account');
  const h = mine?.holdings.get(x.assetId);
  if (!h) reject('asset', `asset ${x.assetId} not present in account ${addr(source)}`);
  // Closing out to the asset's creator is allowed even when frozen.
  const toCreator = st.get(x.closeTo.publicKey)?.createdAssets.has(x.assetId) ?? false;
  const rest = h.amount;
  takeOut(source, rest, toCreator);
  putIn(x.closeTo.publicKey, rest, toCreator);
  st.mut(x.closeTo.publicKey);
  st.setHolding(source, x.assetId, undefined);
  return { assetClosingAmount: rest };
}

function applyAssetFreeze(cx: ApplyContext, txn: Transaction): void {
  const f = txn.assetFreeze!;
  const snd = txn.sender.publicKey;
  const asset = assetOrFail(cx, f.assetId);
  if (isZero(asset.freeze) || !bytesEqual(asset.freeze, snd)) {
    reject('asset', `freeze not allowed: sender ${addr(snd)}, freeze ${addr(asset.freeze)}`);
  }
  const target = f.account.publicKey;
  const h = cx.state.get(target)?.holdings.get(f.assetId);
  if (!h) reject('asset', 'asset not found in account');
  cx.state.setHolding(target, f.assetId, { amount: h.amount, frozen: f.frozen });
}

/**
 * The part of an app call that happens before its program runs: creation (the new id comes from
 * the transaction counter), opt-in, existence and opt-in checks, reject-version.
 */
export function prepareAppCall(cx: ApplyContext, txn: Transaction, counter: bigint): Effects {
  const a = txn.appCall!;
  const st = cx.state;
  const snd = txn.sender.publicKey;
  if (a.appId === 0n || a.onComplete === OnComplete.UpdateApplication) checkPrograms(cx, a.approvalProgram, a.clearProgram);
  if (a.appId === 0n) {
    const id = counter;
    const app: AppData = { id, ...appParamsFromCreate(snd.slice(), a), global: new Map() };
    st.putApp(app);
    if (a.onComplete === OnComplete.OptIn) st.optIn(snd, id);
    return { createdAppId: id };
  }
  const app = st.apps.get(a.appId);
  const opted = st.get(snd)?.locals.has(a.appId) ?? false;
  if (!app) {
    if (a.onComplete === OnComplete.ClearState) {
      if (!opted) reject('app', `cannot clear state: ${addr(snd)} is not currently opted in to app ${a.appId}`);
      return {};
    }
    reject('app', `only ClearState is supported for an application (${a.appId}) that does not exist`);
  }
  if (a.rejectVersion !== 0n && app.version >= a.rejectVersion) {
    reject('app', `app version (${app.version}) >= reject version (${a.rejectVersion})`);
  }
  switch (a.onComplete) {
    case OnComplete.OptIn:
      if (opted) reject('app', `account ${addr(snd)} has already opted in to app ${a.appId}`);
      st.optIn(snd, a.appId);
      break;
    case OnComplete.CloseOut:
      if (!opted) {
        if (!st.get(snd)?.locals.size) reject('app', `account ${addr(snd)} is not opted in to any app, and in particular ${a.appId}`);
        reject('app', `account ${addr(snd)} is not opted in to app ${a.appId}`);
      }
      break;
    case OnComplete.ClearState:
      if (!opted) reject('app', `cannot clear state: ${addr(snd)} is not currently opted in to app ${a.appId}`);
      break;
    default:
      st.mut(snd);
  }
  return {};
}

/** Programs installed by a creation or update must decode, and (v6+) carry the same version. */
function checkPrograms(cx: ApplyContext, approval: Uint8Array | undefined, clear: Uint8Array | undefined): void {
  const check = (what: string, program: Uint8Array | undefined): number => {
    try {
      const bytes = program ?? new Uint8Array();
      compileProgram(bytes, 'app', cx.state.params.maxAvmVersion);
      return programVersion(bytes).version;
    } catch (e) {
      reject('app', `check failed on ${what}: ${(e as Error).message}`);
    }
  };
  const av = check('ApprovalProgram', approval);
  const cv = check('ClearStateProgram', clear);
  if (av >= SYNC_PROGRAMS_VERSION && av !== cv) reject('app', `program version mismatch: ${av} != ${cv}`);
}

/** From this version on, approval and clear-state programs must share their version. */
const SYNC_PROGRAMS_VERSION = 6;

/** Global and local key counts must fit the app's schemas after every approved program. */
export function checkSchemas(cx: ApplyContext, appId: bigint): void {
  const app = cx.state.apps.get(appId);
  if (!app) return;
  const count = stateKeyCounts;
  const [gu, gb] = count(app.global);
  if (gu > app.globalNumUint) reject('app', `store integer count ${gu} exceeds schema integer count ${app.globalNumUint}`);
  if (gb > app.globalNumByteSlice) reject('app', `store bytes count ${gb} exceeds schema bytes count ${app.globalNumByteSlice}`);
  const suffix = `/${appId}`;
  for (const pair of cx.state.touched.locals) {
    if (!pair.endsWith(suffix)) continue;
    const kv = cx.state.accounts.get(pair.slice(0, pair.length - suffix.length))?.locals.get(appId);
    if (!kv) continue;
    const [lu, lb] = count(kv);
    if (lu > app.localNumUint) reject('app', `store integer count ${lu} exceeds schema integer count ${app.localNumUint}`);
    if (lb > app.localNumByteSlice) reject('app', `store bytes count ${lb} exceeds schema bytes count ${app.localNumByteSlice}`);
  }
}

/** How many integer and byte-slice keys an app's global or local key-value store holds, as a schema counts them. */
export function stateKeyCounts(kv: ReadonlyMap<string, { value: unknown }>): [bigint, bigint] {
  let u = 0n;
  let b = 0n;
  for (const { value } of kv.values())
    if (typeof value === 'bigint') u++;
    else b++;
  return [u, b];
}

/** Effects of an app call once its program approved: close-out, clear, update, delete. */
export function finishAppCall(cx: ApplyContext, txn: Transaction, appId: bigint): void {
  const a = txn.appCall!;
  const st = cx.state;
  const snd = txn.sender.publicKey;
  switch (a.onComplete) {
    case OnComplete.CloseOut:
    case OnComplete.ClearState:
      st.optOut(snd, appId);
      return;
    case OnComplete.UpdateApplication: {
      const app = st.apps.get(appId);
      if (!app) return;
      const approval = a.approvalProgram ?? new Uint8Array();
      const clear = a.clearProgram ?? new Uint8Array();
      const tooBig = programSizeError(approval.length, clear.length, Number(app.extraProgramPages), st.params.txn);
      if (tooBig !== undefined) reject('app', tooBig);
      st.putApp({ ...app, approvalProgram: approval, clearStateProgram: clear, version: app.version + 1n });
      return;
    }
    case OnComplete.DeleteApplication:
      st.deleteApp(appId);
      return;
    default:
  }
}
