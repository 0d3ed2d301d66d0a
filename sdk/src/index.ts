// The package root: the `Tealworks` entry object (connect, accounts, send, groups, apps, simulate)
// with the unit-safe amounts, the app layer's client and report types that scripts handle, and the
// portable core (errors, encoding, crypto, transactions, ABI). Every other layer has its own entry
// point, e.g. `@tealworks/sdk/teal`; a webview imports only the portable subpaths.
export * from './errors.js';
export * from './encoding/index.js';
export * from './crypto/index.js';
export * from './txn/index.js';
export * from './abi/index.js';
export * from './client/index.js';
// Both of the above name the one connection error; say which binding the root exports.
export { ConnectError } from './errors.js';
export { AppClient, type AppCallOptions, type AppCallResult } from './app/client.js';
export { SimulateFailedError, MinimumBalanceError, RekeyedSignerError } from './app/errors.js';
export { renderSimulateReport, type SimulateReport } from './app/simulate-report.js';
