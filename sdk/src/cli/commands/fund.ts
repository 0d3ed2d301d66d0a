// `tealworks fund ADDRESS AMOUNT`: pays from the dispenser of the devnet (or localnet).
import { isValidAddress } from '../../encoding/address.js';
import { algos, microAlgos } from '../../client/amount.js';
import { Tealworks } from '../../client/tealworks.js';
import { parseArgs } from './run.js';
import { NETWORK_FLAGS, openOneOff } from './call.js';
import { UsageError, type CliIo, type Command } from '../command.js';

const USAGE = 'tealworks fund ADDRESS AMOUNT [--network devnet|localnet] [--json]   (AMOUNT in micro-units, or with a unit: 2.5algo)';

/** `1000000`, `1_000_000` (micro-units) or `2.5algo` / `2.5ALGO`. */
export function parseAmount(text: string): bigint {
  const t = text.trim().replace(/_/g, '');
  const unit = /^([0-9]+(?:\.[0-9]+)?)\s*algos?$/i.exec(t);
  try {
    if (unit) return algos(unit[1]!).microAlgos;
    if (/^[0-9]+$/.test(t)) return microAlgos(BigInt(t)).microAlgos;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  throw new UsageError(`AMOUNT must be micro-units (e.g. 1000000) or have a unit (e.g. 2.5algo), got "${text}"`);
}

/** The client for a CLI command, connected as the one-off commands connect (a running `tealworks devnet` on `<cwd>/.tealworks/devnet` first). */
export async function openClient(opts: Map<string, string | true>, cwd: string): Promise<Tealworks> {
  const one = await openOneOff(opts, cwd);
  const net = one.network;
  return new Tealworks({
    name: net.name,
    profile: net.profile,
    chain: net.chain,
    ...(net.keyManager ? { keyManager: net.keyManager } : {}),
    ...(net.dispenser ? { dispenser: net.dispenser } : {}),
    isDev: net.isDev,
    tokenSource: 'the network profile',
    close: () => one.close(),
  });
}

export const fundCommand: Command = {
  name: 'fund',
  summary: 'Pay an account from the devnet/localnet dispenser',
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const { positional, opts } = parseArgs(args, ['--json'], [...NETWORK_FLAGS]);
    if (positional.length !== 2) throw new UsageError('give ADDRESS and AMOUNT');
    const [address, amountText] = positional as [string, string];
    if (!isValidAddress(address)) throw new UsageError(`"${address}" is not an address (58 characters, base32 with checksum)`);
    const amount = parseAmount(amountText);
    const name = opts.get('--network');
    if (name !== undefined && name !== 'devnet' && name !== 'localnet')
      throw new UsageError('fund works on the devnet and localnet (their dispensers); on other networks send a payment from a funded account');
    const tw = await openClient(opts, io.cwd);
    try {
      const paid = await tw.account.fund(address, amount);
      const balance = await tw.account.balance(address);
      if (opts.has('--json'))
        io.stdout(JSON.stringify({ txid: paid.txid, round: String(paid.confirmedRound), amount: String(amount), balance: String(balance) }) + '\n');
      else io.stdout(`funded ${address} with ${amount} micro-units in round ${paid.confirmedRound} (txn ${paid.txid}); balance ${balance}\n`);
      return 0;
    } finally {
      await tw.close();
    }
  },
};
