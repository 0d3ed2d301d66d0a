export {
  HttpError as ServiceHttpError,
  BadRequestError,
  UnauthorizedError,
  NotFoundError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  InternalServerError,
  ServiceUnavailableError,
} from './errors.js';
export * from './types.js';
export * from './reply.js';
export { Router, type HttpMethod as RouteMethod, type RouteOptions, type Route, type RouteMatch } from './router.js';
export * from './auth.js';
export * from './error-formats.js';
export * from './server.js';
export * from './presets.js';
export * from './semaphore.js';
