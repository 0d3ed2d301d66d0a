import { jsonReply, emptyReply, textReply } from './reply.js';
import type { ErrorFormat } from './types.js';

/** `{"message": "...", "data": {...}}`: the query service's (and node v2's) error body. */
export function messageJsonErrors(options: { emptyStatuses?: readonly number[] } = {}): ErrorFormat {
  const empty = new Set(options.emptyStatuses ?? []);
  return (e) => {
    if (empty.has(e.status)) return emptyReply(e.status);
    return jsonReply(e.data ? { message: e.message, data: e.data } : { message: e.message }, e.status);
  };
}

/** A plain-text message, with no content for the listed statuses (the node service's 401). */
export function plainTextErrors(options: { emptyStatuses?: readonly number[] } = {}): ErrorFormat {
  const empty = new Set(options.emptyStatuses ?? []);
  return (e) => (empty.has(e.status) ? emptyReply(e.status) : textReply(e.message, e.status));
}
