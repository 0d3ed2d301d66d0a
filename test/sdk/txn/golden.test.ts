import assert from 'node:assert/strict';
import { Address } from '../../../sdk/src/encoding/address.js';
import { fromBase64, toBase64 } from '../../../sdk/src/encoding/base64.js';
import { fromBase32 } from '../../../sdk/src/encoding/base32.js';
import { concatBytes, utf8 } from '../../../sdk/src/encoding/bytes.js';
import { encodeMsgpack } from '../../../sdk/src/encoding/msgpack.js';
import {
  appendSignMultisigTransaction,
  assignGroupId,
  computeGroupId,
  decodeSignedTransaction,
  decodeSignedTransactions,
  delegateLogicSig,
  encodeSignedTransaction,
  encodeSignedTransactions,
  logicSigAddress,
  makeAssetConfigTxn,
  makeAssetOptInTxn,
  makeAssetTransferTxn,
  makeLogicSig,
  makePaymentTxn,
  multisigAddress,
  signLogicSigTransaction,
  signMultisigTransaction,
  signTransaction,
  signTransactionToBytes,
  txid,
  verifyLogicSig,
  verifyMultisigTransaction,
  verifySignedTransaction,
} from '../../../sdk/src/txn/index.js';
import { keyFromMnemonic } from './fixtures.js';

/** Golden vectors of protocol.md §3.7 and the go-algorand-sdk tests it cites (values as data). */

const ADVICE =
  'advice pudding treat near rule blouse same whisper inner electric quit surface sunny dismiss leader blood seat clown cost exist hospital century reform able sponsor';
const AWFUL =
  'awful drop leaf tennis indoor begin mandate discover uncle seven only coil atom any hospital uncover make any climb actor armed measure need above hundred';
const AUCTION =
  'auction inquiry lava second expand liberty glass involve ginger illness length room item discover ahead table doctor term tackle cement bonus profit right above catch';
const SINCE =
  'since during average anxiety protect cherry club long lawsuit loan expand embark forum theory winter park twenty ball kangaroo cram burst board host ability left';
const FROM = '47YPQTIGQEO7T4Y4RWDYWEKV6RTR2UNBQXBABEEGM72ESWDQNCQ52OPASU';
const TO = 'PNWOET7LLOWMBMLE4KOCELCX6X3D3Q4H2Q4QJASYIEOF7YIPPQBG3YQ5YI';
const MSIG_ADDRS = ['DN7MBMCL5JQ3PFUQS7TMX5AH4EEKOBJVDUF4TCV6WERATKFLQF4MQUPZTA', 'BFRTECKTOOE7A5LHCF3TTEOH2A7BW46IYT2SX5VP6ANKEXHZYJY77SJTVM', FROM];

function goldenPayment(lease?: Uint8Array) {
  return makePaymentTxn({
    sender: FROM,
    receiver: TO,
    amount: 1000,
    closeRemainderTo: 'IDUTJEUIEVSMXTU4LGTJWZ2UE2E6TIODUKU6UW3FU3UKIQQ77RLUBBBFLA',
    note: fromBase64('6gAVR0Nsv5Y='),
    lease,
    suggestedParams: { fee: 4, firstValid: 12466, lastValid: 13466, genesisId: 'devnet-v33.0', genesisHash: 'JgsgCaCTqIaLeVhyL6XlRu3n7Rfk2FxMeK+wRSaQ7dI=' },
  });
}

describe('txn: golden vectors', () => {
  it('signed payment (TestMakePaymentTxn): per-byte fee 4 → 1176, exact bytes and txid', () => {
    const txn = goldenPayment();
    assert.equal(txn.fee, 1176n);
    assert.equal(txid(txn), '5FJDJD5LMZC3EHUYYJNH5I23U4X6H2KXABNDGPIL557ZMJ33GZHQ');
    const golden =
      'gqNzaWfEQPhUAZ3xkDDcc8FvOVo6UinzmKBCqs0woYSfodlmBMfQvGbeUx3Srxy3dyJDzv7rLm26BRv9FnL2/AuT7NYfiAWjdHhui6NhbXTNA+ilY2xvc2XEIEDpNJKIJWTLzpxZpptnVCaJ6aHDoqnqW2Wm6KRCH/xXo2ZlZc0EmKJmds0wsqNnZW6sZGV2bmV0LXYzMy4womdoxCAmCyAJoJOohot5WHIvpeVG7eftF+TYXEx4r7BFJpDt0qJsds00mqRub3RlxAjqABVHQ2y/lqNyY3bEIHts4k/rW6zAsWTinCIsV/X2PcOH1DkEglhBHF/hD3wCo3NuZMQg5/D4TQaBHfnzHI2HixFV9GcdUaGFwgCQhmf0SVhwaKGkdHlwZaNwYXk=';
    const key = keyFromMnemonic(ADVICE);
    const stxn = signTransaction(txn, key);
    assert.equal(stxn.authAddress, undefined);
    assert.equal(toBase64(encodeSignedTransaction(stxn)), golden);
    const fast = signTransactionToBytes(txn, key);
    assert.equal(toBase64(fast.blob), golden);
    assert.equal(fast.txid, txid(txn));
    assert.ok(verifySignedTransaction(decodeSignedTransaction(fromBase64(golden))));
  });

  it('payment with lease 01020304×8 (TestMakePaymentTxnWithLease) has the golden txid', () => {
    const lease = new Uint8Array(32).map((_, i) => (i % 4) + 1);
    assert.equal(txid(goldenPayment(lease)), '7BG6COBZKF6I6W5XY72ZE4HXV6LLZ6ENSR6DASEGSTXYXR4XJOOQ');
  });

  it('group id (TestComputeGroupID): goal-produced transactions, grouped bytes', () => {
    const goldenTx1 =
      'gaN0eG6Ko2FtdM0H0KNmZWXNA+iiZnbOAArW/6NnZW6rZGV2bmV0LXYxLjCiZ2jEILAtz+3tknW6iiStLW4gnSvbXUqW3ul3ghinaDc5pY9Bomx2zgAK2uekbm90ZcQIwRKw5cJ0CMqjcmN2xCCj8AKs8kPYlx63ppj1w5410qkMRGZ9FYofNYPXxGpNLKNzbmTEIKPwAqzyQ9iXHremmPXDnjXSqQxEZn0Vih81g9fEak0spHR5cGWjcGF5';
    const goldenTx2 =
      'gaN0eG6Ko2FtdM0H0KNmZWXNA+iiZnbOAArXc6NnZW6rZGV2bmV0LXYxLjCiZ2jEILAtz+3tknW6iiStLW4gnSvbXUqW3ul3ghinaDc5pY9Bomx2zgAK21ukbm90ZcQIdBlHI6BdrIijcmN2xCCj8AKs8kPYlx63ppj1w5410qkMRGZ9FYofNYPXxGpNLKNzbmTEIKPwAqzyQ9iXHremmPXDnjXSqQxEZn0Vih81g9fEak0spHR5cGWjcGF5';
    const goldenTxg =
      'gaN0eG6Lo2FtdM0H0KNmZWXNA+iiZnbOAArW/6NnZW6rZGV2bmV0LXYxLjCiZ2jEILAtz+3tknW6iiStLW4gnSvbXUqW3ul3ghinaDc5pY9Bo2dycMQgLiQ9OBup9H/bZLSfQUH2S6iHUM6FQ3PLuv9FNKyt09SibHbOAAra56Rub3RlxAjBErDlwnQIyqNyY3bEIKPwAqzyQ9iXHremmPXDnjXSqQxEZn0Vih81g9fEak0so3NuZMQgo/ACrPJD2Jcet6aY9cOeNdKpDERmfRWKHzWD18RqTSykdHlwZaNwYXmBo3R4boujYW10zQfQo2ZlZc0D6KJmds4ACtdzo2dlbqtkZXZuZXQtdjEuMKJnaMQgsC3P7e2SdbqKJK0tbiCdK9tdSpbe6XeCGKdoNzmlj0GjZ3JwxCAuJD04G6n0f9tktJ9BQfZLqIdQzoVDc8u6/0U0rK3T1KJsds4ACttbpG5vdGXECHQZRyOgXayIo3JjdsQgo/ACrPJD2Jcet6aY9cOeNdKpDERmfRWKHzWD18RqTSyjc25kxCCj8AKs8kPYlx63ppj1w5410qkMRGZ9FYofNYPXxGpNLKR0eXBlo3BheQ==';
    const sender = decodeSignedTransaction(fromBase64(goldenTx1)).txn.sender.toString();
    const build = (firstValid: number, note: string) =>
      makePaymentTxn({
        sender,
        receiver: sender,
        amount: 2000,
        note: fromBase64(note),
        suggestedParams: {
          fee: 1000,
          flatFee: true,
          firstValid,
          lastValid: firstValid + 1000,
          genesisId: 'devnet-v1.0',
          genesisHash: 'sC3P7e2SdbqKJK0tbiCdK9tdSpbe6XeCGKdoNzmlj0E=',
        },
      });
    const tx1 = build(710399, 'wRKw5cJ0CMo=');
    const tx2 = build(710515, 'dBlHI6BdrIg=');
    // goal writes an unsigned transaction as a signed one with only `txn`.
    assert.equal(toBase64(encodeSignedTransaction({ txn: tx1 })), goldenTx1);
    assert.equal(toBase64(encodeSignedTransaction({ txn: tx2 })), goldenTx2);
    const gid = computeGroupId([tx1, tx2]);
    assert.equal(toBase64(gid), 'LiQ9OBup9H/bZLSfQUH2S6iHUM6FQ3PLuv9FNKyt09Q=');
    // The group id is computed with grp absent, so it is stable once assigned.
    const grouped = assignGroupId([tx1, tx2]);
    assert.deepEqual(computeGroupId(grouped), gid);
    assert.equal(tx1.group, undefined, 'inputs are not modified');
    const raw = encodeSignedTransactions(grouped.map((txn) => ({ txn })));
    assert.equal(toBase64(raw), goldenTxg);
    assert.deepEqual(
      decodeSignedTransactions(raw).map((s) => s.txn),
      grouped,
    );
    // [computed] form of the preimage: "TG" || {txlist: [id1, id2]}
    const pre = encodeMsgpack({ txlist: [fromBase32(txid(tx1)), fromBase32(txid(tx2))] });
    assert.equal(toBase64(pre.subarray(0, 9)), toBase64(concatBytes(new Uint8Array([0x81, 0xa6]), utf8('txlist'), new Uint8Array([0x92]))));
  });

  it('delegated logic signature (TestLogicSig): program 0120010122, args "123","456"', () => {
    const golden =
      'gqRsc2lng6NhcmeSxAMxMjPEAzQ1NqFsxAUBIAEBIqNzaWfEQE6HXaI5K0lcq50o/y3bWOYsyw9TLi/oorZB4xaNdn1Z14351u2f6JTON478fl+JhIP4HNRRAIh/I8EWXBPpJQ2jdHhuiqNhbXTNB9CjZmVlzQPoomZ2zgAfeyGjZ2Vuq2Rldm5ldC12MS4womdoxCCwLc/t7ZJ1uookrS1uIJ0r211Klt7pd4IYp2g3OaWPQaJsds4AH38JpG5vdGXECPMTAk7i0PNdo3JjdsQge2ziT+tbrMCxZOKcIixX9fY9w4fUOQSCWEEcX+EPfAKjc25kxCDn8PhNBoEd+fMcjYeLEVX0Zx1RoYXCAJCGZ/RJWHBooaR0eXBlo3BheQ==';
    const txn = makePaymentTxn({
      sender: FROM,
      receiver: TO,
      amount: 2000,
      note: fromBase64('8xMCTuLQ810='),
      suggestedParams: {
        fee: 1000,
        flatFee: true,
        firstValid: 2063137,
        lastValid: 2064137,
        genesisId: 'devnet-v1.0',
        genesisHash: 'sC3P7e2SdbqKJK0tbiCdK9tdSpbe6XeCGKdoNzmlj0E=',
      },
    });
    const program = new Uint8Array([1, 32, 1, 1, 34]);
    const lsig = delegateLogicSig(makeLogicSig(program, [utf8('123'), utf8('456')]), keyFromMnemonic(ADVICE));
    const stxn = signLogicSigTransaction(txn, lsig);
    assert.equal(stxn.authAddress, undefined);
    assert.equal(toBase64(encodeSignedTransaction(stxn)), golden);
    const back = decodeSignedTransaction(fromBase64(golden));
    assert.deepEqual(back, stxn);
    assert.ok(verifyLogicSig(back.lsig!, Address.fromString(FROM)));
    assert.ok(!verifyLogicSig(back.lsig!, Address.fromString(TO)));
  });

  it('logic signature escrow address of 0x0120010122', () => {
    assert.equal(logicSigAddress(new Uint8Array([1, 32, 1, 1, 34])).toString(), '6Z3C3LDVWGMX23BMSYMANACQOSINPFIRF77H7N3AWJZYV6OH6GWTJKVMXY');
  });

  it('application address of app 77', () => {
    assert.equal(Address.forApp(77n).toString(), 'PCYUFPA2ZTOYWTP43MX2MOX2OWAIAXUDNC2WFCXAGMRUZ3DYD6BWFDL5YM');
  });

  it('multisig address v1/2-of-3', () => {
    assert.equal(multisigAddress({ version: 1, threshold: 2, addrs: MSIG_ADDRS }).toString(), 'RWJLJCMQAFZ2ATP2INM2GZTKNL6OULCCUBO5TQPXH3V2KR4AG7U5UA5JNM');
  });

  it('TestSignMultisigTransaction: exact bytes, txid; append of the second key; threshold verification', () => {
    const meta = { version: 1, threshold: 2, addrs: MSIG_ADDRS };
    const txn = makePaymentTxn({
      sender: multisigAddress(meta),
      receiver: MSIG_ADDRS[0]!,
      amount: 5000,
      note: new Uint8Array([180, 81, 121, 57, 252, 250, 210, 113]),
      suggestedParams: { fee: 217000, flatFee: true, firstValid: 972508, lastValid: 973508, genesisId: 'testnet-v31.0' },
    });
    assert.equal(txid(txn), 'KY6I7NQXQDAMDUCAVATI45BAODW6NRYQKFH4KIHLH2HQI4DO4XBA');
    const one = signMultisigTransaction(txn, meta, keyFromMnemonic(AUCTION));
    assert.equal(
      toBase64(encodeSignedTransaction(one)),
      'gqRtc2lng6ZzdWJzaWeTgqJwa8QgG37AsEvqYbeWkJfmy/QH4QinBTUdC8mKvrEiCairgXihc8RAdvZ3y9GsInBPutdwKc7Jy+an13CcjSV1lcvRAYQKYOxXwfgT5B/mK14R57ueYJTYyoDO8zBY6kQmBalWkm95AIGicGvEIAljMglTc4nwdWcRdzmRx9A+G3PIxPUr9q/wGqJc+cJxgaJwa8Qg5/D4TQaBHfnzHI2HixFV9GcdUaGFwgCQhmf0SVhwaKGjdGhyAqF2AaN0eG6Jo2FtdM0TiKNmZWXOAANPqKJmds4ADtbco2dlbq10ZXN0bmV0LXYzMS4womx2zgAO2sSkbm90ZcQItFF5Ofz60nGjcmN2xCAbfsCwS+pht5aQl+bL9AfhCKcFNR0LyYq+sSIJqKuBeKNzbmTEII2StImQAXOgTfpDWaNmamr86ixCoF3Zwfc+66VHgDfppHR5cGWjcGF5',
    );
    assert.ok(!verifyMultisigTransaction(one), 'one signature is below the threshold');
    const two = appendSignMultisigTransaction(one, meta, keyFromMnemonic(SINCE));
    assert.equal(
      toBase64(encodeSignedTransaction(two)),
      'gqRtc2lng6ZzdWJzaWeTgqJwa8QgG37AsEvqYbeWkJfmy/QH4QinBTUdC8mKvrEiCairgXihc8RAdvZ3y9GsInBPutdwKc7Jy+an13CcjSV1lcvRAYQKYOxXwfgT5B/mK14R57ueYJTYyoDO8zBY6kQmBalWkm95AIKicGvEIAljMglTc4nwdWcRdzmRx9A+G3PIxPUr9q/wGqJc+cJxoXPEQE4cdVDpoVoVVokXRGz6O9G3Ojljd+kd6d2AahXLPGDPtT/QA9DI1rB4w8cEDTy7gd5Padkn5EZC2pjzGh0McAeBonBrxCDn8PhNBoEd+fMcjYeLEVX0Zx1RoYXCAJCGZ/RJWHBooaN0aHICoXYBo3R4bomjYW10zROIo2ZlZc4AA0+oomZ2zgAO1tyjZ2VurXRlc3RuZXQtdjMxLjCibHbOAA7axKRub3RlxAi0UXk5/PrScaNyY3bEIBt+wLBL6mG3lpCX5sv0B+EIpwU1HQvJir6xIgmoq4F4o3NuZMQgjZK0iZABc6BN+kNZo2ZqavzqLEKgXdnB9z7rpUeAN+mkdHlwZaNwYXk=',
    );
    assert.ok(verifyMultisigTransaction(two));
    assert.throws(() => signMultisigTransaction(txn, meta, keyFromMnemonic(AWFUL)), /not one of the multisig's keys/);
  });

  describe('go-algorand-sdk asset transactions with per-byte fee 10', () => {
    const addr = 'BH55E5RMBD4GYWXGX5W5PJ5JAHPGM5OXKDQH5DC4O2MGI7NW4H6VOE4CP4';
    const gh = 'SGO1GKSzyE7IEPItTxCByw9x8FmnrCDexi9/cOUJOiI=';
    const key = () => keyFromMnemonic(AWFUL);

    it('TestMakeAssetConfigTxn (fee 3400)', () => {
      const txn = makeAssetConfigTxn({
        sender: addr,
        assetId: 1234,
        manager: addr,
        reserve: addr,
        freeze: addr,
        clawback: addr,
        suggestedParams: { fee: 10, firstValid: 322575, lastValid: 323575, genesisHash: gh },
      });
      assert.equal(txn.fee, 3400n);
      assert.equal(
        toBase64(encodeSignedTransaction(signTransaction(txn, key()))),
        'gqNzaWfEQBBkfw5n6UevuIMDo2lHyU4dS80JCCQ/vTRUcTx5m0ivX68zTKyuVRrHaTbxbRRc3YpJ4zeVEnC9Fiw3Wf4REwejdHhuiKRhcGFyhKFjxCAJ+9J2LAj4bFrmv23Xp6kB3mZ111Dgfoxcdphkfbbh/aFmxCAJ+9J2LAj4bFrmv23Xp6kB3mZ111Dgfoxcdphkfbbh/aFtxCAJ+9J2LAj4bFrmv23Xp6kB3mZ111Dgfoxcdphkfbbh/aFyxCAJ+9J2LAj4bFrmv23Xp6kB3mZ111Dgfoxcdphkfbbh/aRjYWlkzQTSo2ZlZc0NSKJmds4ABOwPomdoxCBIY7UYpLPITsgQ8i1PEIHLD3HwWaesIN7GL39w5Qk6IqJsds4ABO/3o3NuZMQgCfvSdiwI+Gxa5r9t16epAd5mdddQ4H6MXHaYZH224f2kdHlwZaRhY2Zn',
      );
    });

    it('TestMakeAssetTransferTxn with close-to (fee 2750)', () => {
      // The vector's validity window is 1001 rounds, one more than the protocol allows.
      const p = {
        sender: addr,
        receiver: addr,
        closeRemainderTo: addr,
        amount: 1,
        assetId: 1,
        suggestedParams: { fee: 10, firstValid: 322575, lastValid: 323576, genesisHash: gh },
      };
      assert.throws(() => makeAssetTransferTxn(p), /lastValid: validity window of 1001 rounds exceeds the limit of 1000/);
      const txn = makeAssetTransferTxn({ ...p, validate: false });
      assert.equal(txn.fee, 2750n);
      assert.equal(
        toBase64(encodeSignedTransaction(signTransaction(txn, key()))),
        'gqNzaWfEQNkEs3WdfFq6IQKJdF1n0/hbV9waLsvojy9pM1T4fvwfMNdjGQDy+LeesuQUfQVTneJD4VfMP7zKx4OUlItbrwSjdHhuiqRhYW10AaZhY2xvc2XEIAn70nYsCPhsWua/bdenqQHeZnXXUOB+jFx2mGR9tuH9pGFyY3bEIAn70nYsCPhsWua/bdenqQHeZnXXUOB+jFx2mGR9tuH9o2ZlZc0KvqJmds4ABOwPomdoxCBIY7UYpLPITsgQ8i1PEIHLD3HwWaesIN7GL39w5Qk6IqJsds4ABO/4o3NuZMQgCfvSdiwI+Gxa5r9t16epAd5mdddQ4H6MXHaYZH224f2kdHlwZaVheGZlcqR4YWlkAQ==',
      );
    });

    it('TestMakeAssetAcceptanceTxn (opt-in, fee 2280)', () => {
      const txn = makeAssetOptInTxn({ sender: addr, assetId: 1, suggestedParams: { fee: 10, firstValid: 322575, lastValid: 323575, genesisHash: gh } });
      assert.equal(txn.fee, 2280n);
      assert.equal(
        toBase64(encodeSignedTransaction(signTransaction(txn, key()))),
        'gqNzaWfEQJ7q2rOT8Sb/wB0F87ld+1zMprxVlYqbUbe+oz0WM63FctIi+K9eYFSqT26XBZ4Rr3+VTJpBE+JLKs8nctl9hgijdHhuiKRhcmN2xCAJ+9J2LAj4bFrmv23Xp6kB3mZ111Dgfoxcdphkfbbh/aNmZWXNCOiiZnbOAATsD6JnaMQgSGO1GKSzyE7IEPItTxCByw9x8FmnrCDexi9/cOUJOiKibHbOAATv96NzbmTEIAn70nYsCPhsWua/bdenqQHeZnXXUOB+jFx2mGR9tuH9pHR5cGWlYXhmZXKkeGFpZAE=',
      );
    });
  });
});
