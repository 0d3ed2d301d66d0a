import type { Address } from '../encoding/address.js';
import type { MsgpackValue } from '../encoding/msgpack.js';

/** The type of a transaction: payment, key registration, asset config/transfer/freeze, app call, state proof, heartbeat. */
export type TransactionType = 'pay' | 'keyreg' | 'acfg' | 'axfer' | 'afrz' | 'appl' | 'stpf' | 'hb';

/** Every transaction type. */
export const TRANSACTION_TYPES: readonly TransactionType[] = ['pay', 'keyreg', 'acfg', 'axfer', 'afrz', 'appl', 'stpf', 'hb'];

/** Application call completion action (`apan`). */
export enum OnComplete {
  NoOp = 0,
  OptIn = 1,
  CloseOut = 2,
  ClearState = 3,
  UpdateApplication = 4,
  DeleteApplication = 5,
}

/** The payment fields of a transaction. */
export interface PaymentFields {
  receiver: Address;
  amount: bigint;
  closeRemainderTo?: Address;
}

/** The key-registration fields of a transaction. */
export interface KeyRegFields {
  voteKey?: Uint8Array;
  selectionKey?: Uint8Array;
  stateProofKey?: Uint8Array;
  voteFirst: bigint;
  voteLast: bigint;
  voteKeyDilution: bigint;
  nonParticipation: boolean;
}

/** Asset parameters as a transaction carries them. */
export interface AssetParams {
  total: bigint;
  decimals: number;
  defaultFrozen: boolean;
  unitName?: string;
  assetName?: string;
  url?: string;
  metadataHash?: Uint8Array;
  manager?: Address;
  reserve?: Address;
  freeze?: Address;
  clawback?: Address;
}

/** The asset-configuration fields of a transaction (create, reconfigure, destroy). */
export interface AssetConfigFields {
  /** 0 when creating. */
  assetId: bigint;
  /** Absent when destroying. */
  params?: AssetParams;
}

/** The asset-transfer fields of a transaction. */
export interface AssetTransferFields {
  assetId: bigint;
  amount: bigint;
  receiver: Address;
  /** Clawback source; set only by the clawback account. */
  assetSender?: Address;
  closeTo?: Address;
}

/** The asset-freeze fields of a transaction. */
export interface AssetFreezeFields {
  assetId: bigint;
  account: Address;
  frozen: boolean;
}

/** A state schema as a transaction carries it: uint and byte-slice slot counts. */
export interface StateSchema {
  numUints: number;
  numByteSlices: number;
}

/**
 * A box the call may touch. `appId` 0 means the called app (the wire index 0); any other id must
 * be listed in `foreignApps`, and is written as its 1-based position there.
 */
export interface BoxReference {
  appId: bigint;
  name: Uint8Array;
}

/**
 * One entry of the `al` access list (V41+), in its wire form: indices inside holding/locals/box
 * are 1-based positions in the access list itself, 0 meaning the sender / the called app.
 */
export type ResourceRef =
  | { kind: 'address'; address: Address }
  | { kind: 'asset'; assetId: bigint }
  | { kind: 'app'; appId: bigint }
  | { kind: 'holding'; addressIndex: number; assetIndex: number }
  | { kind: 'locals'; addressIndex: number; appIndex: number }
  | { kind: 'box'; appIndex: number; name: Uint8Array }
  /** An entry with nothing set: it only adds box I/O budget. */
  | { kind: 'empty' };

/** The application-call fields of a transaction. */
export interface AppCallFields {
  /** 0 when creating. */
  appId: bigint;
  onComplete: OnComplete;
  args: Uint8Array[];
  accounts: Address[];
  foreignApps: bigint[];
  foreignAssets: bigint[];
  boxes: BoxReference[];
  access: ResourceRef[];
  localSchema?: StateSchema;
  globalSchema?: StateSchema;
  approvalProgram?: Uint8Array;
  clearProgram?: Uint8Array;
  extraPages: number;
  rejectVersion: bigint;
}

/** State proof transactions are produced by the network; kept as their decoded wire maps. */
export interface StateProofFields {
  stateProofType: bigint;
  stateProof?: MsgpackValue;
  message?: MsgpackValue;
}

/** The signature proof a heartbeat carries. */
export interface HeartbeatProof {
  signature?: Uint8Array;
  publicKey?: Uint8Array;
  publicKey2?: Uint8Array;
  publicKey1Signature?: Uint8Array;
  publicKey2Signature?: Uint8Array;
}

/** The heartbeat fields of a transaction: address, proof, seed, vote id, key dilution. */
export interface HeartbeatFields {
  address?: Address;
  proof?: HeartbeatProof;
  seed?: Uint8Array;
  voteId?: Uint8Array;
  keyDilution: bigint;
  challengeDiscount: boolean;
}

/**
 * A transaction in typed form. Optional members are absent (never undefined-but-present) when the
 * wire value is zero, so a decoded transaction deep-equals the one it was built from. Exactly one
 * of the type-specific members matches `type`.
 */
export interface Transaction {
  type: TransactionType;
  sender: Address;
  fee: bigint;
  firstValid: bigint;
  lastValid: bigint;
  note?: Uint8Array;
  genesisId?: string;
  genesisHash?: Uint8Array;
  group?: Uint8Array;
  lease?: Uint8Array;
  rekeyTo?: Address;
  payment?: PaymentFields;
  keyreg?: KeyRegFields;
  assetConfig?: AssetConfigFields;
  assetTransfer?: AssetTransferFields;
  assetFreeze?: AssetFreezeFields;
  appCall?: AppCallFields;
  stateProof?: StateProofFields;
  heartbeat?: HeartbeatFields;
}

/** One member of a multisig signature: public key and its signature, if it signed. */
export interface MultisigSubsig {
  publicKey: Uint8Array;
  signature?: Uint8Array;
}

/** A multisig signature: version, threshold and one entry per member key. */
export interface MultisigSig {
  version: number;
  threshold: number;
  subsigs: MultisigSubsig[];
}

/**
 * A post-quantum (V42 Falcon) signature, kept in wire form: `sch` scheme, `slt` salt, `pk`, `sig`.
 * Decoded and re-encoded unchanged; we do not create or verify these.
 */
export type PQSig = Record<string, MsgpackValue>;

/** A logic signature: program, arguments, and the delegating signature or multisig if any. */
export interface LogicSig {
  program: Uint8Array;
  args: Uint8Array[];
  /** Delegation by a single key. */
  sig?: Uint8Array;
  /** Legacy multisig delegation (signs "Program"||program); rejected by the network since V41. */
  msig?: MultisigSig;
  /** Multisig delegation (V41+): subsigs sign "MsigProgram"||msigAddress||program. */
  lmsig?: MultisigSig;
  /** Post-quantum delegation (V42); passed through. */
  pqsig?: PQSig;
}

/** A transaction with its authorization: signature, multisig or logic signature, and the auth address when rekeyed. */
export interface SignedTransaction {
  txn: Transaction;
  sig?: Uint8Array;
  msig?: MultisigSig;
  lsig?: LogicSig;
  /** Post-quantum signature (V42); passed through. */
  pqsig?: PQSig;
  /** The authorizing address when it differs from the sender (rekeyed accounts). */
  authAddress?: Address;
}
