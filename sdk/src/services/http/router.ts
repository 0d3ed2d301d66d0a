import { ValidationError } from '../../errors.js';
import type { Handler } from './types.js';

/** HTTP methods a route can serve (public name `RouteMethod`). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';

/** Per-route options: authentication, accepted body types, body size limit. */
export interface RouteOptions {
  /** Served without the service's API token (e.g. `/versions`, `/health`). */
  public?: boolean;
  /** Overrides the service's request body limit for this route (bytes). */
  maxBodyBytes?: number;
}

/** A route: method, path pattern, handler and options. */
export interface Route {
  method: HttpMethod;
  pattern: string;
  handler: Handler;
  options: RouteOptions;
}

type Segment = { literal: string } | { param: string };

interface CompiledRoute extends Route {
  segments: readonly Segment[];
}

/** The result of matching a request: the route and its path parameters, or why none matched (404 / 405). */
export type RouteMatch = { kind: 'found'; route: Route; params: Record<string, string> } | { kind: 'wrong-method'; allowed: HttpMethod[] } | { kind: 'none' };

function splitPath(path: string): string[] {
  // A trailing slash names the same resource: "/v1/wallets/" is "/v1/wallets".
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.split('/').slice(1);
}

/**
 * Compiled patterns by text: every service made in a process (a fresh in-process chain per test
 * file) adds the same routes. Segments are only read once made, so routers share them.
 */
const COMPILED = new Map<string, readonly Segment[]>();

function compile(pattern: string): readonly Segment[] {
  let segments = COMPILED.get(pattern);
  if (!segments) {
    segments = compilePattern(pattern);
    if (COMPILED.size >= 1024) COMPILED.clear();
    COMPILED.set(pattern, segments);
  }
  return segments;
}

function compilePattern(pattern: string): Segment[] {
  if (!pattern.startsWith('/')) throw new ValidationError(`route pattern must start with "/": ${JSON.stringify(pattern)}`);
  return splitPath(pattern).map((s) => {
    if (!s.startsWith(':')) return { literal: s };
    const name = s.slice(1);
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) throw new ValidationError(`bad path parameter name in route ${JSON.stringify(pattern)}`);
    return { param: name };
  });
}

/**
 * Method + path table with `:name` parameters. Literal segments win over parameters at the same
 * position, so `/v2/blocks/latest` can sit beside `/v2/blocks/:round` in either order.
 */
export class Router {
  readonly #routes: CompiledRoute[] = [];
  /** Each route by its method and shape (parameters unnamed), to refuse a second route of the same shape. */
  readonly #shapes = new Map<string, CompiledRoute>();

  add(method: HttpMethod, pattern: string, handler: Handler, options: RouteOptions = {}): this {
    const segments = compile(pattern);
    const shape = shapeKey(method, segments);
    const clash = this.#shapes.get(shape);
    if (clash) throw new ValidationError(`route ${method} ${pattern} duplicates ${clash.method} ${clash.pattern}`);
    const route = { method, pattern, handler, options, segments };
    this.#routes.push(route);
    this.#shapes.set(shape, route);
    return this;
  }

  get(pattern: string, handler: Handler, options?: RouteOptions): this {
    return this.add('GET', pattern, handler, options);
  }

  post(pattern: string, handler: Handler, options?: RouteOptions): this {
    return this.add('POST', pattern, handler, options);
  }

  put(pattern: string, handler: Handler, options?: RouteOptions): this {
    return this.add('PUT', pattern, handler, options);
  }

  delete(pattern: string, handler: Handler, options?: RouteOptions): this {
    return this.add('DELETE', pattern, handler, options);
  }

  routes(): readonly Route[] {
    return this.#routes;
  }

  /** Throws ValidationError when a parameter is not valid percent-encoding. */
  match(method: string, path: string): RouteMatch {
    const parts = splitPath(path);
    let best: { route: CompiledRoute; params: Record<string, string>; score: number } | undefined;
    const allowed = new Set<HttpMethod>();
    for (const route of this.#routes) {
      const m = matchSegments(route.segments, parts);
      if (!m) continue;
      if (route.method !== method && !(method === 'HEAD' && route.method === 'GET')) {
        allowed.add(route.method);
        continue;
      }
      if (!best || m.score > best.score) best = { route, params: m.params, score: m.score };
    }
    if (best) return { kind: 'found', route: best.route, params: best.params };
    if (allowed.size > 0) return { kind: 'wrong-method', allowed: [...allowed].sort() };
    return { kind: 'none' };
  }
}

/** Method and path with every parameter as ":" (a literal segment never starts with one). */
function shapeKey(method: HttpMethod, segments: readonly Segment[]): string {
  return `${method} /${segments.map((s) => ('literal' in s ? s.literal : ':')).join('/')}`;
}

function matchSegments(segments: readonly Segment[], parts: string[]): { params: Record<string, string>; score: number } | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  let score = 0;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if ('literal' in seg) {
      if (seg.literal !== part) return undefined;
      // Earlier literal positions weigh more, so the most specific route wins.
      score += 2 ** (segments.length - i);
    } else {
      if (part === '') return undefined;
      try {
        params[seg.param] = decodeURIComponent(part);
      } catch {
        throw new ValidationError(`path parameter ${seg.param} is not valid percent-encoding`);
      }
    }
  }
  return { params, score };
}
