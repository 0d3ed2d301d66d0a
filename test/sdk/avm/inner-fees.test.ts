import assert from 'node:assert/strict';
import { APP_ID, appCall, runApp } from './helpers/fixtures.js';
import { approves, failsWith } from './helpers/expect.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { InMemoryLedgerView } from '../../../sdk/src/avm/index.js';
import type { AvmOptions } from '../../../sdk/src/avm/index.js';
import { FEE_RESIDUE_SCALE, feeForUsage } from '../../../sdk/src/avm/inner-fees.js';
import { CONSENSUS_V41 } from '../../../sdk/src/txn/limits.js';

const APP_ADDR = Address.forApp(APP_ID).publicKey;
// V42 (the default) allows 4096-byte notes; bytes past 1024 cost 100 millionths of a min fee each.
const V42: AvmOptions = {};
// V41: notes stop at 1024 bytes and nothing is surcharged.
const V41: AvmOptions = { consensus: CONSENSUS_V41 };

function funded(): InMemoryLedgerView {
  const l = new InMemoryLedgerView();
  l.fund(APP_ADDR, 1_000_000n);
  return l;
}

/** A payment to the caller whose note is `noteLen` zero bytes; `fee` (if given) replaces the default. */
function pay(noteLen: number, opts: { fee?: number; next?: boolean } = {}): string {
  return [
    opts.next ? 'itxn_next' : 'itxn_begin',
    'int 1',
    'itxn_field TypeEnum',
    'txn Sender',
    'itxn_field Receiver',
    ...(noteLen ? [`int ${noteLen}`, 'bzero', 'itxn_field Note'] : []),
    ...(opts.fee !== undefined ? [`int ${opts.fee}`, 'itxn_field Fee'] : []),
  ].join('\n');
}

describe('avm inner transaction fees (V42 usage)', () => {
  it('feeForUsage rounds up once and carries the fraction', () => {
    // 1.0001 min fees: 1000.1 µA → 1001, leaving 0.9 µA paid ahead.
    const a = feeForUsage(1000n, 1_000_100n, 0n);
    assert.deepEqual(a, { fee: 1001n, residue: (FEE_RESIDUE_SCALE * 9n) / 10n });
    // The next 0.1 µA fraction is absorbed by the carried 0.9.
    assert.deepEqual(feeForUsage(1000n, 1_000_100n, a.residue), { fee: 1000n, residue: (FEE_RESIDUE_SCALE * 8n) / 10n });
    // Whole usage leaves the residue alone.
    assert.deepEqual(feeForUsage(1000n, 2_000_000n, 7n), { fee: 2000n, residue: 7n });
  });

  it('charges note bytes over 1024 at itxn_submit', () => {
    const src = `${pay(1025)}\nitxn_submit\nint 1`;
    failsWith(runApp(src, { ledger: funded(), version: 6, options: V42 }), 'group fee 1mA too small (needs 1uA more)');
    // Before V42 such a note cannot be set at all; 1024 bytes are free.
    failsWith(runApp(src, { ledger: funded(), version: 6, options: V41 }), 'Note may not exceed 1024 bytes');
    approves(runApp(`${pay(1024)}\nitxn_submit\nint 1`, { ledger: funded(), version: 6, options: V41 }));
    // Credit already shrank the default fee (to 999), so it cannot also cover the round-up…
    failsWith(runApp(src, { ledger: funded(), version: 6, options: V42, txn: appCall({}, { fee: 1001n }) }), 'group fee 999uA too small (needs 1uA more)');
    // …but with the fee set explicitly, one microAlgo of credit covers it.
    const explicit = `${pay(1025, { fee: 1000 })}\nitxn_submit\nint 1`;
    approves(runApp(explicit, { ledger: funded(), version: 6, options: V42, txn: appCall({}, { fee: 1001n }) }));
    failsWith(runApp(explicit, { ledger: funded(), version: 6, options: V42 }), 'group fee 1mA too small (needs 1uA more)');
  });

  it('the round-up residue carries across inner groups', () => {
    // First group pays 1001 for 1000.1 (0.9 µA ahead); the second 1000.1 then needs only 1000.
    const src = `${pay(1025, { fee: 1001 })}\nitxn_submit\n${pay(1025)}\nitxn_submit\nitxn Fee\nint 1000\n==`;
    approves(runApp(src, { ledger: funded(), version: 6, options: V42 }));
    // Without the first overpayment the second group is short.
    failsWith(runApp(`${pay(1025)}\nitxn_submit\nint 1`, { ledger: funded(), version: 6, options: V42 }), 'needs 1uA more');
  });

  it('the top-level round-up residue is available to inner groups', () => {
    // Outer call: 1000.1 µA of usage, pays 1001 → no credit, but 0.9 µA of residue.
    const txn = appCall({}, { fee: 1001n, note: new Uint8Array(1025) });
    approves(runApp(`${pay(1025)}\nitxn_submit\nint 1`, { ledger: funded(), version: 6, options: V42, txn }));
  });

  it('itxn_next defaults the fee to what the group still needs, surcharges included', () => {
    // Group so far: 1000.1 + 1 (new txn) min fees = 2000.1 → 2001, minus the 1000 already set.
    const src = `${pay(1025)}\n${pay(0, { next: true })}\nitxn_submit\ngitxn 1 Fee\nint 1001\n==`;
    approves(runApp(src, { ledger: funded(), version: 6, options: V42 }));
    approves(runApp(src.replace('int 1001', 'int 1000').replace('int 1025', 'int 1024'), { ledger: funded(), version: 6, options: V41 }));
  });

  it('inner app calls pay for program bytes over four pages and argument bytes over 2048', () => {
    const ledger = funded();
    // An app create with 4 extra pages whose programs total 8197 bytes: 5 over → 1000.5 min fees.
    const big = (fee: number, pages: number) =>
      `itxn_begin\nint 6\nitxn_field TypeEnum\nbyte 0x0a810143\nitxn_field ApprovalProgramPages\nint 4096\nbzero\nitxn_field ApprovalProgramPages\nint 4094\nbzero\nitxn_field ApprovalProgramPages\nbyte 0x0a8101\nitxn_field ClearStateProgram\nint ${pages}\nitxn_field ExtraProgramPages\nint ${fee}\nitxn_field Fee\nitxn_submit\nint 1`;
    failsWith(runApp(big(1000, 4), { ledger, version: 9 }), 'group fee 1mA too small (needs 1uA more)');
    approves(runApp(big(1001, 4), { ledger: funded(), version: 9 }));
    // With 3 extra pages the same programs do not fit (the node's well-formedness check).
    failsWith(runApp(big(1001, 3), { ledger: funded(), version: 9 }), 'approval program too long. (8194 > 8192)');
    // V41 allows no more than 3 extra pages, so no program over 8192 bytes.
    failsWith(runApp(big(1000, 4), { ledger: funded(), version: 9, options: V41 }), 'ApprovalProgramPages may not exceed 8192 bytes');
    const args = `itxn_begin\nint 6\nitxn_field TypeEnum\nbyte 0x0a8101\nitxn_field ApprovalProgram\nbyte 0x0a8101\nitxn_field ClearStateProgram\nint 2049\nbzero\nitxn_field ApplicationArgs\nitxn_submit\nint 1`;
    failsWith(runApp(args, { ledger: funded(), version: 9 }), 'needs 1uA more');
  });
});
