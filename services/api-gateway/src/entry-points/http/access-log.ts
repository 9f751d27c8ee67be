import { context } from '@opentelemetry/api';
import type { Logger } from '@destiny/platform';
import type { RequestHandler } from 'express';

/** Probes call these every few seconds; their lines are debug, not info. */
const PROBE_PATHS = new Set(['/v1/system/healthcheck/', '/v1/system/ping/']);

/**
 * One line per request once its response is sent (or the client went away first): method, path
 * without the query, status, bytes and duration. The listener runs in the request's context, so
 * the line carries the request's trace id like every line its handlers wrote.
 */
export function accessLog(logger: Logger): RequestHandler {
  return (request, response, next) => {
    const started = performance.now();
    const path = request.originalUrl.split('?')[0];
    const level = PROBE_PATHS.has(path) ? 'debug' : 'info';
    response.once(
      'close',
      context.bind(context.active(), () => {
        const line = { method: request.method, path, status: response.statusCode, bytes: Number(response.getHeader('content-length') ?? 0), duration_ms: Math.round((performance.now() - started) * 10) / 10 };
        if (!response.writableFinished) logger.info(line, 'request abandoned by the client before its answer');
        else if (response.statusCode >= 500) logger.warn(line, 'request answered');
        else logger[level](line, 'request answered');
      }),
    );
    next();
  };
}
