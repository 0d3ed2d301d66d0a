import assert from 'node:assert/strict';
import { HttpError } from '../../../sdk/src/adapters/http/errors.js';
import { LocalSigner } from '../../../sdk/src/adapters/signer.js';
import { NodeServiceAdapter } from '../../../sdk/src/adapters/node/node-service.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { startDevnet, type DevnetOptions, type RunningDevnet } from '../../../sdk/src/services/devnet/index.js';
import { TEST_SCRYPT } from '../../../sdk/src/services/kmd/index.js';
import { assemble } from '../../../sdk/src/teal/index.js';
import {
  makeAppCallTxn,
  makeAppCreateTxn,
  makeAppOptInTxn,
  makeAssetCreateTxn,
  makeAssetOptInTxn,
  makeAssetTransferTxn,
  makePaymentTxn,
  type SuggestedParams,
} from '../../../sdk/src/txn/builders.js';
import { assignGroupId } from '../../../sdk/src/txn/group.js';
import { txid } from '../../../sdk/src/txn/encode.js';
import type { Transaction } from '../../../sdk/src/txn/types.js';

/**
 * App used by the devnet acceptance tests: global counter "g", local "l" on opt-in, a log line on
 * every call, and a box written when the first argument is "box" (named by the second).
 */
export const APPROVAL = `#pragma version 10
txn ApplicationID
bz create
txn OnCompletion
int OptIn
==
bnz optin
byte "hello"
log
byte "g"
byte "g"
app_global_get
int 1
+
app_global_put
txna ApplicationArgs 0
byte "box"
==
bz done
txna ApplicationArgs 1
byte "boxvalue"
box_put
done:
int 1
return
create:
byte "g"
int 1
app_global_put
int 1
return
optin:
txn Sender
byte "l"
int 7
app_local_put
int 1
return
`;
export const CLEAR = '#pragma version 10\nint 1';

export interface PopulatedDevnet {
  d: RunningDevnet;
  node: NodeServiceAdapter;
  signer: LocalSigner;
  /** The funded accounts, as text. */
  addrs: string[];
  payTxids: string[];
  assetId: bigint;
  appId: bigint;
  appAddr: string;
  boxNames: string[];
  /** Txid of the last app call (logs "hello"). */
  callTxid: string;
  sp(): Promise<SuggestedParams>;
  /** Signs every transaction with its sender's key, groups them when more than one, submits over HTTP. */
  submit(txns: Transaction[]): Promise<string[]>;
  stop(): Promise<void>;
}

export async function devnetSigner(d: RunningDevnet): Promise<LocalSigner> {
  const wallet = d.wallets.findWallet(d.wallet.name)!;
  const handle = await d.wallets.initHandle(wallet.id, d.wallet.password);
  const signer = new LocalSigner();
  for (const a of d.accounts) signer.addSeed((await d.wallets.exportKey(handle, d.wallet.password, a.address)).subarray(0, 32));
  await d.wallets.releaseHandle(handle);
  return signer;
}

/**
 * A devnet with real history made over HTTP through our node client: payments, an asset (created,
 * opted into, transferred), an app with global and local state, boxes and logs.
 */
export async function populatedDevnet(options: DevnetOptions = {}, payments = 6): Promise<PopulatedDevnet> {
  const d = await startDevnet({ inMemory: true, ports: { node: 0, query: 0, keyManager: 0 }, accounts: 3, kdf: TEST_SCRYPT, ...options });
  const node = new NodeServiceAdapter({ url: d.node.url, token: d.node.token, retry: false });
  try {
    const signer = await devnetSigner(d);
    const addrs = d.accounts.map((a) => a.address);
    const sp = async (): Promise<SuggestedParams> => {
      const p = await node.suggestedParams();
      return { fee: p.minFee, flatFee: true, firstValid: p.lastRound, lastValid: p.lastRound + 1000n, genesisId: p.genesisId, genesisHash: p.genesisHash };
    };
    const submit = async (txns: Transaction[]): Promise<string[]> => {
      const group = txns.length > 1 ? assignGroupId(txns) : txns;
      const signed = await signer.sign(
        group,
        group.map((_, i) => i),
      );
      await node.submit(signed);
      return group.map((t) => txid(t));
    };
    const payTxids: string[] = [];
    for (let i = 0; i < payments; i++) {
      const [id] = await submit([
        makePaymentTxn({ sender: addrs[i % 3]!, receiver: addrs[(i + 1) % 3]!, amount: BigInt(1000 + i), note: utf8(`pay ${i}`), suggestedParams: await sp() }),
      ]);
      payTxids.push(id!);
    }
    const [acfg] = await submit([
      makeAssetCreateTxn({
        sender: addrs[0]!,
        total: 1_000_000n,
        decimals: 2,
        unitName: 'TW',
        assetName: 'Tealworks',
        url: 'https://example.com',
        manager: addrs[0]!,
        suggestedParams: await sp(),
      }),
    ]);
    const assetId = (await node.pending(acfg!)).assetIndex!;
    await submit([makeAssetOptInTxn({ sender: addrs[1]!, assetId, suggestedParams: await sp() })]);
    await submit([makeAssetTransferTxn({ sender: addrs[0]!, receiver: addrs[1]!, assetId, amount: 500n, suggestedParams: await sp() })]);

    const [create] = await submit([
      makeAppCreateTxn({
        sender: addrs[0]!,
        approvalProgram: assemble(APPROVAL).program,
        clearProgram: assemble(CLEAR).program,
        globalSchema: { numUints: 1, numByteSlices: 0 },
        localSchema: { numUints: 1, numByteSlices: 0 },
        suggestedParams: await sp(),
      }),
    ]);
    const appId = (await node.pending(create!)).applicationIndex!;
    const appAddr = Address.forApp(appId).toString();
    await submit([makeAppOptInTxn({ sender: addrs[1]!, appId, suggestedParams: await sp() })]);
    const boxNames = ['b1', 'b2', 'b3'];
    let callTxid = '';
    // A group: fund the app for its boxes, then write the boxes.
    const groupSp = await sp();
    const fund = makePaymentTxn({ sender: addrs[0]!, receiver: appAddr, amount: 1_000_000n, suggestedParams: groupSp });
    const calls = boxNames.map((b) =>
      makeAppCallTxn({ sender: addrs[0]!, appId, args: [utf8('box'), utf8(b)], boxes: [{ appId: 0n, name: utf8(b) }], suggestedParams: groupSp }),
    );
    const ids = await submit([fund, ...calls]);
    callTxid = ids[ids.length - 1]!;
    return {
      d,
      node,
      signer,
      addrs,
      payTxids,
      assetId,
      appId,
      appAddr,
      boxNames,
      callTxid,
      sp,
      submit,
      stop: async () => {
        await node.close();
        await d.stop();
      },
    };
  } catch (e) {
    await node.close();
    await d.stop();
    throw e;
  }
}

/** Awaits `p` and asserts it fails with an `HttpError` of `status`; returns that error. */
export async function rejects<T>(p: Promise<T>, status: number): Promise<HttpError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof HttpError, `expected HttpError ${status}, got ${String(e)}`);
    assert.equal(e.status, status, e.message);
    return e;
  }
  assert.fail(`expected HTTP ${status}`);
}
