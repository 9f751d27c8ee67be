import { ServiceError } from '@destiny/platform';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '@destiny/platform';

/** Contract 1.5: unknown route 404 `{"detail":"Not Found"}`. */
export const notFoundHandler: RequestHandler = (_request, response) => {
  response.status(404).json({ detail: 'Not Found' });
};

/** Routes answer 405 for methods they do not define, as FastAPI does. */
export const methodNotAllowedHandler: RequestHandler = (_request, response) => {
  response.status(405).json({ detail: 'Method Not Allowed' });
};

/** Expected errors answer their contract body; anything else is a plain-text 500. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _request, response, next) => {
    if (response.headersSent) return next(error);
    // A 500 ServiceError is an upstream's unexpected failure (gRPC INTERNAL, a reply over the size
    // limit): it is answered as every unhandled error is (§1.5), not as a handled one.
    if (error instanceof ServiceError && error.httpStatus !== 500) {
      response.status(error.httpStatus).json({ detail: error.detail });
      return;
    }
    const bodyError = error as { type?: string; status?: number; expose?: boolean };
    if (bodyError.type === 'entity.parse.failed') {
      response.status(422).json({ detail: [{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {}, ctx: { error: 'Invalid JSON' } }] });
      return;
    }
    if (bodyError.type === 'entity.too.large') {
      response.status(413).json({ detail: 'Request body is too large.' });
      return;
    }
    // Other client errors raised by Express itself: its router marks an undecodable path parameter
    // (bad percent-encoding) 400 without `expose`, so the status alone decides.
    if (typeof bodyError.status === 'number' && bodyError.status >= 400 && bodyError.status < 500) {
      const undecodable = error instanceof URIError || /^Failed to decode param/.test((error as Error).message ?? '');
      response.status(bodyError.status).json({ detail: undecodable ? 'The request path is not valid percent-encoded UTF-8.' : bodyError.status === 400 ? 'Bad Request' : 'Request failed.' });
      return;
    }
    logger.error({ err: error }, 'unhandled error in request');
    response.status(500).type('text/plain').send('Internal Server Error');
  };
}
