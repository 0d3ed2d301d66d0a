export * from './types.js';
export * from './spec/index.js';
export * from './assembler/index.js';
export * from './disassembler/index.js';
export * from './sourcemap.js';
export * from './source-maps.js';
export * from './lexer.js';
export { programHashIsOnCurve } from './oncurve.js';
// Used by the language server (hover, signature help, diagnostics); public so it needs no deep imports.
export { opcodeSignature, renderConstantMarkdown, renderFieldMarkdown, renderOpcodeMarkdown } from './docs/index.js';
export { fieldNamesAt } from './assembler/optable.js';
export { macroNameProblem, ON_COMPLETION_CONSTANTS, TXN_TYPE_CONSTANTS, PSEUDO_OP_NAMES } from './assembler/macros.js';
export { tealAbiMethods, tealMethodLines, type TealMethodLine } from './abi-methods.js';
