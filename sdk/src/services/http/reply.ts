import type { JsonStringifyOptions } from '../../encoding/json.js';
import type { Reply } from './types.js';

/** A JSON reply (bigint-safe); `format` (indent, key order) overrides the service's JSON options. */
export function jsonReply(value: unknown, status = 200, headers?: Record<string, string>, format?: JsonStringifyOptions): Reply {
  const reply: Reply = headers ? { kind: 'json', status, value, headers } : { kind: 'json', status, value };
  if (format) reply.format = format;
  return reply;
}

/** A msgpack reply. */
export function msgpackReply(value: unknown, status = 200, headers?: Record<string, string>): Reply {
  return headers ? { kind: 'msgpack', status, value, headers } : { kind: 'msgpack', status, value };
}

/** A plain-text reply. */
export function textReply(text: string, status = 200, contentType = 'text/plain; charset=utf-8'): Reply {
  return { kind: 'text', status, text, contentType };
}

/** A reply with a binary body. */
export function bytesReply(bytes: Uint8Array, contentType = 'application/octet-stream', status = 200): Reply {
  return { kind: 'bytes', status, bytes, contentType };
}

/** A reply without a body (204 by default). */
export function emptyReply(status = 204, headers?: Record<string, string>): Reply {
  return headers ? { kind: 'empty', status, headers } : { kind: 'empty', status };
}
