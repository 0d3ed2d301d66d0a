export * from './opcodes.js';
