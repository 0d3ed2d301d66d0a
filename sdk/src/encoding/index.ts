export * from './bytes.js';
export * from './hex.js';
export * from './base64.js';
export * from './base32.js';
export * from './address.js';
export * from './msgpack.js';
export * from './json.js';
