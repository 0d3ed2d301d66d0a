import assert from 'node:assert/strict';
import { appCall, runApp, runSig } from './helpers/fixtures.js';
import { failsWith } from './helpers/expect.js';
import { formatMicroAlgos } from '../../../sdk/src/txn/microalgos.js';

/**
 * The node's wordings that issue 22 item 7 lists (read from go-algorand: `stackIntoTxnField`,
 * `spliceCarefully`, `parseByteImmArgs`/`parseIntImmArgs`, `MicroAlgos.String`).
 */
const te = (s: string) => new TextEncoder().encode(s);

describe("avm: the node's error wordings (issue 22 item 7)", () => {
  it('itxn_field Type given a uint64: "Type arg not a byte array"', () => {
    const r = failsWith(runApp('itxn_begin\nint 1\nitxn_field Type\nint 1', { version: 8 }), /^Type arg not a byte array$/);
    assert.match(r.error!.message, /Details: app=\d+, pc=\d+, opcodes=.*itxn_field Type$/);
  });

  it('box_splice whose start + length overflows: "splice end exceeds uint64"', () => {
    const src = 'byte "b"\nint 4\nbox_create\nassert\nbyte "b"\nint 1\nint 18446744073709551615\nbyte 0x01\nbox_splice\nint 1';
    failsWith(runApp(src, { version: 10, txn: appCall({ boxes: [{ appId: 0n, name: te('b') }] }) }), /^splice end exceeds uint64$/);
  });

  it("constant blocks that run past the program at check time use the node's `const … list` texts", () => {
    // bytecblock (0x26): one item declaring 5 bytes with 1 left; 200 items in a 4-byte program.
    failsWith(runSig(Uint8Array.of(8, 0x26, 0x01, 0x05, 0x61)), /const bytes list ran past end of program$/);
    failsWith(runSig(Uint8Array.of(8, 0x26, 0xc8, 0x01)), /const bytes list with too many items$/);
    // intcblock (0x20): three items, one present.
    failsWith(runSig(Uint8Array.of(8, 0x20, 0x03, 0x01)), /const int list ran past end of program$/);
  });

  it('MicroAlgos print as the node prints them (0.0A, uA, mA, A)', () => {
    assert.deepEqual([0n, 1n, 999n, 1000n, 1601n, 1_000_000n - 1n, 1_000_000n, 1_000_001n, 5_250_000n].map(formatMicroAlgos), [
      '0.0A',
      '1uA',
      '999uA',
      '1mA',
      '1.601mA',
      '999.999mA',
      '1A',
      '1.000001A',
      '5.250000A',
    ]);
  });

  describe('json_ref failures word as algod words them (its TestOpJSONRef failing cases)', () => {
    // [JSON text as a TEAL string literal body, key, type, algod's error]
    const cases: [string, string, string, string][] = [
      ['{\\"key0\\": 1 }', 'key0', 'JSONString', 'json: cannot unmarshal number into Go value of type string'],
      ['{\\"key0\\": [1] }', 'key0', 'JSONString', 'json: cannot unmarshal array into Go value of type string'],
      ['{\\"key0\\": {\\"key1\\":1} }', 'key0', 'JSONString', 'json: cannot unmarshal object into Go value of type string'],
      ['{\\"key0\\": true }', 'key0', 'JSONString', 'json: cannot unmarshal bool into Go value of type string'],
      ['{\\"key0\\": \\"1\\" }', 'key0', 'JSONUint64', 'json: cannot unmarshal string into Go value of type uint64'],
      ['{\\"key0\\": [\\"1\\"] }', 'key0', 'JSONUint64', 'json: cannot unmarshal array into Go value of type uint64'],
      ['{\\"key0\\": {\\"key1\\":1} }', 'key0', 'JSONUint64', 'json: cannot unmarshal object into Go value of type uint64'],
      ['{\\"key0\\": false }', 'key0', 'JSONUint64', 'json: cannot unmarshal bool into Go value of type uint64'],
      ['{\\"key0\\": [1]}', 'key0', 'JSONObject', 'json: cannot unmarshal array into Go value of type map[string]json.RawMessage'],
      ['{\\"key0\\": 1}', 'key0', 'JSONObject', 'json: cannot unmarshal number into Go value of type map[string]json.RawMessage'],
      ['{\\"key0\\": \\"1\\"}', 'key0', 'JSONObject', 'json: cannot unmarshal string into Go value of type map[string]json.RawMessage'],
      ['{\\"key0\\": true }', 'key0', 'JSONObject', 'json: cannot unmarshal bool into Go value of type map[string]json.RawMessage'],
      ['{\\"key0\\": null }', 'key0', 'JSONString', 'unexpected end of JSON input'],
      ['{\\"key0\\": null }', 'key0', 'JSONUint64', 'unexpected end of JSON input'],
      ['{\\"key0\\": null }', 'key0', 'JSONObject', 'unexpected end of JSON input'],
      ['{\\"key0\\": 1,\\"key2\\":{\\"key3\\": \\"teal\\"} }', 'key3', 'JSONString', 'key key3 not found in JSON text'],
      ['{\\"key0\\": -0}', 'key0', 'JSONUint64', 'json: cannot unmarshal number -0 into Go value of type uint64'],
      ['{\\"key0\\": 1e10}', 'key0', 'JSONUint64', 'json: cannot unmarshal number 1e10 into Go value of type uint64'],
      ['{\\"key0\\": 0.2e-2}', 'key0', 'JSONUint64', 'json: cannot unmarshal number 0.2e-2 into Go value of type uint64'],
      ['{\\"key0\\": 1.0}', 'key0', 'JSONUint64', 'json: cannot unmarshal number 1.0 into Go value of type uint64'],
      ['{\\"key2\\": -3}', 'key2', 'JSONUint64', 'json: cannot unmarshal number -3 into Go value of type uint64'],
      ['{\\"key0\\": 18446744073709551616}', 'key0', 'JSONUint64', 'json: cannot unmarshal number 18446744073709551616 into Go value of type uint64'],
      ['{\\"key0\\": 1,}', 'key0', 'JSONString', 'error while parsing JSON text, invalid json text'],
      ['{\\"key0\\": 1, \\"key0\\": \\"3\\"}', 'key0', 'JSONString', 'error while parsing JSON text, invalid json text, duplicate keys not allowed'],
      [
        '{\\"key0\\": 0,\\"key2\\":{\\"key4\\": {\\"key40\\": 10, \\"key40\\": \\"should fail!\\"}}}',
        'key0',
        'JSONUint64',
        'error while parsing JSON text, invalid json text, duplicate keys not allowed',
      ],
      ['[1,2,3]', 'key', 'JSONUint64', 'error while parsing JSON text, invalid json text, only json object is allowed'],
      ['2', 'key', 'JSONUint64', 'error while parsing JSON text, invalid json text, only json object is allowed'],
      ['null', 'key', 'JSONUint64', 'error while parsing JSON text, invalid json text, only json object is allowed'],
      ['true', 'key', 'JSONUint64', 'error while parsing JSON text, invalid json text, only json object is allowed'],
      ['\\"sometext\\"', 'key', 'JSONUint64', 'error while parsing JSON text, invalid json text, only json object is allowed'],
      ['{noquotes: \\"shouldn\'t work\\"}', 'noquotes', 'JSONString', 'error while parsing JSON text, invalid json text'],
    ];
    for (const [text, key, type, want] of cases) {
      it(`${type} of ${key} in ${text.replace(/\\"/g, '"')}: ${want}`, () => {
        const r = failsWith(runSig(`byte "${text}"\nbyte "${key}"\njson_ref ${type}\npop\nint 1`, { version: 7 }), want);
        assert.equal(r.error!.reason, want);
      });
    }
  });
});
