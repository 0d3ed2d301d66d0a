/**
 * The AVM interpreter: evaluates logic signatures and application programs (versions 1–13) from
 * their bytes, with the node's costs, budgets, limits, state and inner-transaction rules.
 *
 * Entry point: `new AvmGroupEvaluator(group, ledger, options)`, then `evalLogicSig(i)` /
 * `evalApp(i)`. State is read and written through a `LedgerView`; `InMemoryLedgerView` is a
 * complete in-memory one. Failures are `LogicError`s carrying pc, opcode and group path.
 */
export { AvmGroupEvaluator } from './evaluator.js';
// Renamed publicly where another layer uses the name for something else (one name per thing).
export type { AvmOptions, ProgramResult, AppCallResult as AppEvalResult } from './evaluator.js';
export { LogicError, AvmFault, AvmUnsupportedFault } from './errors.js';
export type { RunMode, LogicErrorInfo } from './errors.js';
export { InMemoryLedgerView } from './in-memory-ledger.js';
export type * from './ledger-view.js';
export type { ApplyData, InnerTxnResult, AvmLimits, TraceOptions, ValueDelta, UnnamedResources as AvmUnnamedResources } from './context.js';
export { DEFAULT_LIMITS as DEFAULT_AVM_LIMITS, avmLimitsFor } from './context.js';
export type { TraceBudget, ProgramTrace, TraceStep, StateChange as TraceStateChange, SimulateAvmValue, SpawnedInner } from './trace.js';
export { toSimulateSteps } from './trace.js';
export { compileProgram, programVersion } from './program.js';
export type { CompiledProgram as AvmCompiledProgram } from './program.js';
export { hasImplementation } from './ops/registry.js';
export type { AvmValue, StackValue } from './value.js';
