import { TealworksError } from '../errors.js';

/** A test helper was misused, or an expectation about the chain did not hold. */
export class TestingError extends TealworksError {}
