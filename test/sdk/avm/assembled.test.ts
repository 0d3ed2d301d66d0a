import assert from 'node:assert/strict';
import { runApp, runSig, appCall } from './helpers/fixtures.js';
import { approves, failsWith } from './helpers/expect.js';
import { assemble } from '../../../sdk/src/teal/index.js';

const te = (s: string) => new TextEncoder().encode(s);

describe('avm running programs from the toolchain assembler', () => {
  it('v13: subroutines, loops with varint back branches, switch', () => {
    const src = `#pragma version 13
int 10
callsub fact_sum
int 55
==
assert
int 2
switch zero one two
err
zero:
err
one:
err
two:
int 1
return

// sums 1..n with a back-branching loop
fact_sum:
proto 1 1
int 0
loop:
frame_dig -1
bz done
frame_dig -1
+
frame_dig -1
int 1
-
frame_bury -1
b loop
done:
retsub`;
    const { program } = assemble(src);
    assert.equal(program[0], 13);
    const r = approves(runApp(program));
    assert.ok(r.cost > 50);
  });

  it('v8 router in the style compilers emit', () => {
    const src = `#pragma version 8
txn ApplicationID
bz create
method "add(uint64,uint64)uint64"
txna ApplicationArgs 0
==
bnz add
err
create:
int 1
return
add:
txna ApplicationArgs 1
btoi
txna ApplicationArgs 2
btoi
+
itob
byte 0x151f7c75
swap
concat
log
int 1`;
    const { program } = assemble(src);
    const sel = assemble('#pragma version 8\nmethod "add(uint64,uint64)uint64"').program.slice(3, 7);
    const args = [sel, Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 2), Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 3)];
    const r = approves(runApp(program, { txn: appCall({ args }) }));
    assert.deepEqual(Array.from(r.applyData.logs[0]!), [0x15, 0x1f, 0x7c, 0x75, 0, 0, 0, 0, 0, 0, 0, 5]);
    failsWith(runApp(program, { txn: appCall({ args: [te('nope')] }) }), 'err opcode executed');
  });

  it("v13 logic signatures carry the assembler's salt and still run", () => {
    const { program } = assemble('#pragma version 13\nint 1\nint 2\n+\nint 3\n==');
    approves(runSig(program));
  });
});
