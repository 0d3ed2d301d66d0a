import { addressBytes, encodeAddress } from '../../../encoding/address.js';
import { stringifyJson } from '../../../encoding/json.js';
import { genesisParticipationState, type Ledger } from '../../../ledger/ledger.js';

/** One funded account of the genesis as `/genesis` lists it. */
export interface GenesisAllocEntry {
  address: string;
  amount: bigint;
  /** e.g. `Wallet1`: LocalNet's tools find the dispenser by this comment. */
  comment?: string;
  /** 0 Offline (default), 1 Online, 2 NotParticipating. */
  status?: 0 | 1 | 2;
}

/** What `/genesis` describes beyond what the ledger knows. */
export interface GenesisDescription {
  /** Network name (`dockernet` for LocalNet; default `tealworks-devnet`). */
  network?: string;
  /** The funded accounts, in genesis order (the fee sink and rewards pool are added). */
  alloc: readonly GenesisAllocEntry[];
  /** Dev mode (one block per group): written as `"devmode": true`, as a dev-mode node's genesis has it. */
  devMode?: boolean;
}

/**
 * The genesis document as the node serves it at `/genesis`: `alloc` entries with `addr`,
 * `comment` and `state` (`algo`, `onl`), the fee sink and rewards pool, the network, id,
 * protocol and timestamp — JSON text with two-space indentation.
 */
export function genesisText(ledger: Ledger, description: GenesisDescription): string {
  const g0 = ledger.block(ledger.firstRound).header;
  // The fee sink and rewards pool hold what the ledger gave them at genesis (a follower rebuilds it).
  const base = ledger.genesis();
  const special = base.alloc.find((a) => a.comment === 'FeeSink')?.state.algo ?? ledger.params.minBalance;
  const alloc: unknown[] = [
    { addr: encodeAddress(ledger.rewardsPool), comment: 'RewardsPool', state: { algo: special, onl: 2 } },
    { addr: encodeAddress(ledger.feeSink), comment: 'FeeSink', state: { algo: special, onl: 2 } },
    ...description.alloc.map((a) => ({
      addr: a.address,
      comment: a.comment ?? '',
      state: { algo: a.amount, ...(a.status === 1 ? genesisParticipationState(addressBytes(a.address)) : a.status ? { onl: a.status } : {}) },
    })),
  ];
  const doc: Record<string, unknown> = {
    alloc,
    ...(description.devMode ? { devmode: true } : {}),
    fees: encodeAddress(ledger.feeSink),
    id: ledger.genesisId,
    network: description.network ?? 'tealworks-devnet',
    proto: ledger.params.protocol,
    rwd: encodeAddress(ledger.rewardsPool),
    timestamp: g0.timestamp,
  };
  return stringifyJson(doc, { indent: 2 }) + '\n';
}
