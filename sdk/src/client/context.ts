import type { Signer } from '../adapters/signer.js';
import type { AppChain } from '../app/chain.js';
import type { ComposerObserver, GroupComposer } from '../app/composer.js';

/** What the parts of a {@link Tealworks} client share: the chain and the signers it knows. @internal */
export interface ClientContext {
  readonly chain: AppChain;
  register(address: string, signer: Signer): unknown;
  signerFor(address: string): Signer | undefined;
  rekeyed(address: string, authAddress: string): unknown;
  readonly log: ComposerObserver;
  composer(): GroupComposer;
}
