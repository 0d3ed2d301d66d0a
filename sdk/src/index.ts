// The portable core. Heavier layers (teal, avm, ledger, services, adapters, workflow, app) have
// their own entry points, e.g. `@tealworks/sdk/teal`, so scripts load only what they use.
export * from './errors.js';
export * from './encoding/index.js';
export * from './crypto/index.js';
export * from './txn/index.js';
export * from './abi/index.js';
