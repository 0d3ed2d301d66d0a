import type { ForkHead } from '../../../sdk/src/ledger/fork.js';

/** The made-up remote head the in-memory fork tests start from (round 50, txn counter 5000). */
export const TEST_FORK_HEAD: ForkHead = {
  url: 'http://remote.invalid',
  genesisId: 'remote-v1',
  genesisHash: new Uint8Array(32).fill(7),
  round: 50n,
  timestamp: 1_700_000_000n,
  txnCounter: 5000n,
  feeSink: new Uint8Array(32).fill(1),
  rewardsPool: new Uint8Array(32).fill(2),
  protocol: 'future',
};
