/**
 * Debugging recorded runs: a simulate response with an execution trace, replayed step by step
 * (both directions) against TEAL sources, with typed values and watch expressions.
 */
export { DebugRun, DebugTraceError, avmValueOf, programTraceHash } from './replay.js';
export type {
  DebugValue,
  DebugProgramSource,
  ProgramKind,
  ReplayStep,
  ReplayStateChange,
  ProgramFrame,
  TimelineEntry,
  AppStateView,
  ReplaySnapshot,
  ReplayLocation,
  DebugRunOptions,
  ReplayFailure,
  SubroutineFrame,
} from './replay.js';
export { avmTypeName, formatDebugValue, typedViews } from './values.js';
export type { TypedView } from './values.js';
export { evaluateWatch, WatchError } from './watch.js';
export type { WatchResult } from './watch.js';
export { programFromTeal, programFromSourceMap, programWithUserMap, parseSourcesDescription, toAvmDebuggerTrace, avmDebuggerSources } from './sources.js';
export type { SourceDescriptionEntry } from './sources.js';
export { findSourceMap, loadSourceMapFile, sourceMapsFor, sourceLinesOf, sourceMapKnowledge } from './discover.js';
export type { FoundSourceMap } from './discover.js';
