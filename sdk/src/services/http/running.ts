import type { RunningService } from './server.js';

/**
 * A service's running handle with its own extras (ledger, index, wallets…): the endpoint fields,
 * connection counts and `close` copied from what `serve` returned (a class whose getters a spread
 * would drop), so every service's handle is built the same way.
 */
export function runningService<T extends object>(service: RunningService, extra: T): RunningService & T {
  return {
    name: service.name,
    host: service.host,
    port: service.port,
    url: service.url,
    server: service.server,
    ...(service.connectionStats ? { connectionStats: service.connectionStats } : {}),
    close: () => service.close(),
    ...extra,
  };
}
