import { AdapterError } from '../http/errors.js';

/** A listing handed back the same `next-token` twice: following it would never end. */
export class PagingLoopError extends AdapterError {
  constructor(
    readonly operation: string,
    readonly token: string,
    readonly page: number,
  ) {
    super(
      `${operation}: page ${page} repeated the next-token ${JSON.stringify(token.length > 60 ? token.slice(0, 60) + '…' : token)}; stopping instead of looping forever`,
    );
  }
}

/** How a listing pages: page size, a cap on pages, an abort signal, and one page of look-ahead. */
export interface PageOptions {
  /** `limit` sent with every page request (the service may clamp it). */
  pageSize?: number;
  /** Stop after this many pages (a safety net for huge listings). */
  maxPages?: number;
  signal?: AbortSignal;
  /**
   * Request the next page while the current one is being consumed (one page of look-ahead, never
   * more). Off by default, so nothing is fetched before it is needed.
   */
  prefetch?: boolean;
}

/**
 * A lazily fetched listing: iterating it yields items, fetching the next page only when the
 * previous one is used up; `pages()` yields whole responses instead.
 */
export class PagedListing<R extends { nextToken?: string }, T> implements AsyncIterable<T> {
  constructor(
    private readonly operation: string,
    private readonly fetchPage: (next: string | undefined, limit: number | undefined) => Promise<R>,
    private readonly itemsOf: (page: R) => T[],
    private readonly options: PageOptions & { startToken?: string } = {},
  ) {}

  async *pages(): AsyncGenerator<R, void, undefined> {
    const seen = new Set<string>();
    let next = this.options.startToken;
    if (next !== undefined) seen.add(next);
    const fetch = (token: string | undefined): Promise<R> => {
      if (this.options.signal?.aborted) return Promise.reject(new AdapterError(`${this.operation}: paging aborted by the caller`));
      return this.fetchPage(token, this.options.pageSize);
    };
    let inFlight: Promise<R> | undefined = fetch(next);
    for (let page = 1; inFlight; page++) {
      const response: R = await inFlight;
      inFlight = undefined;
      const token = response.nextToken;
      // A token-bearing empty page is how the query service says "that was all".
      let more = !!token && this.itemsOf(response).length > 0;
      if (more && seen.has(token!)) {
        yield response;
        throw new PagingLoopError(this.operation, token!, page);
      }
      if (more && this.options.maxPages !== undefined && page >= this.options.maxPages) more = false;
      if (more) {
        seen.add(token!);
        next = token;
        if (this.options.prefetch) {
          inFlight = fetch(next);
          // If the consumer stops early, a failed look-ahead must not become an unhandled rejection.
          inFlight.catch(() => undefined);
        }
      }
      yield response;
      if (more && !inFlight) inFlight = fetch(next);
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* this.itemsOf(page);
  }

  /** Collects everything (convenience for small listings; prefer `for await`). */
  async toArray(): Promise<T[]> {
    const out: T[] = [];
    for await (const item of this) out.push(item);
    return out;
  }
}
