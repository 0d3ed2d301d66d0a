import { request } from 'undici';
import { Ed25519KeyPair } from '../../../../sdk/src/crypto/ed25519.js';
import { Address } from '../../../../sdk/src/encoding/address.js';
import { utf8 } from '../../../../sdk/src/encoding/bytes.js';
import { parseJson } from '../../../../sdk/src/encoding/json.js';
import { Ledger } from '../../../../sdk/src/ledger/index.js';
import { serve, type RunningService } from '../../../../sdk/src/services/http/server.js';
import { createQueryService, type QueryServiceDefinition } from '../../../../sdk/src/services/query/index.js';
import { assemble } from '../../../../sdk/src/teal/index.js';
import {
  makeAppCallTxn,
  makeAssetCreateTxn,
  makeAssetDestroyTxn,
  makeAssetFreezeTxn,
  makeAssetOptInTxn,
  makeAssetTransferTxn,
  makeKeyRegTxn,
  makePaymentTxn,
  type SuggestedParams,
} from '../../../../sdk/src/txn/builders.js';
import { assignGroupId } from '../../../../sdk/src/txn/group.js';
import { makeLogicSig, logicSigAddress } from '../../../../sdk/src/txn/logicsig.js';
import { signTransaction } from '../../../../sdk/src/txn/sign.js';
import { OnComplete, type SignedTransaction, type Transaction } from '../../../../sdk/src/txn/types.js';

export const ALGO = 1_000_000n;
export const TOKEN = 'query-test-token';
export const GENESIS_TS = 1_700_000_000n;

export const APPROVAL = `#pragma version 10
txn ApplicationID
bz ok
txn OnCompletion
int NoOp
==
bz ok
txna ApplicationArgs 0
byte "box"
==
bnz box
txna ApplicationArgs 0
byte "log"
==
bnz log
txna ApplicationArgs 0
byte "pay"
==
bnz pay
err
box:
txna ApplicationArgs 1
txna ApplicationArgs 2
box_put
b ok
log:
txna ApplicationArgs 1
log
byte "last"
txna ApplicationArgs 1
app_global_put
b ok
pay:
itxn_begin
int pay
itxn_field TypeEnum
txn Sender
itxn_field Receiver
int 1000
itxn_field Amount
int 0
itxn_field Fee
itxn_submit
byte "paid"
log
b ok
ok:
int 1
return
`;
export const CLEAR = '#pragma version 10\nint 1\n';

function key(n: number): Ed25519KeyPair {
  const seed = new Uint8Array(32);
  seed[0] = n;
  seed[31] = 0x71;
  return Ed25519KeyPair.fromSeed(seed);
}

export interface Scenario {
  ledger: Ledger;
  keys: Ed25519KeyPair[];
  addr: (i: number) => string;
  /** txids by label */
  tx: Record<string, string>;
  round: Record<string, bigint>;
  assetId: bigint;
  asset2: bigint;
  appId: bigint;
  deletedAppId: bigint;
  escrow: string;
  send: (txns: Transaction[], sign?: (t: Transaction, i: number) => SignedTransaction) => { round: bigint; txids: string[] };
  sp: () => SuggestedParams;
}

/**
 * A small chain touching every filter: payments with notes, a group, a rekey and a payment
 * authorised by the new key, a logic-signature payment, an asset's whole life (create, opt-in,
 * transfer, freeze, close-out, destroy), an app with boxes, logs and an inner payment, an app
 * opt-in and close-out, a deleted app, and a closed account.
 */
export function buildScenario(beforeTxns?: (ledger: Ledger) => void): Scenario {
  const keys = Array.from({ length: 6 }, (_, i) => key(i + 1));
  let t = GENESIS_TS;
  const ledger = new Ledger({
    genesisAccounts: keys.map((k) => ({ address: k.publicKey, amount: 100n * ALGO })),
    genesisTimestamp: GENESIS_TS,
    clock: () => (t += 10n),
  });
  beforeTxns?.(ledger);
  const addrObj = (i: number) => new Address(keys[i]!.publicKey);
  const addr = (i: number) => addrObj(i).toString();
  const byAddr = new Map(keys.map((k) => [new Address(k.publicKey).toString(), k]));
  const sp = (): SuggestedParams => ({
    fee: 1000n,
    flatFee: true,
    firstValid: ledger.latestRound,
    lastValid: ledger.latestRound + 1000n,
    genesisId: ledger.genesisId,
    genesisHash: ledger.genesisHash,
  });
  const send = (txns: Transaction[], sign?: (t: Transaction, i: number) => SignedTransaction) => {
    const grouped = txns.length > 1 ? assignGroupId(txns) : txns;
    return ledger.submit(grouped.map((x, i) => (sign ? sign(x, i) : signTransaction(x, byAddr.get(x.sender.toString())!))));
  };
  const tx: Record<string, string> = {};
  const round: Record<string, bigint> = {};
  const one = (label: string, txn: Transaction, sign?: (t: Transaction) => SignedTransaction) => {
    const r = send([txn], sign ? (x) => sign(x) : undefined);
    tx[label] = r.txids[0]!;
    round[label] = r.round;
    return r;
  };

  one('pay1', makePaymentTxn({ sender: addr(0), receiver: addr(1), amount: 1n * ALGO, note: 'hello world', suggestedParams: sp() }));
  one('pay2', makePaymentTxn({ sender: addr(1), receiver: addr(2), amount: 5n * ALGO, note: 'second', suggestedParams: sp() }));
  one(
    'acfg',
    makeAssetCreateTxn({
      sender: addr(0),
      total: 1000n,
      decimals: 0,
      assetName: 'Gold',
      unitName: 'GLD',
      url: 'https://x.example',
      manager: addr(0),
      freeze: addr(0),
      clawback: addr(0),
      reserve: addr(0),
      suggestedParams: sp(),
    }),
  );
  const assetId = ledger.transaction(tx.acfg!)!.ad.createdAssetId!;
  one('optin', makeAssetOptInTxn({ sender: addr(1), assetId, suggestedParams: sp() }));
  one('axfer', makeAssetTransferTxn({ sender: addr(0), receiver: addr(1), assetId, amount: 100n, suggestedParams: sp() }));
  one('afrz', makeAssetFreezeTxn({ sender: addr(0), assetId, freezeTarget: addr(1), frozen: true, suggestedParams: sp() }));
  one('afrz2', makeAssetFreezeTxn({ sender: addr(0), assetId, freezeTarget: addr(1), frozen: false, suggestedParams: sp() }));
  one('acfg2', makeAssetCreateTxn({ sender: addr(2), total: 50n, decimals: 2, assetName: 'Silver', unitName: 'SLV', suggestedParams: sp() }));
  const asset2 = ledger.transaction(tx.acfg2!)!.ad.createdAssetId!;
  one('optin2', makeAssetOptInTxn({ sender: addr(3), assetId: asset2, suggestedParams: sp() }));
  one('axfer2', makeAssetTransferTxn({ sender: addr(2), receiver: addr(3), assetId: asset2, amount: 10n, suggestedParams: sp() }));
  // a group of two payments
  const g = send([
    makePaymentTxn({ sender: addr(2), receiver: addr(3), amount: 7n * ALGO, suggestedParams: sp() }),
    makePaymentTxn({ sender: addr(3), receiver: addr(2), amount: 2n * ALGO, suggestedParams: sp() }),
  ]);
  tx.group0 = g.txids[0]!;
  tx.group1 = g.txids[1]!;
  round.group = g.round;
  // rekey account 4 to account 0, then spend from 4 with 0's key
  one('rekey', makePaymentTxn({ sender: addr(4), receiver: addr(4), amount: 0n, rekeyTo: addr(0), suggestedParams: sp() }));
  one('authpay', makePaymentTxn({ sender: addr(4), receiver: addr(2), amount: 3n * ALGO, suggestedParams: sp() }), (x) => {
    const s = signTransaction(x, keys[0]!);
    return { ...s, authAddress: addrObj(0) };
  });
  // logic-signature escrow
  const program = assemble('#pragma version 10\nint 1\n').program;
  const escrow = logicSigAddress(program).toString();
  one('fundEscrow', makePaymentTxn({ sender: addr(0), receiver: escrow, amount: 2n * ALGO, suggestedParams: sp() }));
  one('lsigpay', makePaymentTxn({ sender: escrow, receiver: addr(2), amount: 1n * ALGO, suggestedParams: sp() }), (x) => ({
    txn: x,
    lsig: makeLogicSig(program),
  }));
  // the app: boxes, logs, inner payment
  const approval = assemble(APPROVAL).program;
  const clear = assemble(CLEAR).program;
  one(
    'appCreate',
    makeAppCallTxn({
      sender: addr(0),
      appId: 0n,
      approvalProgram: approval,
      clearProgram: clear,
      localSchema: { numUints: 1 },
      globalSchema: { numByteSlices: 1 },
      suggestedParams: sp(),
    }),
  );
  const appId = ledger.transaction(tx.appCreate!)!.ad.createdAppId!;
  const appAddr = Address.forApp(appId).toString();
  one('fundApp', makePaymentTxn({ sender: addr(0), receiver: appAddr, amount: 2n * ALGO, suggestedParams: sp() }));
  for (const [label, name, value] of [
    ['box1', 'b1', 'one'],
    ['box2', 'a0', 'two'],
    ['box3', 'zz', 'three'],
  ] as const) {
    one(label, makeAppCallTxn({ sender: addr(0), appId, args: ['box', name, value], boxes: [{ appId: 0n, name }], suggestedParams: sp() }));
  }
  one(
    'boxInt',
    makeAppCallTxn({
      sender: addr(0),
      appId,
      args: [utf8('box'), new Uint8Array([0, 0, 0, 0, 0, 0, 0, 42]), utf8('int')],
      boxes: [{ appId: 0n, name: new Uint8Array([0, 0, 0, 0, 0, 0, 0, 42]) }],
      suggestedParams: sp(),
    }),
  );
  one(
    'boxAddr',
    makeAppCallTxn({
      sender: addr(0),
      appId,
      args: [utf8('box'), keys[1]!.publicKey, utf8('addr')],
      boxes: [{ appId: 0n, name: keys[1]!.publicKey }],
      suggestedParams: sp(),
    }),
  );
  one('log1', makeAppCallTxn({ sender: addr(1), appId, args: ['log', 'first log'], suggestedParams: sp() }));
  one('log2', makeAppCallTxn({ sender: addr(2), appId, args: ['log', 'second log'], suggestedParams: sp() }));
  one('inner', makeAppCallTxn({ sender: addr(1), appId, args: ['pay'], suggestedParams: { ...sp(), fee: 2000n } }));
  one('appOptIn', makeAppCallTxn({ sender: addr(1), appId, onComplete: OnComplete.OptIn, suggestedParams: sp() }));
  one('appCloseOut', makeAppCallTxn({ sender: addr(1), appId, onComplete: OnComplete.CloseOut, suggestedParams: sp() }));
  one('appOptIn2', makeAppCallTxn({ sender: addr(2), appId, onComplete: OnComplete.OptIn, suggestedParams: sp() }));
  one('app2Create', makeAppCallTxn({ sender: addr(2), appId: 0n, approvalProgram: approval, clearProgram: clear, suggestedParams: sp() }));
  const deletedAppId = ledger.transaction(tx.app2Create!)!.ad.createdAppId!;
  one('app2Delete', makeAppCallTxn({ sender: addr(2), appId: deletedAppId, onComplete: OnComplete.DeleteApplication, suggestedParams: sp() }));
  // asset close-out, then destroy
  one('assetClose', makeAssetTransferTxn({ sender: addr(1), receiver: addr(0), assetId, amount: 0n, closeRemainderTo: addr(0), suggestedParams: sp() }));
  one('clawback', makeAssetTransferTxn({ sender: addr(0), assetSender: addr(0), receiver: addr(0), assetId, amount: 0n, suggestedParams: sp() }));
  one('destroy', makeAssetDestroyTxn({ sender: addr(0), assetId, suggestedParams: sp() }));
  one(
    'keyreg',
    makeKeyRegTxn({
      sender: addr(3),
      voteKey: new Uint8Array(32).fill(1),
      selectionKey: new Uint8Array(32).fill(2),
      stateProofKey: new Uint8Array(64).fill(3),
      voteFirst: 1n,
      voteLast: 100000n,
      voteKeyDilution: 100n,
      suggestedParams: sp(),
    }),
  );
  // close account 5 into account 3
  one('close', makePaymentTxn({ sender: addr(5), receiver: addr(2), amount: 1n * ALGO, closeRemainderTo: addr(3), suggestedParams: sp() }));
  return { ledger, keys, addr, tx, round, assetId, asset2, appId, deletedAppId, escrow, send, sp };
}

export interface Served {
  service: RunningService;
  def: QueryServiceDefinition;
  get: (path: string, headers?: Record<string, string>) => Promise<{ status: number; body: any; text: string }>;
}

export async function serveQuery(ledger: Ledger, token: string | undefined = TOKEN): Promise<Served> {
  const def = createQueryService({ ledger, ...(token ? { token } : {}) });
  const service = await serve(def);
  const get = async (path: string, headers: Record<string, string> = token ? { 'X-Indexer-API-Token': token } : {}) => {
    const res = await request(`${service.url}${path}`, { headers });
    const text = await res.body.text();
    let body: unknown;
    try {
      body = text ? parseJson(text, { bigint: 'never' }) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.statusCode, body, text };
  };
  return { service, def, get };
}
