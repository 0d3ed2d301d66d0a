export { QueryIndex } from './query-index.js';
export { TxnIndex, type TxnEntry, type TxnFilter, type TxnPage, type AddressRole, type SigType } from './txn-index.js';
export { StateIndex, History } from './state-index.js';
export { parseBoxName, BoxNameError } from './box-name.js';
export { encodeTxnToken, decodeTxnToken, encodeRoundToken, decodeRoundToken, type TxnPosition } from './tokens.js';
export { LIMITS, MAX_SEARCHABLE } from './params.js';
export {
  createQueryService,
  startQueryService,
  queryRouter,
  QUERY_SERVICE_VERSION,
  type QueryServiceOptions,
  type QueryServiceDefinition,
  type RunningQueryService,
} from './service.js';
