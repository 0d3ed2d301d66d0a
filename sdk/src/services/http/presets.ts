import { messageJsonErrors, plainTextErrors } from './error-formats.js';
import type { ErrorFormat } from './types.js';
import { NODE_SERVICE_TOKEN_HEADER } from '../../adapters/node/node-service.js';
import { QUERY_TOKEN_HEADER } from '../../adapters/query/client.js';

/**
 * Per-service conventions from /work/shared/spec (node-service.md, query-service.md) and
 * protocol.md where the service documents leave them open. The key manager's live in kmd/.
 */

// The token header names are declared once, by the clients (adapters), and served with from here.
/** node-service.md: operations listing 401 need this header. */
export { NODE_SERVICE_TOKEN_HEADER };

/** node-service.md: 400/404/500 carry a string, 401 has no content. */
export const nodeServiceErrors: ErrorFormat = plainTextErrors({ emptyStatuses: [401] });

/** query-service.md leaves authentication open; protocol.md §6.1 gives this header (or a bearer token). */
export const QUERY_SERVICE_TOKEN_HEADER = QUERY_TOKEN_HEADER;

/** query-service.md: 400/404/500 bodies are `{message, data?}`. */
export const queryServiceErrors: ErrorFormat = messageJsonErrors();
