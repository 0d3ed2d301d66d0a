export {
  assemble,
  assembleCollect,
  analyze,
  analyzeSteps,
  programHash,
  ASSEMBLER_MAX_VERSION,
  ASSEMBLER_DEFAULT_VERSION,
  type AssembleOptions,
  type AssembledProgram,
  type Analysis,
  type AnalyzedStatement,
  type LabelInfo,
  type MacroInfo,
  type TokenInfo,
  type StackSnapshot,
  type InferredMode,
  type TemplateValue,
} from './assembler.js';
export { replaceTemplateVariables, templateValueText } from './template.js';
export { tokenizeLine, splitLines, type Token } from './tokenizer.js';
export { isEdwards25519Point } from './curve.js';
export { formatDiagnostic } from './format.js';
export { AnalysisSession, CHECKPOINT_LINES, type UpdateInfo } from './incremental.js';
