import { APP_ID, OTHER, SENDER, appCall, runApp } from './helpers/fixtures.js';
import { approves, failsWith } from './helpers/expect.js';
import { Address } from '../../../sdk/src/encoding/address.js';
import { InMemoryLedgerView } from '../../../sdk/src/avm/index.js';
import { asm } from './helpers/asm.js';

const KEY = new TextEncoder().encode('k');
const V = 13;

/** Calls `app` as an inner app call. */
const call = (app: bigint): string => `itxn_begin\nint 6\nitxn_field TypeEnum\nint ${app}\nitxn_field ApplicationID\nitxn_submit`;

/**
 * A (APP_ID) and B share a creator; A's boxes are family-shared. F belongs to someone else and
 * only forwards a call to B. B writes (or reads) A's box "k".
 */
function setup(bReads = false) {
  const ledger = new InMemoryLedgerView();
  ledger.createApp(SENDER.publicKey, { approvalProgram: asm('int 1', V), familyBoxAccess: true }, APP_ID);
  ledger.putBox(APP_ID, KEY, new Uint8Array(2));
  const bSrc = bReads ? `int ${APP_ID}\nbyte "k"\napp_box_get\nassert\npop\nint 1` : `int ${APP_ID}\nbyte "k"\nbyte "vv"\napp_box_put\nint 1`;
  const b = ledger.createApp(SENDER.publicKey, { approvalProgram: asm(bSrc, V) });
  const f = ledger.createApp(OTHER.publicKey, { approvalProgram: asm(`${call(b)}\nint 1`, V) });
  for (const id of [APP_ID, b, f]) ledger.fund(Address.forApp(id).publicKey, 1_000_000n);
  const txn = appCall({ foreignApps: [b, f], boxes: [{ appId: APP_ID, name: KEY }] });
  return { ledger, b, f, txn };
}

const RELYING = `may not write family-shared box: app ${APP_ID} is relying on family state across a foreign call`;

describe('avm v13 family-shared box re-entrancy', () => {
  it('a family member may not write shared boxes through a foreign app while a touching ancestor waits', () => {
    const { ledger, f, b, txn } = setup();
    failsWith(runApp(`byte "k"\nbyte "aa"\nbox_put\n${call(f)}\nint 1`, { ledger, version: V, txn }), `app ${b} ${RELYING}`);
  });

  it('reading its own shared box is enough to be relying on it', () => {
    const { ledger, f, txn } = setup();
    failsWith(runApp(`byte "k"\nbox_len\nassert\npop\n${call(f)}\nint 1`, { ledger, version: V, txn }), RELYING);
  });

  it('an ancestor that never touched shared state does not block the write', () => {
    const { ledger, f, txn } = setup();
    approves(runApp(`${call(f)}\nint 1`, { ledger, version: V, txn }));
  });

  it('a direct family call may write; the touch then counts for the caller', () => {
    const { ledger, b, txn } = setup();
    approves(runApp(`byte "k"\nbyte "aa"\nbox_put\n${call(b)}\nint 1`, { ledger, version: V, txn }));
    // B wrote on A's behalf, so a later A → F → B write is caught even though A never touched the box.
    const again = setup();
    failsWith(runApp(`${call(again.b)}\n${call(again.f)}\nint 1`, { ledger: again.ledger, version: V, txn: again.txn }), RELYING);
  });

  it('reads through a foreign app stay allowed', () => {
    const { ledger, f, txn } = setup(true);
    approves(runApp(`byte "k"\nbyte "aa"\nbox_put\n${call(f)}\nint 1`, { ledger, version: V, txn }));
  });
});
