import { TealworksError } from '../errors.js';

/** Something a script asked the {@link Tealworks} client for cannot be done; the message says what to change. */
export class ClientError extends TealworksError {}

/** The network could not be reached, or answered in a way that shows a wrong set-up: the SDK's one connection error. */
export { ConnectError } from '../errors.js';
