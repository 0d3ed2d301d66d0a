// What a confirmation dialog says before a group is sent to a network that is not the devnet:
// per transaction who pays whom how much, app ids and on-completion, fees, and the totals.
import type { Transaction } from '@tealworks/sdk/txn';
import { OnComplete } from '@tealworks/sdk/txn';

const ON_COMPLETE_NAMES: Record<number, string> = {
  [OnComplete.NoOp]: 'NoOp',
  [OnComplete.OptIn]: 'OptIn',
  [OnComplete.CloseOut]: 'CloseOut',
  [OnComplete.ClearState]: 'ClearState',
  [OnComplete.UpdateApplication]: 'UpdateApplication',
  [OnComplete.DeleteApplication]: 'DeleteApplication',
};

/** Micro-units as whole units with six decimals, trailing zeros trimmed: 1500000 → "1.5". */
export function formatAmount(micro: bigint): string {
  const whole = micro / 1_000_000n;
  const frac = (micro % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : `${whole}`;
}

/** The native currency's unit, as wallets and explorers write it. */
export const NATIVE_UNIT = 'ALGO';

/**
 * An amount for people: whole units with thousands separators, up to six decimals (trailing zeros
 * trimmed) and the unit: 1234567890000 → "1,234,567.89 ALGO".
 */
export function formatBalance(micro: bigint): string {
  const negative = micro < 0n;
  const [whole, frac] = formatAmount(negative ? -micro : micro).split('.') as [string, string | undefined];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${frac ? `.${frac}` : ''} ${NATIVE_UNIT}`;
}

export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

export interface GroupSummary {
  lines: string[];
  totalFees: bigint;
  /** Native currency leaving each sender (payments plus fees), by address. */
  spentBySender: Map<string, bigint>;
  appIds: bigint[];
}

function addr(a: { toString(): string } | undefined): string {
  return a ? a.toString() : '?';
}

export function summarizeGroup(txns: readonly Transaction[]): GroupSummary {
  const lines: string[] = [];
  let totalFees = 0n;
  const spent = new Map<string, bigint>();
  const appIds: bigint[] = [];
  const add = (who: string, v: bigint) => spent.set(who, (spent.get(who) ?? 0n) + v);
  txns.forEach((t, i) => {
    const sender = addr(t.sender);
    const fee = t.fee ?? 0n;
    totalFees += fee;
    add(sender, fee);
    let what: string;
    if (t.type === 'pay' && t.payment) {
      const amount = t.payment.amount ?? 0n;
      add(sender, amount);
      what = `pay ${formatBalance(amount)} to ${shortAddress(addr(t.payment.receiver))}`;
      if (t.payment.closeRemainderTo) what += `, CLOSE remainder to ${shortAddress(addr(t.payment.closeRemainderTo))}`;
    } else if (t.type === 'axfer' && t.assetTransfer) {
      what = `transfer ${t.assetTransfer.amount ?? 0n} of asset ${t.assetTransfer.assetId} to ${shortAddress(addr(t.assetTransfer.receiver))}`;
    } else if (t.type === 'appl' && t.appCall) {
      const id = t.appCall.appId ?? 0n;
      if (id === 0n) what = 'create a new app';
      else {
        appIds.push(id);
        what = `call app ${id}`;
      }
      const oc = t.appCall.onComplete ?? OnComplete.NoOp;
      if (oc !== OnComplete.NoOp) what += ` (${ON_COMPLETE_NAMES[oc] ?? oc})`;
    } else {
      what = t.type;
    }
    lines.push(`${i + 1}. ${shortAddress(sender)}: ${what}; fee ${formatBalance(fee)}`);
  });
  lines.push(`Total fees: ${formatBalance(totalFees)}`);
  for (const [who, v] of spent) lines.push(`${shortAddress(who)} spends ${formatBalance(v)} in all`);
  return { lines, totalFees, spentBySender: spent, appIds };
}

/** The modal's text: the network first, then the group. */
export function confirmationText(networkName: string, txns: readonly Transaction[]): string {
  const s = summarizeGroup(txns);
  return [`Send ${txns.length} transaction${txns.length === 1 ? '' : 's'} to ${networkName}?`, '', ...s.lines].join('\n');
}

/**
 * A wallet's line in the Accounts view, saying what is true now and what expanding it does: the
 * devnet's own wallet needs no password typed and opens when expanded; another wallet asks for its password.
 */
export function walletDescription(wallet: { open: boolean; accounts?: number; noPassword: boolean }): { description: string; tooltip: string } {
  if (wallet.open) {
    const n = wallet.accounts ?? 0;
    return { description: `open · ${n} account${n === 1 ? '' : 's'}`, tooltip: 'Open: its accounts can sign.' };
  }
  if (wallet.noPassword)
    return { description: 'expand to open (no password to type)', tooltip: "The devnet's wallet: expanding it opens it and lists its funded accounts." };
  return { description: 'closed · expand to enter its password', tooltip: 'Expanding it asks for the wallet password; its accounts can sign once it is open.' };
}
