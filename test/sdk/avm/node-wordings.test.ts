import assert from 'node:assert/strict';
import { appCall, runApp, runSig } from './helpers/fixtures.js';
import { failsWith } from './helpers/expect.js';
import { formatMicroAlgos } from '../../../sdk/src/txn/microalgos.js';

/**
 * The node's wordings that issue 22 item 7 lists (read from go-algorand: `stackIntoTxnField`,
 * `spliceCarefully`, `parseByteImmArgs`/`parseIntImmArgs`, `MicroAlgos.String`).
 */
const te = (s: string) => new TextEncoder().encode(s);

describe('avm: the node\'s error wordings (issue 22 item 7)', () => {
  it('itxn_field Type given a uint64: "Type arg not a byte array"', () => {
    const r = failsWith(runApp('itxn_begin\nint 1\nitxn_field Type\nint 1', { version: 8 }), /^Type arg not a byte array$/);
    assert.match(r.error!.message, /Details: app=\d+, pc=\d+, opcodes=.*itxn_field Type$/);
  });

  it('box_splice whose start + length overflows: "splice end exceeds uint64"', () => {
    const src = 'byte "b"\nint 4\nbox_create\nassert\nbyte "b"\nint 1\nint 18446744073709551615\nbyte 0x01\nbox_splice\nint 1';
    failsWith(runApp(src, { version: 10, txn: appCall({ boxes: [{ appId: 0n, name: te('b') }] }) }), /^splice end exceeds uint64$/);
  });

  it('constant blocks that run past the program at check time use the node\'s `const … list` texts', () => {
    // bytecblock (0x26): one item declaring 5 bytes with 1 left; 200 items in a 4-byte program.
    failsWith(runSig(Uint8Array.of(8, 0x26, 0x01, 0x05, 0x61)), /const bytes list ran past end of program$/);
    failsWith(runSig(Uint8Array.of(8, 0x26, 0xc8, 0x01)), /const bytes list with too many items$/);
    // intcblock (0x20): three items, one present.
    failsWith(runSig(Uint8Array.of(8, 0x20, 0x03, 0x01)), /const int list ran past end of program$/);
  });

  it('MicroAlgos print as the node prints them (0.0A, uA, mA, A)', () => {
    assert.deepEqual(
      [0n, 1n, 999n, 1000n, 1601n, 1_000_000n - 1n, 1_000_000n, 1_000_001n, 5_250_000n].map(formatMicroAlgos),
      ['0.0A', '1uA', '999uA', '1mA', '1.601mA', '999.999mA', '1A', '1.000001A', '5.250000A'],
    );
  });
});
