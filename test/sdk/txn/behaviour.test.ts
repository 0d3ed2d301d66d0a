import assert from 'node:assert/strict';
import algosdk from 'algosdk';
import { Address } from '../../../sdk/src/encoding/address.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { concatBytes, utf8 } from '../../../sdk/src/encoding/bytes.js';
import { encodeMsgpack } from '../../../sdk/src/encoding/msgpack.js';
import { parseJson } from '../../../sdk/src/encoding/json.js';
import { Ed25519KeyPair, ed25519Verify } from '../../../sdk/src/crypto/ed25519.js';
import {
  CONSENSUS_V41,
  OnComplete,
  SigningError,
  TxnDecodeError,
  TxnValidationError,
  buildTransaction,
  computeGroupId,
  decodeSignedTransaction,
  decodeTransaction,
  delegateLogicSigMultisig,
  encodeSignedTransaction,
  encodeTransaction,
  estimateSignedSize,
  groupUsage,
  makeAppCallTxn,
  makeAssetCreateTxn,
  makeKeyRegTxn,
  makeLogicSig,
  makePaymentTxn,
  mergeMultisigTransactions,
  multisigAddress,
  requiredFee,
  signLogicSigTransaction,
  signMultisigTransaction,
  signTransaction,
  signedTransactionFromNodeJson,
  signedTransactionToNodeJson,
  stringifyNodeJson,
  transactionFromNodeJson,
  transactionToNodeJson,
  txid,
  validateGroup,
  verifyLogicSig,
  logicSigAddress,
  type CommonParams,
} from '../../../sdk/src/txn/index.js';

const keys = [1, 2, 3].map((n) => Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(n)));
const A = new Address(keys[0]!.publicKey);
const B = new Address(keys[1]!.publicKey);
const sp = { fee: 1000n, flatFee: true, firstValid: 100n, lastValid: 1100n, genesisId: 'net', genesisHash: new Uint8Array(32).fill(9) };
const base: CommonParams = { sender: A, suggestedParams: sp };

function fails(fn: () => unknown, field: string, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof TxnValidationError, `expected TxnValidationError, got ${String(e)}`);
    assert.equal(e.field, field);
    assert.match(e.message, pattern);
    return true;
  });
}

describe('txn: builder validation names field, value and limit', () => {
  it('addresses and amounts', () => {
    fails(() => makePaymentTxn({ ...base, receiver: 'NOT-AN-ADDRESS', amount: 1 }), 'receiver', /bad address/);
    fails(() => makePaymentTxn({ ...base, receiver: B, amount: -1 }), 'amount', /non-negative/);
    fails(() => makePaymentTxn({ ...base, receiver: B, amount: 1n << 64n }), 'amount', /not a uint64/);
  });

  it('note size: 1024 free, 4096 absolute under V42, 1024 under V41', () => {
    makePaymentTxn({ ...base, receiver: B, amount: 1, note: new Uint8Array(4096) });
    fails(() => makePaymentTxn({ ...base, receiver: B, amount: 1, note: new Uint8Array(4097) }), 'note', /note length 4097 exceeds the limit of 4096/);
    fails(
      () => makePaymentTxn({ ...base, receiver: B, amount: 1, note: new Uint8Array(1025), limits: CONSENSUS_V41 }),
      'note',
      /1025 exceeds the limit of 1024/,
    );
  });

  it('validity window and round order', () => {
    fails(
      () => makePaymentTxn({ ...base, receiver: B, amount: 1, suggestedParams: { ...sp, lastValid: 1101n } }),
      'lastValid',
      /1001 rounds exceeds the limit of 1000/,
    );
    fails(() => makePaymentTxn({ ...base, receiver: B, amount: 1, suggestedParams: { ...sp, lastValid: 99n } }), 'lastValid', /before first valid/);
  });

  it('app call limits', () => {
    const app = { ...base, appId: 5 };
    fails(
      () => makeAppCallTxn({ ...app, args: Array.from({ length: 17 }, () => new Uint8Array(1)) }),
      'appCall.args',
      /number of app args 17 exceeds the limit of 16/,
    );
    fails(() => makeAppCallTxn({ ...app, args: [new Uint8Array(4097)] }), 'appCall.args[0]', /4097 exceeds the limit of 4096/);
    fails(
      () => makeAppCallTxn({ ...app, args: Array.from({ length: 5 }, () => new Uint8Array(4000)) }),
      'appCall.args',
      /total app arg length 20000 exceeds the limit of 16384/,
    );
    fails(
      () => makeAppCallTxn({ ...app, args: [new Uint8Array(2000), new Uint8Array(100)], limits: CONSENSUS_V41 }),
      'appCall.args',
      /2100 exceeds the limit of 2048/,
    );
    fails(() => makeAppCallTxn({ ...app, accounts: Array.from({ length: 9 }, () => B) }), 'appCall.accounts', /9 exceeds the limit of 8/);
    fails(
      () => makeAppCallTxn({ ...app, foreignApps: [1, 2, 3, 4, 5], foreignAssets: [1, 2, 3, 4] }),
      'appCall',
      /total of accounts.*9 exceeds the limit of 8/,
    );
    fails(() => makeAppCallTxn({ ...app, boxes: [{ appId: 77, name: 'x' }] }), 'appCall.boxes[0].appId', /neither the called app nor listed/);
    // A fee per byte, or none (the size is then not worked out): the same refusal, validation or not.
    for (const fee of [0n, 10n]) {
      const perByte = { ...app, suggestedParams: { ...sp, flatFee: false, fee }, boxes: [{ appId: 77, name: 'x' }] };
      fails(() => makeAppCallTxn({ ...perByte, validate: false }), 'boxes[0].appId', /neither the called app nor listed/);
      fails(() => makeAppCallTxn(perByte), 'boxes[0].appId', /neither the called app nor listed/);
    }
    fails(() => makeAppCallTxn({ ...app, boxes: [{ appId: 0, name: new Uint8Array(65) }] }), 'appCall.boxes[0].name', /65 exceeds the limit of 64/);
    fails(() => makeAppCallTxn({ ...app, accounts: [B], access: [{ kind: 'asset', assetId: 1n }] }), 'appCall.access', /cannot be combined with accounts/);
    fails(
      () => makeAppCallTxn({ ...app, access: Array.from({ length: 17 }, (_, i) => ({ kind: 'asset' as const, assetId: BigInt(i + 1) })) }),
      'appCall.access',
      /17 exceeds the limit of 16/,
    );
    fails(
      () => makeAppCallTxn({ ...app, access: [{ kind: 'holding', addressIndex: 0, assetIndex: 2 }] }),
      'appCall.access[0].assetIndex',
      /does not point at an asset entry/,
    );
    const create = { ...base, appId: 0, approvalProgram: new Uint8Array([1]), clearProgram: new Uint8Array([1]) };
    fails(() => makeAppCallTxn({ ...create, globalSchema: { numUints: 60, numByteSlices: 5 } }), 'appCall.globalSchema', /65 exceeds the limit of 64/);
    fails(() => makeAppCallTxn({ ...create, localSchema: { numUints: 17 } }), 'appCall.localSchema', /17 exceeds the limit of 16/);
    fails(() => makeAppCallTxn({ ...create, extraPages: 8 }), 'appCall.extraPages', /8 exceeds the limit of 7/);
    fails(() => makeAppCallTxn({ ...create, extraPages: 4, limits: CONSENSUS_V41 }), 'appCall.extraPages', /4 exceeds the limit of 3/);
    fails(() => makeAppCallTxn({ ...create, approvalProgram: new Uint8Array(2049) }), 'appCall.approvalProgram', /2049 exceeds the limit of 2048/);
    fails(() => makeAppCallTxn({ ...app, globalSchema: { numUints: 1 } }), 'appCall.globalSchema', /only be set when creating/);
    fails(() => makeAppCallTxn({ ...app, approvalProgram: new Uint8Array([1]) }), 'appCall.approvalProgram', /creating or updating/);
    makeAppCallTxn({ ...app, onComplete: OnComplete.UpdateApplication, approvalProgram: new Uint8Array([1]), clearProgram: new Uint8Array([1]) });
  });

  it('asset parameter limits', () => {
    const a = { ...base, total: 10 };
    fails(() => makeAssetCreateTxn({ ...a, assetName: 'x'.repeat(33) }), 'assetConfig.params.assetName', /33 exceeds the limit of 32/);
    fails(() => makeAssetCreateTxn({ ...a, unitName: 'é'.repeat(5) }), 'assetConfig.params.unitName', /10 exceeds the limit of 8/);
    fails(() => makeAssetCreateTxn({ ...a, url: 'u'.repeat(97) }), 'assetConfig.params.url', /97 exceeds the limit of 96/);
    fails(() => makeAssetCreateTxn({ ...a, decimals: 20 }), 'decimals', /20 exceeds the limit of 19/);
    fails(() => makeAssetCreateTxn({ ...a, metadataHash: new Uint8Array(31) }), 'metadataHash', /must be 32 bytes, got 31/);
  });

  it('keyreg consistency', () => {
    fails(() => makeKeyRegTxn({ ...base, voteKey: new Uint8Array(32).fill(1) }), 'keyreg', /missing selectionKey, voteLast, voteKeyDilution/);
    fails(() => makeKeyRegTxn({ ...base, voteKey: new Uint8Array(31) }), 'voteKey', /must be 32 bytes/);
  });

  it('group size and group fee', () => {
    const t = makePaymentTxn({ ...base, receiver: B, amount: 1 });
    fails(() => computeGroupId(Array.from({ length: 17 }, () => t)), 'group', /17 transactions, more than the limit of 16/);
    const cheap = makePaymentTxn({ ...base, receiver: B, amount: 1, suggestedParams: { ...sp, fee: 500n } });
    validateGroup([cheap, makePaymentTxn({ ...base, receiver: B, amount: 2, suggestedParams: { ...sp, fee: 1500n } })]);
    fails(() => validateGroup([cheap, cheap]), 'fee', /group fees 1000 are below the minimum of 2000/);
    fails(() => validateGroup([t, { ...t, note: new Uint8Array(5000) }]), 'group[1].note', /^group\[1\]\.note: note length 5000 exceeds the limit of 4096$/);
  });
});

describe('txn: fees', () => {
  it('per-byte fee is perByte × (encoded size + 75) with the min-fee floor', () => {
    const t = makePaymentTxn({ ...base, receiver: B, amount: 1, suggestedParams: { ...sp, fee: 10n, flatFee: false } });
    const size = encodeTransaction({ ...t, fee: 10n }).length + 75;
    assert.equal(estimateSignedSize({ ...t, fee: 10n }), size);
    assert.equal(t.fee, 10n * BigInt(size));
    const floor = makePaymentTxn({ ...base, receiver: B, amount: 1, suggestedParams: { ...sp, fee: 1n, flatFee: false } });
    assert.equal(floor.fee, 1000n);
    const zeroFlat = makePaymentTxn({ ...base, receiver: B, amount: 1, suggestedParams: { ...sp, fee: 0n, flatFee: true } });
    assert.equal(zeroFlat.fee, 0n, 'a flat fee is taken as given (fee pooling)');
  });

  it('V42 surcharges: note above 1024, programs above 4 pages, args above 2048, lsig pool', () => {
    const noted = makePaymentTxn({ ...base, receiver: B, amount: 1, note: new Uint8Array(1524) });
    assert.equal(groupUsage([noted]), 1_000_000n + 100n * 500n);
    assert.equal(requiredFee(noted), 1050n);
    assert.equal(requiredFee(noted, CONSENSUS_V41), 1000n);
    const big = makeAppCallTxn({
      ...base,
      appId: 0,
      extraPages: 7,
      approvalProgram: new Uint8Array(9000),
      clearProgram: new Uint8Array(192),
      args: [new Uint8Array(3000)],
    });
    // programs: 9192 - 8192 = 1000 bytes; args: 3000 - 2048 = 952 bytes
    assert.equal(requiredFee(big), 1000n + 100n + 96n);
    // The per-byte builder raises its floor to the surcharged minimum.
    const auto = makePaymentTxn({ ...base, receiver: B, amount: 1, note: new Uint8Array(3000), suggestedParams: { ...sp, fee: 0n, flatFee: false } });
    assert.equal(auto.fee, requiredFee(auto));
    const program = new Uint8Array(1500).fill(1);
    const lsigged = signLogicSigTransaction(makePaymentTxn({ ...base, sender: logicSigAddress(program), receiver: B, amount: 1 }), makeLogicSig(program));
    assert.equal(requiredFee([lsigged]), 1000n + 50n, '500 bytes over the 1000-byte pool');
    assert.equal(requiredFee([lsigged, makePaymentTxn({ ...base, receiver: B, amount: 1 })]), 2000n, 'pool grows with the group');
  });
});

describe('txn: signing', () => {
  const pay = () => makePaymentTxn({ ...base, receiver: B, amount: 7 });

  it('rekeyed signer sets sgnr; own key does not', () => {
    assert.equal(signTransaction(pay(), keys[0]!).authAddress, undefined);
    assert.ok(signTransaction(pay(), keys[1]!).authAddress?.equals(B));
  });

  it('multisig merge combines signatures and refuses mismatches', () => {
    const meta = { version: 1, threshold: 2, addrs: keys.map((k) => k.publicKey) };
    const t = makePaymentTxn({ ...base, sender: multisigAddress(meta), receiver: B, amount: 7 });
    const s1 = signMultisigTransaction(t, meta, keys[0]!);
    const s3 = signMultisigTransaction(t, meta, keys[2]!);
    const merged = mergeMultisigTransactions([s1, s3]);
    assert.ok(merged.msig!.subsigs[0]!.signature && !merged.msig!.subsigs[1]!.signature && merged.msig!.subsigs[2]!.signature);
    // algosdk produces the same merged bytes from the same inputs.
    const theirs = algosdk.mergeMultisigTransactions([encodeSignedTransaction(s1), encodeSignedTransaction(s3)]);
    assert.equal(toHex(encodeSignedTransaction(merged)), toHex(theirs));
    const other = signMultisigTransaction({ ...t, fee: 2000n }, meta, keys[1]!);
    assert.throws(
      () => mergeMultisigTransactions([s1, other]),
      (e: unknown) => e instanceof SigningError && /differs/.test((e as Error).message),
    );
    assert.throws(() => multisigAddress({ version: 1, threshold: 4, addrs: meta.addrs }), /threshold 4/);
  });

  it('multisig-delegated logic signature (lmsig) signs "MsigProgram"||msigAddr||program, same as algosdk', () => {
    const meta = { version: 1, threshold: 2, addrs: keys.map((k) => k.publicKey) };
    const msigAddr = multisigAddress(meta);
    const program = new Uint8Array([1, 32, 1, 1, 34]);
    let lsig = delegateLogicSigMultisig(makeLogicSig(program, [utf8('a')]), meta, keys[0]!);
    lsig = delegateLogicSigMultisig(lsig, meta, keys[1]!);
    const sig0 = lsig.lmsig!.subsigs[0]!.signature!;
    assert.ok(ed25519Verify(keys[0]!.publicKey, concatBytes(utf8('MsigProgram'), msigAddr.publicKey, program), sig0));
    assert.ok(verifyLogicSig(lsig, msigAddr));
    const t = makePaymentTxn({ ...base, sender: msigAddr, receiver: B, amount: 3 });
    const stxn = signLogicSigTransaction(t, lsig);
    assert.equal(stxn.authAddress, undefined);
    const bytes = encodeSignedTransaction(stxn);
    assert.deepEqual(decodeSignedTransaction(bytes), stxn);

    const lsa = new algosdk.LogicSigAccount(program, [utf8('a')]);
    const theirMeta = { version: 1, threshold: 2, addrs: keys.map((k) => new algosdk.Address(k.publicKey)) };
    lsa.signMultisig(theirMeta, concatBytes(keys[0]!.seed, keys[0]!.publicKey));
    lsa.appendToMultisig(concatBytes(keys[1]!.seed, keys[1]!.publicKey));
    const theirs = algosdk.signLogicSigTransactionObject(algosdk.decodeUnsignedTransaction(encodeTransaction(t)), lsa);
    assert.equal(toHex(bytes), toHex(theirs.blob));
  });

  it('legacy msig delegation decodes; escrow lsig sets sgnr when the sender differs', () => {
    const program = new Uint8Array([1, 32, 1, 1, 34]);
    const escrow = logicSigAddress(program);
    const stxn = signLogicSigTransaction(makePaymentTxn({ ...base, receiver: B, amount: 1 }), makeLogicSig(program));
    assert.ok(stxn.authAddress?.equals(escrow));
    const legacy = encodeMsgpack({
      lsig: { l: program, msig: { subsig: [{ pk: keys[0]!.publicKey }], thr: 1, v: 1 } },
      txn: { fv: 1, lv: 2, snd: A.publicKey, type: 'pay' },
    });
    const decoded = decodeSignedTransaction(legacy);
    assert.equal(decoded.lsig!.msig!.threshold, 1);
    assert.equal(toHex(encodeSignedTransaction(decoded)), toHex(legacy));
  });
});

describe('txn: post-quantum signatures pass through', () => {
  it('decodes, re-encodes unchanged, and adds two min fees of usage', () => {
    const wire = {
      pqsig: { pk: new Uint8Array(10).fill(1), sch: 1, sig: new Uint8Array(20).fill(2), slt: new Uint8Array(4).fill(3) },
      txn: { fee: 3000, fv: 1, lv: 2, snd: A.publicKey, type: 'pay' },
    };
    const bytes = encodeMsgpack(wire);
    const stxn = decodeSignedTransaction(bytes);
    assert.ok(stxn.pqsig);
    assert.equal(toHex(encodeSignedTransaction(stxn)), toHex(bytes));
    assert.equal(requiredFee([stxn]), 3000n);
    assert.throws(() => decodeSignedTransaction(encodeMsgpack({ ...wire, pqsig: { ...wire.pqsig, zz: 1 } })), /stxn\.pqsig\.zz: unknown field/);
  });
});

describe('txn: decoding is strict', () => {
  const txnWire = { fv: 1, lv: 2, snd: new Uint8Array(32).fill(1), type: 'pay' };

  it('rejects unknown fields naming field and location', () => {
    assert.throws(
      () => decodeTransaction(encodeMsgpack({ ...txnWire, zzz: 1 })),
      (e: unknown) => e instanceof TxnDecodeError && e.path === 'txn.zzz' && /unknown field "zzz"/.test(e.message),
    );
    assert.throws(() => decodeSignedTransaction(encodeMsgpack({ txn: txnWire, foo: 1 })), /stxn\.foo: unknown field/);
    assert.throws(
      () => decodeSignedTransaction(encodeMsgpack({ txn: { ...txnWire, type: 'appl', apbx: [{ i: 0, n: new Uint8Array([1]), q: 1 }] } })),
      /stxn\.txn\.apbx\[0\]\.q: unknown field/,
    );
    assert.throws(() => decodeSignedTransaction(encodeMsgpack({ msig: { subsig: [], thr: 1, v: 1, x: 2 }, txn: txnWire })), /stxn\.msig\.x/);
  });

  it('accepts non-canonical integer forms and zero fields, and re-encodes canonically', () => {
    // fee 5 as uint16 (cd 0005), lv as signed int64 (d3 …), and an explicit zero amount.
    const snd = new Uint8Array(32).fill(1);
    const head = new Uint8Array([0x86, 0xa3, 0x66, 0x65, 0x65, 0xcd, 0x00, 0x05, 0xa2, 0x66, 0x76, 0x01, 0xa2, 0x6c, 0x76, 0xd3, 0, 0, 0, 0, 0, 0, 0, 2]);
    const tail = new Uint8Array([
      0xa3,
      0x61,
      0x6d,
      0x74,
      0x00,
      0xa3,
      0x73,
      0x6e,
      0x64,
      0xc4,
      0x20,
      ...snd,
      0xa4,
      0x74,
      0x79,
      0x70,
      0x65,
      0xa3,
      0x70,
      0x61,
      0x79,
    ]);
    const bytes = new Uint8Array([...head, ...tail]);
    const t = decodeTransaction(bytes);
    assert.equal(t.fee, 5n);
    assert.equal(t.lastValid, 2n);
    assert.equal(t.payment!.amount, 0n);
    assert.equal(toHex(encodeTransaction(t)), toHex(encodeMsgpack({ fee: 5, fv: 1, lv: 2, snd, type: 'pay' })));
  });

  it('rejects wrong types, wrong lengths and misplaced type fields', () => {
    assert.throws(() => decodeTransaction(encodeMsgpack({ ...txnWire, snd: new Uint8Array(31) })), /txn\.snd: expected 32 bytes, got 31/);
    assert.throws(() => decodeTransaction(encodeMsgpack({ ...txnWire, fee: 'x' })), /txn\.fee: expected an unsigned integer/);
    assert.throws(() => decodeTransaction(encodeMsgpack({ ...txnWire, xaid: 5 })), /txn\.xaid: field "xaid" belongs to axfer transactions, not pay/);
    assert.throws(() => decodeTransaction(encodeMsgpack({ ...txnWire, type: 'nope' })), /unknown transaction type "nope"/);
    assert.throws(
      () => decodeTransaction(encodeMsgpack({ ...txnWire, type: 'appl', apbx: [{ i: 3, n: new Uint8Array([1]) }] })),
      /index 3 is beyond foreign apps/,
    );
  });
});

describe('txn: node JSON view', () => {
  it('addresses as text, bytes as base64, exact integers; round-trips', () => {
    const t = makeAppCallTxn({
      ...base,
      appId: 12,
      args: [utf8('hi')],
      accounts: [B],
      foreignApps: [1n << 60n],
      boxes: [{ appId: 0, name: 'joe' }],
      note: 'n',
      rekeyTo: B,
    });
    const j = transactionToNodeJson(t);
    assert.equal(j.snd, A.toString());
    assert.deepEqual(j.apat, [B.toString()]);
    assert.equal(j.rekey, B.toString());
    assert.deepEqual(j.apaa, ['aGk=']);
    assert.deepEqual(j.apbx, [{ n: 'am9l' }], 'box ref with index 0 as in json_test.go');
    assert.deepEqual(j.apfa, [1n << 60n]);
    assert.equal(j.gh, 'CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQk=');
    assert.match(stringifyNodeJson(j), /"apfa": \[\n\s+1152921504606846976\n/);
    assert.deepEqual(transactionFromNodeJson(j), t);
    assert.deepEqual(transactionFromNodeJson(parseJson(stringifyNodeJson(j))), t, 'through JSON text and back');
    const s = signTransaction(t, keys[1]!);
    const sj = signedTransactionToNodeJson(s);
    assert.equal(sj.sgnr, B.toString());
    assert.equal(typeof sj.sig, 'string');
    assert.deepEqual(signedTransactionFromNodeJson(sj), s);
  });

  it('access list and asset params use address text in the right places', () => {
    const t = buildTransaction({
      type: 'appl',
      ...base,
      appId: 3,
      access: [
        { kind: 'address', address: B },
        { kind: 'holding', addressIndex: 1, assetIndex: 3 },
        { kind: 'asset', assetId: 9n },
      ],
    });
    const viaRefs = buildTransaction({ type: 'appl', ...base, appId: 3, accessReferences: [{ holding: { address: B, assetId: 9n } }] });
    assert.deepEqual(viaRefs.appCall!.access, [
      { kind: 'address', address: B },
      { kind: 'asset', assetId: 9n },
      { kind: 'holding', addressIndex: 1, assetIndex: 2 },
    ]);
    const j = transactionToNodeJson(t);
    assert.deepEqual(j.al, [{ d: B.toString() }, { h: { d: 1, s: 3 } }, { s: 9 }]);
    assert.deepEqual(transactionFromNodeJson(j), t);
    const c = makeAssetCreateTxn({ ...base, total: 5, manager: B, metadataHash: new Uint8Array(32).fill(1), unitName: 'U' });
    const cj = transactionToNodeJson(c) as { apar: Record<string, unknown> };
    assert.equal(cj.apar.m, B.toString());
    assert.equal(cj.apar.un, 'U');
    assert.equal(cj.apar.am, 'AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=');
    assert.deepEqual(transactionFromNodeJson(cj), c);
  });
});

describe('txn: buildTransaction covers every buildable type', () => {
  it('dispatches on type and the result round-trips', () => {
    const built = [
      buildTransaction({ type: 'pay', ...base, receiver: B, amount: 1 }),
      buildTransaction({ type: 'keyreg', ...base }),
      buildTransaction({ type: 'acfg', ...base, total: 10, assetName: 'A' }),
      buildTransaction({ type: 'acfg', ...base, assetId: 5, manager: B }),
      buildTransaction({ type: 'acfg', ...base, assetId: 5, destroy: true }),
      buildTransaction({ type: 'axfer', ...base, assetId: 5, receiver: B, amount: 2 }),
      buildTransaction({ type: 'afrz', ...base, assetId: 5, freezeTarget: B, frozen: true }),
      buildTransaction({ type: 'appl', ...base, appId: 9, onComplete: OnComplete.DeleteApplication }),
    ];
    for (const t of built) {
      assert.deepEqual(decodeTransaction(encodeTransaction(t)), t, t.type);
      assert.equal(txid(t), txid(decodeTransaction(encodeTransaction(t))));
    }
    assert.equal(built[4]!.assetConfig!.params, undefined);
  });
});
