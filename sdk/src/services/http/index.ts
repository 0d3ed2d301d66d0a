export * from './errors.js';
export * from './types.js';
export * from './reply.js';
export * from './router.js';
export * from './auth.js';
export * from './error-formats.js';
export * from './server.js';
export * from './presets.js';
