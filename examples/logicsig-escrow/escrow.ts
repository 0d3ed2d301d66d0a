// The logic-signature escrow, end to end on the embedded devnet (in memory):
//   npx tsx examples/logicsig-escrow/escrow.ts
// Compiles escrow.teal with the receiver's address, funds the escrow's address, shows the simulate
// report of a payment the program refuses (the TEAL line and the reason), then pays out for real.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningDevnet } from '@tealworks/sdk/services';
import { connectNetwork } from '@tealworks/sdk/workflow';
import { assemble } from '@tealworks/sdk/teal';
import { makeLogicSig, logicSigAddress, makePaymentTxn } from '@tealworks/sdk/txn';
import { Address } from '@tealworks/sdk/encoding';
import { GroupComposer, LogicSigSigner, builderParams, fetchBalance, renderSimulateReport, pcToSource, type SimulateReport } from '@tealworks/sdk/app';
import { LocalSigner } from '@tealworks/sdk/adapters';

const here = dirname(fileURLToPath(import.meta.url));

export interface EscrowDemo {
  escrow: string;
  refused: SimulateReport;
  /** TEAL line (1-based) of the refusal. */
  refusedLine: number | undefined;
  paidTxid: string;
  receiverGained: bigint;
}

export async function runEscrowDemo(shared?: RunningDevnet, log: (line: string) => void = () => {}): Promise<EscrowDemo> {
  const network = await connectNetwork({ kind: 'named', name: 'devnet' }, { baseDir: here, inMemory: true, ...(shared ? { devnet: shared } : {}) });
  try {
    const chain = network.chain;
    const funder = network.dispenser!;
    const receiver = LocalSigner.fromSeed(crypto.getRandomValues(new Uint8Array(32)));
    const receiverAddress = receiver.addresses[0]!;
    const source = readFileSync(join(here, 'escrow.teal'), 'utf8');
    const { program, sourceMap } = assemble(source, {
      templateVars: { TMPL_RECEIVER: Address.fromString(receiverAddress).publicKey, TMPL_MAX: 1_000_000n, TMPL_MAX_FEE: 2_000n },
    });
    const lsig = makeLogicSig(program);
    const escrow = logicSigAddress(program).toString();
    log(`escrow address ${escrow} (${program.length} program bytes)`);
    const signers = new Map<string, LogicSigSigner | typeof funder.signer>([
      [escrow, new LogicSigSigner(lsig)],
      [funder.address, funder.signer],
    ]);
    const composer = () => new GroupComposer(chain, (a) => signers.get(a));

    // Fund the escrow, and the receiver so it can hold a balance.
    const sp = await builderParams(chain);
    const fund = composer()
      .add(makePaymentTxn({ sender: funder.address, receiver: escrow, amount: 5_000_000n, suggestedParams: sp }))
      .add(makePaymentTxn({ sender: funder.address, receiver: receiverAddress, amount: 100_000n, suggestedParams: sp }));
    await fund.send();

    // Too much in one payment: the program refuses; simulate says where.
    const tooMuch = composer().add(
      makePaymentTxn({ sender: escrow, receiver: receiverAddress, amount: 2_000_000n, suggestedParams: await builderParams(chain) }),
    );
    const refused = await tooMuch.simulate();
    const pc = refused.failure?.pc;
    const at = pc !== undefined ? pcToSource(sourceMap, pc) : undefined;
    log(renderSimulateReport(refused));
    if (at) log(`refused at escrow.teal:${at.use.line + 1}: ${source.split('\n')[at.use.line]!.trim()}`);

    // Within the limit: signed by the logic signature and sent (after the simulate gate).
    const before = await fetchBalance(chain, receiverAddress);
    const pay = composer().add(makePaymentTxn({ sender: escrow, receiver: receiverAddress, amount: 750_000n, suggestedParams: await builderParams(chain) }));
    const sent = await pay.send();
    const gained = (await fetchBalance(chain, receiverAddress)) - before;
    log(`paid 750000 from the escrow in round ${sent.confirmedRound} (txn ${sent.txids[0]}); receiver gained ${gained}`);
    return { escrow, refused, refusedLine: at ? at.use.line + 1 : undefined, paidTxid: sent.txids[0]!, receiverGained: gained };
  } finally {
    await network.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runEscrowDemo(undefined, (l) => console.log(l)).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  });
}
