export { OPCODE_DOCS, PSEUDO_OPS, type OpcodeDoc } from './opcodes.js';
export { FIELD_DOCS } from './fields.js';
export { NAMED_CONSTANTS, DIRECTIVE_DOCS, type NamedConstantDoc, type NamedConstantKind, type DirectiveDoc } from './constants.js';
export { renderOpcodeMarkdown, renderFieldMarkdown, renderConstantMarkdown, opcodeSignature, costWords, modeWords } from './render.js';
