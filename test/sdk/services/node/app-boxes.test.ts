import assert from 'node:assert/strict';
import algosdk from 'algosdk';
import { Address } from '../../../../sdk/src/encoding/address.js';
import { toBase64 } from '../../../../sdk/src/encoding/base64.js';
import { utf8 } from '../../../../sdk/src/encoding/bytes.js';
import { assemble } from '../../../../sdk/src/teal/index.js';
import { makeAppCallTxn, makeAppCreateTxn } from '../../../../sdk/src/txn/builders.js';
import { TOKEN, ALGO, startNode, type Node } from './helpers.js';

/**
 * `GET /v2/applications/{id}/boxes` as the node serves it, over HTTP: the unpaged listing with its
 * `max` refusal, and the paged form (`limit`, `next` after which results start, `prefix`,
 * `include=values`, `round`, the byte cap per page), with the node's error texts; also through
 * algosdk's own client.
 */

/** box_put(arg0, arg1) with two arguments, box_del(arg0) with one. */
const APPROVAL = `#pragma version 10
txn ApplicationID
bz ok
txn NumAppArgs
int 1
==
bnz del
txna ApplicationArgs 0
txna ApplicationArgs 1
box_put
b ok
del:
txna ApplicationArgs 0
box_del
pop
ok:
int 1`;

const b64 = (s: string | Uint8Array) => toBase64(typeof s === 'string' ? utf8(s) : s);

describe('node service: GET /v2/applications/{id}/boxes (paged form)', function () {
  this.timeout(60_000);
  let n: Node;
  let appId: bigint;
  let bigApp: bigint;
  /** Rounds after which the boxes stood as named. */
  const at: Record<string, bigint> = {};

  const create = () => {
    n.ledger.submit([
      n.sign(
        makeAppCreateTxn({
          sender: n.addr(0),
          approvalProgram: assemble(APPROVAL).program,
          clearProgram: assemble('#pragma version 10\nint 1').program,
          suggestedParams: n.sp(),
        }),
      ),
    ]);
    const id = n.ledger.block(n.ledger.latestRound).txns[0]!.ad.createdAppId!;
    n.ledger.submit([n.sign(n.pay(0, Address.forApp(id).toString(), 20n * ALGO))]);
    return id;
  };
  const put = (name: string, value?: string) => {
    const args = value === undefined ? [utf8(name)] : [utf8(name), utf8(value)];
    n.ledger.submit([n.sign(makeAppCallTxn({ sender: n.addr(0), appId, args, boxes: [{ appId, name: utf8(name) }], suggestedParams: n.sp() }))]);
    return n.ledger.latestRound;
  };
  const get = async (query: string, id = appId) => n.call('GET', `/v2/applications/${id}/boxes${query}`);

  before(async () => {
    n = await startNode({ ledgerConfig: { deltaWindow: 8 } });
    appId = create();
    at.a = put('a', 'va');
    at.ab = put('b', 'vb');
    for (const x of ['c', 'd', 'e', 'alpha', 'alphabeta']) put(x, `v${x}`);
    at.all = n.ledger.latestRound;
    at.noA = put('a');
    put('a', 'va'); // back again: the latest state has every box
    // Forty boxes of 32 KiB (written straight into the state): more than one page's byte cap with values.
    bigApp = create();
    for (let i = 0; i < 40; i++) n.ledger.state.putBox(bigApp, utf8(`big${String(i).padStart(2, '0')}`), new Uint8Array(32768).fill(i));
    n.ledger.state.commit();
  });

  after(async () => {
    await n?.close();
  });

  const names = (r: { json: { boxes: { name: string }[] } }) => r.json.boxes.map((b) => Buffer.from(b.name, 'base64').toString());
  const all = ['a', 'alpha', 'alphabeta', 'b', 'c', 'd', 'e'];

  it('without paging parameters lists every name, with no round and no values; max below the count is refused with the counts', async () => {
    const r = await get('');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.json), ['boxes']);
    assert.deepEqual(names(r).sort(), all);
    assert.equal(
      r.json.boxes.every((b: object) => Object.keys(b).join() === 'name'),
      true,
    );
    assert.equal((await get('?max=7')).status, 200);
    assert.equal((await get('?max=0')).status, 200);
    const refused = await get('?max=2');
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.json, { message: 'Result limit exceeded', data: { max: 2, 'max-api-box-per-application': 100000, 'total-boxes': 7 } });
    // include with no known item does not switch paging on.
    assert.deepEqual(Object.keys((await get('?include=bogus')).json), ['boxes']);
  });

  it('limit pages the names in order; next-token (the last name) starts the next page after it; max is ignored when paging', async () => {
    const seen: string[] = [];
    let next: string | undefined;
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await get(`?limit=3&max=1${next ? `&next=${encodeURIComponent(next)}` : ''}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.round, Number(n.ledger.latestRound));
      seen.push(...names(r));
      next = r.json['next-token'];
      if (!next) break;
      tokens.push(next);
      assert.equal(next, `b64:${b64(seen[seen.length - 1]!)}`);
    }
    assert.deepEqual(seen, all);
    assert.equal(tokens.length, 2, 'three pages: 3 + 3 + 1');
    const exact = await get('?limit=7');
    assert.equal(exact.json['next-token'], undefined, 'no token when the page ends at the last box');
    const oneLeft = await get('?limit=6');
    assert.equal(oneLeft.json['next-token'], `b64:${b64('d')}`);
  });

  it('next is exclusive and takes any encoding; prefix filters; an empty next or prefix is no filter', async () => {
    assert.deepEqual(names(await get('?next=str:b')), ['c', 'd', 'e']);
    assert.deepEqual(names(await get('?next=str:alpha')), ['alphabeta', 'b', 'c', 'd', 'e']);
    assert.deepEqual(names(await get('?next=str:alphaa')), ['alphabeta', 'b', 'c', 'd', 'e']);
    assert.deepEqual(names(await get(`?next=b64:${encodeURIComponent(b64('c'))}`)), ['d', 'e']);
    assert.deepEqual(names(await get('?next=')), all, 'next= (empty) pages from the start');
    assert.deepEqual(names(await get('?next=b64:')), all);
    assert.deepEqual(names(await get('?prefix=str:al')), ['alpha', 'alphabeta']);
    assert.deepEqual(names(await get('?prefix=str:alpha&next=str:alpha')), ['alphabeta']);
    assert.deepEqual(names(await get('?prefix=str:zz&limit=1')), []);
    const empty = await get('?prefix=&limit=2');
    assert.deepEqual(names(empty), ['a', 'alpha']);
    assert.equal(Object.keys((await get('?prefix=')).json).join(), 'boxes', 'an empty prefix alone is the unpaged form');
  });

  it('include=values adds each value (comma lists and repeats too); unknown items are ignored', async () => {
    const r = await get('?include=values&limit=2');
    assert.deepEqual(r.json.boxes, [
      { name: b64('a'), value: b64('va') },
      { name: b64('alpha'), value: b64('valpha') },
    ]);
    assert.equal((await get('?include=bogus,values&limit=1')).json.boxes[0].value, b64('va'));
    assert.equal((await get('?include=bogus&include=values&limit=1')).json.boxes[0].value, b64('va'));
    assert.deepEqual((await get('?include=bogus&limit=1')).json.boxes, [{ name: b64('a') }]);
    const noLimit = await get('?include=values');
    assert.equal(noLimit.json.boxes.length, 7);
    assert.equal(noLimit.json['next-token'], undefined);
  });

  it('round reads the boxes as they stood after that round; past the latest or before the held window is refused', async () => {
    const latest = n.ledger.latestRound;
    const r = await get(`?round=${latest}`);
    assert.equal(r.json.round, Number(latest));
    assert.deepEqual(names(r), all);
    assert.deepEqual(names(await get(`?round=${at.noA}`)), all.slice(1), "'a' deleted in that round");
    const before = await get(`?round=${at.all}&include=values`);
    assert.deepEqual(names(before), all);
    assert.equal(before.json.round, Number(at.all));
    assert.deepEqual((await get(`?round=${latest + 1n}`)).json, { message: 'given round is greater than the latest round' });
    const old = await get(`?round=${at.ab}`);
    assert.equal(old.status, 400, `round ${at.ab} is outside the window of 8 rounds (latest ${latest})`);
    assert.deepEqual(old.json, { message: 'given round is no longer available; use a more recent round' });
    // The round is checked before next or prefix are read.
    assert.deepEqual((await get(`?round=${latest + 1n}&next=nocolon`)).json, { message: 'given round is greater than the latest round' });
  });

  it("a bad next or prefix gets the node's words", async () => {
    const cases: [string, string][] = [
      ['?next=nocolon', "invalid next token: all arguments and box names should be of the form 'encoding:value'"],
      ['?next=b64:%40%40', 'invalid next token: Could not decode base64-encoded string (@@): illegal base64 data at input byte 0'],
      ['?next=b64:YWJj%3D', 'invalid next token: Could not decode base64-encoded string (YWJj=): illegal base64 data at input byte 4'],
      ['?next=b64:YQ', 'invalid next token: Could not decode base64-encoded string (YQ): illegal base64 data at input byte 0'],
      ['?next=b64:YQ%3D', 'invalid next token: Could not decode base64-encoded string (YQ=): illegal base64 data at input byte 3'],
      ['?next=b32:MFRGG', 'invalid next token: Could not decode base32-encoded string (MFRGG): illegal base32 data at input byte 0'],
      ['?next=b32:MF%3D%3D%3D%3D%3D', 'invalid next token: Could not decode base32-encoded string (MF=====): illegal base32 data at input byte 7'],
      ['?next=b32:MFA%3D%3D%3D%3D%3D', 'invalid next token: Could not decode base32-encoded string (MFA=====): illegal base32 data at input byte 3'],
      ['?prefix=int:x', 'invalid prefix: Could not parse uint64 from string (x): strconv.ParseUint: parsing "x": invalid syntax'],
      [
        '?prefix=int:18446744073709551616',
        'invalid prefix: Could not parse uint64 from string (18446744073709551616): strconv.ParseUint: parsing "18446744073709551616": value out of range',
      ],
      ['?prefix=hex:00', 'invalid prefix: Unknown encoding: hex'],
      [
        '?prefix=addr:AAAA',
        'invalid prefix: Could not unmarshal checksummed address from string (AAAA): cannot cast encoded address string (AAAA) to address: decoded byte length should equal 36 with address and checksum',
      ],
      ['?prefix=abi:uint64', 'invalid prefix: Could not decode abi string (uint64): should split abi-type and abi-value with colon'],
    ];
    for (const [q, message] of cases) {
      const r = await get(q);
      assert.equal(r.status, 400, q);
      assert.deepEqual(r.json, { message }, q);
    }
    assert.match((await get('?limit=x')).json.message, /limit/);
    assert.match((await get('?round=-1')).json.message, /round/);
  });

  it("one box by name: the name is read as the node reads it, and refused in the node's words", async () => {
    const one = (q: string) => n.call('GET', `/v2/applications/${appId}/box${q}`);
    const ok = await one('?name=b64:YWxwaGE%3D');
    assert.equal(ok.status, 200);
    assert.equal(Buffer.from(ok.json.value, 'base64').toString(), 'valpha');
    assert.equal((await one('?name=abi:string:"alpha"')).status, 404, 'an ABI string has a length prefix');
    assert.deepEqual((await one('?name=str:zzz')).json, { message: 'box not found' });
    const cases: [string, string][] = [
      ['?name=alpha', "all arguments and box names should be of the form 'encoding:value'"],
      ['?name=', "all arguments and box names should be of the form 'encoding:value'"],
      ['?name=b64:YQ', 'Could not decode base64-encoded string (YQ): illegal base64 data at input byte 0'],
      ['?name=int:x', 'Could not parse uint64 from string (x): strconv.ParseUint: parsing "x": invalid syntax'],
      ['?name=hex:00', 'Unknown encoding: hex'],
    ];
    for (const [q, message] of cases) {
      const r = await one(q);
      assert.equal(r.status, 400, q);
      assert.deepEqual(r.json, { message }, q);
    }
    const missing = await one('');
    assert.equal(missing.status, 400);
    assert.match(missing.json.message, /name is required/);
  });

  it('names in every encoding the node reads', async () => {
    assert.deepEqual(names(await get(`?prefix=b32:${'MFWA===='}`)), ['alpha', 'alphabeta'], 'b32 "al"');
    assert.deepEqual(names(await get('?prefix=base64:YWxw')), ['alpha', 'alphabeta']);
    assert.deepEqual(names(await get('?prefix=string:alphab')), ['alphabeta']);
    assert.deepEqual(names(await get('?prefix=abi:string:"al"&limit=5')), [], 'an ABI string has a length prefix');
    assert.deepEqual(names(await get('?next=int:0&limit=1')), ['a'], 'int: is 8 bytes big-endian');
    assert.deepEqual(names(await get(`?prefix=addr:${n.addr(0)}`)), []);
    assert.deepEqual(names(await get(`?next=b32:${'MFWA===='}`)), ['alpha', 'alphabeta', 'b', 'c', 'd', 'e'], 'b32 padded');
  });

  it('a page with values stops near 1 MB (always at least one box) and says more follow', async () => {
    const withValues = await get('?include=values', bigApp);
    assert.equal(withValues.status, 200);
    // Each box counts its 11-byte key prefix, its 5-byte name and its 32768-byte value.
    assert.equal(withValues.json.boxes.length, Math.floor(1_000_000 / (11 + 5 + 32768)));
    assert.equal(withValues.json['next-token'], `b64:${b64('big29')}`);
    const rest = await get(`?include=values&next=${encodeURIComponent(withValues.json['next-token'])}`, bigApp);
    assert.equal(rest.json.boxes.length, 10);
    assert.equal(rest.json['next-token'], undefined);
    const namesOnly = await get('?limit=100', bigApp);
    assert.equal(namesOnly.json.boxes.length, 40);
    assert.equal(namesOnly.json['next-token'], undefined);
  });

  it("algosdk's client pages with limit, next, prefix, include and round", async () => {
    const url = new URL(n.service.url);
    const algod = new algosdk.Algodv2({ 'X-Node-API-Token': TOKEN }, `${url.protocol}//${url.hostname}`, url.port);
    const first = await algod.getApplicationBoxes(appId).limit(4).include('values').do();
    assert.deepEqual(
      first.boxes.map((b) => Buffer.from(b.name).toString()),
      ['a', 'alpha', 'alphabeta', 'b'],
    );
    assert.equal(Buffer.from(first.boxes[3]!.value!).toString(), 'vb');
    assert.equal(BigInt(first.round!), n.ledger.latestRound);
    assert.equal(first.nextToken, `b64:${b64('b')}`);
    const second = await algod.getApplicationBoxes(appId).limit(4).next(first.nextToken!).round(first.round!).do();
    assert.deepEqual(
      second.boxes.map((b) => Buffer.from(b.name).toString()),
      ['c', 'd', 'e'],
    );
    assert.equal(second.nextToken, undefined);
    assert.equal(second.boxes[0]!.value, undefined);
    const prefixed = await algod.getApplicationBoxes(appId).prefix(utf8('alpha')).do();
    assert.equal(prefixed.boxes.length, 2);
    const unpaged = await algod.getApplicationBoxes(appId).do();
    assert.equal(unpaged.boxes.length, 7);
    assert.equal(unpaged.round, undefined);
    await assert.rejects(algod.getApplicationBoxes(appId).max(3).do(), /Result limit exceeded/);
  });
});
