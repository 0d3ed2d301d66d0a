// Words for a devnet that forks a configured network: the Networks view's description and
// tooltip, and the state inspector's "whose state is this" label. Plain functions over the SDK's
// fork status, so they are tested without VS Code.
import type { ForkOrigin, ForkStatus } from '@tealworks/sdk/ledger';

/** The devnet's description in the Networks view when it forks `name`. */
export function forkDescription(name: string | undefined, status: ForkStatus): string {
  return `fork of ${name ?? status.url} @ ${status.forkRound}${status.movedOn ? ' (remote moved on)' : ''}`;
}

/** The devnet's tooltip lines when it forks a network: remote, fork round, cache and requests. */
export function forkTooltip(name: string | undefined, status: ForkStatus): string {
  return [
    `Fork of ${name ? `${name} (${status.url})` : status.url}, genesis ${status.genesisId}`,
    `Forked at remote round ${status.forkRound}; local rounds follow it. Transactions stay local.`,
    `${status.cached} record${status.cached === 1 ? '' : 's'} cached; ${status.requests} remote request${status.requests === 1 ? '' : 's'} this session.`,
    ...(status.movedOn ? [`The remote is at round ${status.remoteRound}: fork it again to see its newer state.`] : []),
  ].join('\n');
}

/** The state inspector's label for whose state an item is: the remote's (and its round) or local. */
export function originLabel(origin: ForkOrigin | undefined): string {
  if (!origin) return '';
  switch (origin.source) {
    case 'remote':
      return `remote @ ${origin.round}`;
    case 'local':
      return 'local';
    case 'unfetched':
      return 'remote (not read yet)';
  }
}

/** Joins a description with an origin label (either may be empty). */
export function withOrigin(description: string, origin: ForkOrigin | undefined): string {
  const o = originLabel(origin);
  return [description, o].filter(Boolean).join(' · ');
}
