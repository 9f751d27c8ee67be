import express, { type Express } from 'express';
import type { Logger } from '@destiny/platform';
import type { UpstreamName } from '../../upstreams/upstream-services';
import { accessLog } from './access-log';
import { apiRouter, trailingSlashRedirect, type ApiRouterDependencies } from './api.router';
import { docsRouter } from './docs.route';
import { errorHandler, notFoundHandler } from './error-handling';
import { healthcheckRouter } from './healthcheck.route';

export interface AppDependencies extends ApiRouterDependencies {
  logger: Logger;
  upstreams: Record<UpstreamName, string>;
}

/** The public HTTP surface: everything under /v1, errors in the contract's shapes. */
export function createApp(dependencies: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('strict routing', true);
  app.set('case sensitive routing', true);
  app.set('query parser', 'simple');
  app.use(accessLog(dependencies.logger));
  app.get('/', (_request, response) => response.redirect(302, '/v1/docs/'));
  const v1 = express.Router({ strict: true, caseSensitive: true });
  v1.use(healthcheckRouter(dependencies.upstreams));
  v1.use(docsRouter());
  v1.use(apiRouter(dependencies));
  v1.use(trailingSlashRedirect);
  app.use('/v1', v1);
  app.use(notFoundHandler);
  app.use(errorHandler(dependencies.logger));
  return app;
}
