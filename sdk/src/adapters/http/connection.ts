import { HttpClient, type HttpClientOptions } from './client.js';

/** How to reach one service: its URL, token and the header the token travels in. */
export interface ConnectionOptions extends Omit<HttpClientOptions, 'baseUrl' | 'headers'> {
  url: string | URL;
  token?: string;
  /** Header that carries the token; each service has its own default. */
  tokenHeader?: string;
  headers?: Readonly<Record<string, string>>;
}

/** An `HttpClient` for a service endpoint, with its token sent in the given header (unless the options name another). */
export function httpClientFor(options: ConnectionOptions, defaultTokenHeader: string): HttpClient {
  const { url, token, tokenHeader, headers, ...rest } = options;
  const all: Record<string, string> = { ...(headers ?? {}) };
  if (token) all[tokenHeader ?? defaultTokenHeader] = token;
  return new HttpClient({ ...rest, baseUrl: url, headers: all });
}
