import { encodeAddress } from '../../encoding/address.js';
import { fromBase64 } from '../../encoding/base64.js';
import { DecodeError } from '../../errors.js';
import { arr, bool, bytes, compact, i64, isObj, obj, optBool, optBytes, optStr, optU64, pick, small, str, u64, type Obj } from '../wire.js';
import { pendingState } from './adapter.js';
import type {
  AccountInfo,
  AppInfo,
  AppParams,
  AssetHolding,
  AssetInfo,
  AssetParams,
  BlockInfo,
  BoxValue,
  BoxesPage,
  NodeStatus,
  PendingTransaction,
  SimulateResult,
  SimulatedTxn,
  StateSchema,
  SuggestedParams,
  Supply,
  TealKeyValue,
} from './types.js';

/**
 * Both node APIs folded into one model. The /v1 service spells fields in camelCase or run-together
 * lowercase (`lastRound`, `amountwithoutpendingrewards`); the /v2 API in kebab-case
 * (`last-round`); each reader accepts either.
 */

/** The protocol minimum fee, used when a /v1 service leaves the optional `minFee` out. */
export const DEFAULT_MIN_FEE = 1000n;

/** A status answer of either node API. */
export function toNodeStatus(body: unknown): NodeStatus {
  const o = obj(body, 'status');
  const synced = optBool(pick(o, 'hasSyncedSinceStartup', 'has-synced-since-startup'), 'status.hasSyncedSinceStartup');
  return compact({
    lastRound: u64(pick(o, 'lastRound', 'last-round'), 'status.lastRound'),
    lastVersion: str(pick(o, 'lastConsensusVersion', 'last-version') ?? '', 'status.lastVersion'),
    nextVersion: str(pick(o, 'nextConsensusVersion', 'next-version') ?? '', 'status.nextVersion'),
    nextVersionRound: u64(pick(o, 'nextConsensusVersionRound', 'next-version-round') ?? 0, 'status.nextVersionRound'),
    nextVersionSupported: bool(pick(o, 'nextConsensusVersionSupported', 'next-version-supported') ?? false, 'status.nextVersionSupported'),
    stoppedAtUnsupportedRound: bool(pick(o, 'stoppedAtUnsupportedRound', 'stopped-at-unsupported-round') ?? false, 'status.stoppedAtUnsupportedRound'),
    timeSinceLastRound: i64(pick(o, 'timeSinceLastRound', 'time-since-last-round') ?? 0, 'status.timeSinceLastRound'),
    catchupTime: i64(pick(o, 'catchupTime', 'catchup-time') ?? 0, 'status.catchupTime'),
    hasSyncedSinceStartup: synced,
  });
}

/** A transaction-parameters answer of either node API. */
export function toSuggestedParams(body: unknown): SuggestedParams {
  const o = obj(body, 'params');
  return {
    feePerByte: u64(pick(o, 'fee') ?? 0, 'params.fee'),
    minFee: optU64(pick(o, 'minFee', 'min-fee'), 'params.minFee') ?? DEFAULT_MIN_FEE,
    lastRound: u64(pick(o, 'lastRound', 'last-round'), 'params.lastRound'),
    genesisId: str(pick(o, 'genesisID', 'genesis-id'), 'params.genesisID'),
    genesisHash: bytes(pick(o, 'genesishashb64', 'genesis-hash'), 'params.genesisHash'),
    consensusVersion: str(pick(o, 'consensusVersion', 'consensus-version') ?? '', 'params.consensusVersion'),
  };
}

/** A supply answer of either node API. */
export function toSupply(body: unknown): Supply {
  const o = obj(body, 'supply');
  return {
    round: u64(pick(o, 'round', 'current_round', 'current-round'), 'supply.round'),
    totalMoney: u64(pick(o, 'totalMoney', 'total-money'), 'supply.totalMoney'),
    onlineMoney: u64(pick(o, 'onlineMoney', 'online-money'), 'supply.onlineMoney'),
  };
}

/** Folds the spellings of account status words (`NotParticipating`, `Not Participating`) to one. */
export function normalizeStatusWord(status: string): string {
  return status.replace(/\s+/g, '');
}

/** Asset parameters of either node API. */
export function toAssetParams(body: unknown, what = 'asset.params'): AssetParams {
  const o = obj(body, what);
  return compact({
    creator: str(pick(o, 'creator') ?? '', `${what}.creator`),
    total: u64(pick(o, 'total') ?? 0, `${what}.total`),
    decimals: small(pick(o, 'decimals') ?? 0, `${what}.decimals`),
    defaultFrozen: bool(pick(o, 'default-frozen', 'defaultfrozen') ?? false, `${what}.defaultFrozen`),
    name: optStr(pick(o, 'name', 'assetname'), `${what}.name`),
    unitName: optStr(pick(o, 'unit-name', 'unitname'), `${what}.unitName`),
    url: optStr(pick(o, 'url'), `${what}.url`),
    nameBytes: optBytes(pick(o, 'name-b64'), `${what}.nameBytes`),
    unitNameBytes: optBytes(pick(o, 'unit-name-b64'), `${what}.unitNameBytes`),
    urlBytes: optBytes(pick(o, 'url-b64'), `${what}.urlBytes`),
    metadataHash: optBytes(pick(o, 'metadata-hash', 'metadatahash'), `${what}.metadataHash`),
    manager: optStr(pick(o, 'manager', 'managerkey'), `${what}.manager`),
    reserve: optStr(pick(o, 'reserve', 'reserveaddr'), `${what}.reserve`),
    freeze: optStr(pick(o, 'freeze', 'freezeaddr'), `${what}.freeze`),
    clawback: optStr(pick(o, 'clawback', 'clawbackaddr'), `${what}.clawback`),
  });
}

/** /v2 `{index, params}`, /v1 list item `{AssetIndex, AssetParams}`, or bare /v1 AssetParams with a known index. */
export function toAssetInfo(body: unknown, knownIndex?: bigint): AssetInfo {
  const o = obj(body, 'asset');
  const params = pick(o, 'params', 'AssetParams');
  if (params !== undefined) return { index: u64(pick(o, 'index', 'AssetIndex') ?? knownIndex, 'asset.index'), params: toAssetParams(params) };
  if (knownIndex === undefined) throw new DecodeError('asset: no index in the response');
  return { index: knownIndex, params: toAssetParams(o) };
}

function toSchema(body: unknown, what: string): StateSchema | undefined {
  if (body === undefined || body === null) return undefined;
  const o = obj(body, what);
  return {
    numUint: small(pick(o, 'num-uint', 'uints', 'nui') ?? 0, `${what}.numUint`),
    numByteSlice: small(pick(o, 'num-byte-slice', 'byteslices', 'nbs') ?? 0, `${what}.numByteSlice`),
  };
}

function toTealValue(body: unknown, what: string): Uint8Array | bigint {
  const v = obj(body, what);
  const t = pick(v, 'type', 't');
  if (t === 2 || t === 2n || t === 'u') return u64(pick(v, 'uint', 'u') ?? 0, `${what}.uint`);
  return bytes(pick(v, 'bytes', 'b') ?? '', `${what}.bytes`);
}

/** /v2 array of `{key, value}` or /v1 map of base64 key → TealValue. */
export function toTealState(body: unknown, what: string): TealKeyValue[] {
  if (body === undefined || body === null) return [];
  if (Array.isArray(body)) {
    return body.map((kv, i) => {
      const o = obj(kv, `${what}[${i}]`);
      return { key: bytes(o.key ?? '', `${what}[${i}].key`), value: toTealValue(o.value, `${what}[${i}].value`) };
    });
  }
  const o = obj(body, what);
  return Object.keys(o).map((k) => ({ key: fromBase64(k), value: toTealValue(o[k], `${what}.${k}`) }));
}

/** Application parameters of either node API (programs, schemas, global state). */
export function toAppParams(body: unknown, what = 'application.params'): AppParams {
  const o = obj(body, what);
  const pages = pick(o, 'extra-program-pages', 'epp');
  return compact({
    creator: optStr(pick(o, 'creator'), `${what}.creator`),
    approvalProgram: bytes(pick(o, 'approval-program', 'approvprog') ?? '', `${what}.approvalProgram`),
    clearStateProgram: bytes(pick(o, 'clear-state-program', 'clearprog') ?? '', `${what}.clearStateProgram`),
    globalState: toTealState(pick(o, 'global-state', 'globalstate'), `${what}.globalState`),
    globalSchema: toSchema(pick(o, 'global-state-schema', 'globalschema'), `${what}.globalSchema`),
    localSchema: toSchema(pick(o, 'local-state-schema', 'localschema'), `${what}.localSchema`),
    extraProgramPages: pages === undefined ? undefined : small(pages, `${what}.extraProgramPages`),
    version: optU64(pick(o, 'version'), `${what}.version`),
  });
}

/** An application answer of either node API as `AppInfo`. */
export function toAppInfo(body: unknown): AppInfo {
  const o = obj(body, 'application');
  return { id: u64(pick(o, 'id', 'appidx'), 'application.id'), params: toAppParams(pick(o, 'params', 'appparams')) };
}

/** An account answer of either node API as `AccountInfo`. */
export function toAccountInfo(body: unknown): AccountInfo {
  const o = obj(body, 'account');
  const assets: AssetHolding[] = [];
  const rawAssets = o.assets;
  if (Array.isArray(rawAssets)) {
    rawAssets.forEach((h, i) => {
      const a = obj(h, `account.assets[${i}]`);
      assets.push({
        assetId: u64(a['asset-id'], `account.assets[${i}].asset-id`),
        amount: u64(a.amount ?? 0, `account.assets[${i}].amount`),
        frozen: bool(a['is-frozen'] ?? false, `account.assets[${i}].is-frozen`),
      });
    });
  } else if (isObj(rawAssets)) {
    for (const id of Object.keys(rawAssets)) {
      const a = obj(rawAssets[id], `account.assets.${id}`);
      assets.push({
        assetId: u64(id, `account.assets key`),
        amount: u64(a.amount ?? 0, `account.assets.${id}.amount`),
        frozen: bool(a.frozen ?? false, `account.assets.${id}.frozen`),
      });
    }
  }
  const createdAssets: AssetInfo[] = [];
  const ca = pick(o, 'created-assets', 'thisassettotal');
  if (Array.isArray(ca)) ca.forEach((a) => createdAssets.push(toAssetInfo(a)));
  else if (isObj(ca))
    for (const id of Object.keys(ca))
      createdAssets.push({ index: u64(id, 'account.thisassettotal key'), params: toAssetParams(ca[id], `account.thisassettotal.${id}`) });
  const createdApps: AppInfo[] = [];
  const capps = pick(o, 'created-apps', 'appparams');
  if (Array.isArray(capps)) capps.forEach((a) => createdApps.push(toAppInfo(a)));
  else if (isObj(capps))
    for (const id of Object.keys(capps)) createdApps.push({ id: u64(id, 'account.appparams key'), params: toAppParams(capps[id], `account.appparams.${id}`) });
  return compact({
    address: str(o.address, 'account.address'),
    amount: u64(o.amount, 'account.amount'),
    amountWithoutPendingRewards: u64(
      pick(o, 'amount-without-pending-rewards', 'amountwithoutpendingrewards') ?? o.amount,
      'account.amountWithoutPendingRewards',
    ),
    pendingRewards: u64(pick(o, 'pending-rewards', 'pendingrewards') ?? 0, 'account.pendingRewards'),
    rewards: u64(o.rewards ?? 0, 'account.rewards'),
    round: u64(o.round, 'account.round'),
    status: normalizeStatusWord(str(o.status ?? '', 'account.status')),
    minBalance: optU64(o['min-balance'], 'account.minBalance'),
    authAddress: optStr(o['auth-addr'], 'account.authAddr'),
    assets,
    createdAssets,
    createdApps,
    appsLocalState: Array.isArray(o['apps-local-state'])
      ? o['apps-local-state'].map((l, i) => {
          const a = obj(l, `account.apps-local-state[${i}]`);
          return compact({
            id: u64(a.id, `account.apps-local-state[${i}].id`),
            schema: toSchema(a.schema, `account.apps-local-state[${i}].schema`),
            keyValue: toTealState(a['key-value'], `account.apps-local-state[${i}].key-value`),
          });
        })
      : undefined,
    totalBoxes: optU64(o['total-boxes'], 'account.totalBoxes'),
    totalBoxBytes: optU64(o['total-box-bytes'], 'account.totalBoxBytes'),
    incentiveEligible: optBool(o['incentive-eligible'], 'account.incentiveEligible'),
    lastProposed: optU64(o['last-proposed'], 'account.lastProposed'),
    lastHeartbeat: optU64(o['last-heartbeat'], 'account.lastHeartbeat'),
  });
}

/** A box answer of either node API (name and value as bytes). */
export function toBox(body: unknown): BoxValue {
  const o = obj(body, 'box');
  return compact({ name: bytes(o.name, 'box.name'), value: bytes(o.value, 'box.value'), round: optU64(o.round, 'box.round') });
}

/** A `/v2/applications/{id}/boxes` answer, paged or not (see {@link BoxesPage}). */
export function toBoxesPage(body: unknown): BoxesPage {
  const o = obj(body, 'boxes');
  const boxes = arr(o.boxes ?? [], 'boxes.boxes').map((b, i) => {
    const e = obj(b, `boxes[${i}]`);
    const name = bytes(e.name, `boxes[${i}].name`);
    return e.value === undefined || e.value === null ? { name } : { name, value: bytes(e.value, `boxes[${i}].value`) };
  });
  return compact({
    round: optU64(o.round, 'boxes.round'),
    nextToken: o['next-token'] === undefined ? undefined : str(o['next-token'], 'boxes.next-token'),
    boxes,
  });
}

function addressText(value: unknown, what: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Uint8Array) return encodeAddress(value);
  return str(value, what);
}

/** /v1 Block, /v2 `{block: {...}}` (JSON or msgpack short keys), or a query-service block. */
export function toBlockInfo(body: unknown): BlockInfo {
  const outer = obj(body, 'block');
  const b = isObj(outer.block) ? outer.block : outer;
  const gh = pick(b, 'gh', 'genesis-hash');
  return compact({
    round: u64(pick(b, 'rnd', 'round') ?? 0, 'block.round'),
    timestamp: i64(pick(b, 'ts', 'timestamp') ?? 0, 'block.timestamp'),
    genesisId: optStr(pick(b, 'gen', 'genesis-id'), 'block.genesisId'),
    genesisHash: gh === undefined ? undefined : bytes(gh, 'block.genesisHash'),
    proposer: addressText(pick(b, 'proposer', 'prp'), 'block.proposer'),
    raw: body,
  });
}

/** The id inside a signed transaction as /v2 returns it (JSON or msgpack) when it carries one. */
function senderOf(stxn: unknown): string | undefined {
  if (!isObj(stxn)) return undefined;
  const txn = isObj(stxn.txn) ? stxn.txn : undefined;
  return txn ? addressText(txn.snd, 'txn.snd') : undefined;
}

/** /v2 PendingTransactionResponse (JSON or msgpack), or a /v1 Transaction. */
export function toPending(body: unknown, txid?: string): PendingTransaction {
  const o = obj(body, 'pending transaction');
  if ('tx' in o || 'poolerror' in o || 'from' in o) {
    const round = u64(o.round ?? 0, 'transaction.round');
    const poolError = str(o.poolerror ?? '', 'transaction.poolerror');
    const results = isObj(o.txresults) ? o.txresults : {};
    return compact({
      state: pendingState(round, poolError),
      confirmedRound: round,
      poolError,
      txid: optStr(o.tx, 'transaction.tx') ?? txid,
      sender: optStr(o.from, 'transaction.from'),
      assetIndex: optU64(pick(results, 'createdasset'), 'transaction.txresults.createdasset'),
      applicationIndex: optU64(pick(results, 'createdapp'), 'transaction.txresults.createdapp'),
      txn: o,
    });
  }
  const round = u64(pick(o, 'confirmed-round') ?? 0, 'pending.confirmed-round');
  const poolError = str(pick(o, 'pool-error') ?? '', 'pending.pool-error');
  const logs = o.logs === undefined ? undefined : arr(o.logs, 'pending.logs').map((l, i) => bytes(l, `pending.logs[${i}]`));
  const inner = o['inner-txns'] === undefined ? undefined : arr(o['inner-txns'], 'pending.inner-txns').map((t) => toPending(t));
  return compact({
    state: pendingState(round, poolError),
    confirmedRound: round,
    poolError,
    txid,
    sender: senderOf(o.txn),
    assetIndex: optU64(o['asset-index'], 'pending.asset-index'),
    applicationIndex: optU64(o['application-index'], 'pending.application-index'),
    logs,
    txn: o.txn,
    innerTxns: inner,
  });
}

function optSmall(value: unknown, what: string): number | undefined {
  return value === undefined || value === null ? undefined : small(value, what);
}

/** Simulate responses: current (version 2, kebab-case), version 1 (`would-succeed`), and snake_case spellings. */
export function toSimulateResult(body: unknown): SimulateResult {
  const o = obj(body, 'simulate');
  const groups = arr(pick(o, 'txn-groups', 'txn_groups'), 'simulate.txn-groups');
  const g: Obj = groups.length > 0 ? obj(groups[0], 'simulate.txn-groups[0]') : {};
  const failedAt = arr(pick(g, 'failed-at', 'failed_at', 'failedAt') ?? pick(o, 'failed-at', 'failed_at'), 'simulate.failed-at').map((n, i) =>
    small(n, `simulate.failed-at[${i}]`),
  );
  const failureMessage = optStr(pick(g, 'failure-message', 'failure_message') ?? pick(o, 'failure-message', 'failure_message'), 'simulate.failure-message');
  const txns: SimulatedTxn[] = arr(pick(g, 'txn-results', 'txn_results'), 'simulate.txn-results').map((r, i) => {
    const t = obj(r, `simulate.txn-results[${i}]`);
    return compact({
      result: toPending(pick(t, 'txn-result', 'txn_result') ?? {}),
      missingSignature: optBool(pick(t, 'missing-signature', 'missing_signature'), `simulate.txn-results[${i}].missing-signature`),
      appBudgetConsumed: optSmall(pick(t, 'app-budget-consumed', 'app_budget_consumed'), 'app-budget-consumed'),
      logicSigBudgetConsumed: optSmall(pick(t, 'logic-sig-budget-consumed', 'logic_sig_budget_consumed'), 'logic-sig-budget-consumed'),
      fixedSigner: optStr(pick(t, 'fixed-signer', 'fixed_signer'), 'fixed-signer'),
      raw: r,
    });
  });
  const reported = optBool(pick(o, 'would-succeed', 'would_succeed', 'wouldSucceed'), 'simulate.would-succeed');
  const anyMissing = txns.some((t) => t.missingSignature === true);
  const wouldSucceed = reported ?? (failedAt.length === 0 && failureMessage === undefined && !anyMissing);
  return compact({
    wouldSucceed,
    failedAt,
    failureMessage,
    lastRound: optU64(pick(o, 'last-round', 'last_round'), 'simulate.last-round'),
    version: optSmall(o.version, 'simulate.version'),
    txns,
    appBudgetAdded: optSmall(pick(g, 'app-budget-added', 'app_budget_added'), 'app-budget-added'),
    appBudgetConsumed: optSmall(pick(g, 'app-budget-consumed', 'app_budget_consumed'), 'app-budget-consumed'),
    raw: body,
  });
}

/** The follower sync round: a bare number or `{round}`; 0 means unset. */
export function toSyncRound(body: unknown): bigint | undefined {
  const value = isObj(body) ? pick(body, 'round', 'sync-round', 'syncRound') : body;
  const round = u64(value, 'sync round');
  return round === 0n ? undefined : round;
}
