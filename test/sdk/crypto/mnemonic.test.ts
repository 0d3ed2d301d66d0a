import assert from 'node:assert/strict';
import algosdk from 'algosdk';
import {
  accountFromMnemonic,
  masterDerivationKeyToMnemonic,
  MnemonicError,
  mnemonicFromSeed,
  mnemonicToMasterDerivationKey,
  secretKeyFromMnemonic,
  secretKeyToMnemonic,
  seedFromMnemonic,
} from '../../../sdk/src/crypto/mnemonic.js';
import { ENGLISH_WORDS } from '../../../sdk/src/crypto/wordlist.js';
import { sha256 } from '../../../sdk/src/crypto/hash.js';
import { toHex } from '../../../sdk/src/encoding/hex.js';
import { utf8 } from '../../../sdk/src/encoding/bytes.js';
import { prng } from '../../helpers/random.js';

const TEST_MNEMONIC =
  'advice pudding treat near rule blouse same whisper inner electric quit surface sunny dismiss leader blood seat clown cost exist hospital century reform able sponsor';

describe('crypto: mnemonics', () => {
  it('word list is the BIP-39 English list (protocol.md §5.5 digest)', () => {
    assert.equal(ENGLISH_WORDS.length, 2048);
    assert.equal(toHex(sha256(utf8(ENGLISH_WORDS.join('\n') + '\n'))), '2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda');
  });

  it('zero key ↔ abandon ×24 invest', () => {
    const words = `${'abandon '.repeat(24)}invest`;
    assert.equal(mnemonicFromSeed(new Uint8Array(32)), words);
    assert.deepEqual(seedFromMnemonic(words), new Uint8Array(32));
  });

  it('test account mnemonic → 47YPQTIG…52OPASU (protocol.md §3.7)', () => {
    const account = accountFromMnemonic(TEST_MNEMONIC);
    assert.equal(account.address, '47YPQTIGQEO7T4Y4RWDYWEKV6RTR2UNBQXBABEEGM72ESWDQNCQ52OPASU');
    assert.equal(secretKeyToMnemonic(account.secretKey), TEST_MNEMONIC);
    assert.deepEqual(secretKeyFromMnemonic(TEST_MNEMONIC), account.secretKey);
  });

  it('matches algosdk on random keys (secret keys and master derivation keys)', () => {
    const rand = prng(7);
    for (let n = 0; n < 60; n++) {
      const seed = Uint8Array.from({ length: 32 }, () => Math.floor(rand() * 256));
      const ours = mnemonicFromSeed(seed);
      const sk = secretKeyFromMnemonic(ours);
      assert.equal(algosdk.secretKeyToMnemonic(sk), ours);
      assert.deepEqual(new Uint8Array(algosdk.mnemonicToSecretKey(ours).sk), sk);
      assert.equal(algosdk.masterDerivationKeyToMnemonic(seed), masterDerivationKeyToMnemonic(seed));
      assert.deepEqual(mnemonicToMasterDerivationKey(algosdk.masterDerivationKeyToMnemonic(seed)), seed);
    }
  });

  it('tolerates extra whitespace and capitals', () => {
    const messy = `  ${TEST_MNEMONIC.toUpperCase().replace(/ /g, '  \n')} `;
    assert.equal(accountFromMnemonic(messy).address, '47YPQTIGQEO7T4Y4RWDYWEKV6RTR2UNBQXBABEEGM72ESWDQNCQ52OPASU');
  });

  it('rejects wrong word counts, unknown words and bad checksums specifically', () => {
    const words = TEST_MNEMONIC.split(' ');
    assert.throws(
      () => seedFromMnemonic(words.slice(1).join(' ')),
      (e: unknown) => e instanceof MnemonicError && /must be 25 words, got 24/.test(e.message),
    );
    const typo = [...words];
    typo[6] = 'samee';
    // The word is named by position only: a misspelled word is still most of a secret word.
    assert.throws(
      () => seedFromMnemonic(typo.join(' ')),
      (e: unknown) => e instanceof MnemonicError && /word 7 of the mnemonic is not in the words list/.test(e.message) && !e.message.includes('samee'),
    );
    const swapped = [...words];
    [swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!];
    assert.throws(() => seedFromMnemonic(swapped.join(' ')), /checksum failed to validate/);
    const badLast = [...words.slice(0, 24), words[24] === 'abandon' ? 'ability' : 'abandon'];
    assert.throws(() => seedFromMnemonic(badLast.join(' ')), /checksum failed to validate/);
    // 24th word carries 3 key bits and 8 bits that must be zero: "zoo" (2047) sets them.
    const overflow = [...words.slice(0, 23), 'zoo', words[24]!];
    assert.throws(() => seedFromMnemonic(overflow.join(' ')), /checksum failed to validate/);
    assert.throws(() => mnemonicFromSeed(new Uint8Array(31)), /exactly 32 bytes, got 31/);
  });

  it('never puts the phrase into error messages', () => {
    const words = TEST_MNEMONIC.split(' ');
    words[3] = 'nope';
    try {
      seedFromMnemonic(words.join(' '));
      assert.fail('expected an error');
    } catch (e) {
      assert.ok(e instanceof MnemonicError);
      assert.ok(!e.message.includes('advice pudding'));
    }
  });
});
