import type { Reply } from './types.js';

export function jsonReply(value: unknown, status = 200, headers?: Record<string, string>): Reply {
  return headers ? { kind: 'json', status, value, headers } : { kind: 'json', status, value };
}

export function msgpackReply(value: unknown, status = 200, headers?: Record<string, string>): Reply {
  return headers ? { kind: 'msgpack', status, value, headers } : { kind: 'msgpack', status, value };
}

export function textReply(text: string, status = 200, contentType = 'text/plain; charset=utf-8'): Reply {
  return { kind: 'text', status, text, contentType };
}

export function bytesReply(bytes: Uint8Array, contentType = 'application/octet-stream', status = 200): Reply {
  return { kind: 'bytes', status, bytes, contentType };
}

export function emptyReply(status = 204, headers?: Record<string, string>): Reply {
  return headers ? { kind: 'empty', status, headers } : { kind: 'empty', status };
}
