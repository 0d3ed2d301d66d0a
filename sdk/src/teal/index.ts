export * from './types.js';
export * from './spec/index.js';
export * from './assembler/index.js';
export * from './disassembler/index.js';
export * from './sourcemap.js';
export { programHashIsOnCurve } from './oncurve.js';
