import { HttpError } from '../http/errors.js';

/**
 * A key-manager failure with the status the service answers with. Messages that clients match
 * on keep the reference daemon's wording (protocol.md §5); none ever includes a secret.
 */
export class WalletError extends HttpError {}

/** The key manager's error texts, worded as the reference daemon words them (clients match on them). */
export const MSG = {
  decodeBody: 'could not decode request body',
  decodeAddress: 'could not decode address',
  decodeTransaction: 'could not decode transaction',
  wrongPassword: 'error decrypting. wrong password?',
  walletNotFound: 'wallet not found',
  walletNameExists: 'wallet with same name already exists',
  unknownDriver: 'unknown wallet driver',
  keyExists: 'key already exists in wallet',
  keyMissing: 'key does not exist in this wallet',
  msigMissing: 'multisig information (pks, threshold) for address does not exist in this wallet',
  msigWrongAddress: 'given multisig preimage hashes to neither Sender nor AuthAddr',
  msigWrongKey: 'given key is not a possible signer for this multisig',
  noMnemonicUx: 'sqlite wallet driver cannot display mnemonics',
  tokenParts: 'wrong number of token parts',
  tokenId: 'invalid wallet handle id',
  tokenSecret: 'invalid wallet handle secret',
  handleMissing: 'handle does not exist',
  tokenInvalid: 'invalid token',
  handleExpired: 'handle expired',
  apiToken: 'invalid API token',
} as const;

/** A 400 wallet error with the given message. */
export const badRequest = (message: string) => new WalletError(400, message);
/** A 401 wallet error with the given message. */
export const unauthorized = (message: string) => new WalletError(401, message);
