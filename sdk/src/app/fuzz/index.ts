export { FuzzRandom, mixSeed, arbitraryValue, arbitraryArg, shrinkValue, shrinkArg, type ArbitraryContext } from './arbitrary.js';
export { FuzzChain, classifyFailure, type FuzzAccount, type CallOutcomeKind, type CallOutcome as FuzzCallOutcome, type FuzzState } from './chain.js';
export {
  fuzz,
  formatFuzzCall,
  FuzzError,
  type FuzzCall,
  type InvariantContext,
  type FuzzOptions,
  type FuzzFailure,
  type Counterexample,
  type FuzzResult,
} from './fuzz.js';
