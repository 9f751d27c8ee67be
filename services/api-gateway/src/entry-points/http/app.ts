import express, { type Express } from 'express';
import type { Logger } from '@destiny/platform';
import type { UpstreamName } from '../../upstreams/upstream-services';
import { docsRouter } from './docs.route';
import { errorHandler, notFoundHandler } from './error-handling';
import { healthcheckRouter } from './healthcheck.route';

export interface AppDependencies {
  logger: Logger;
  upstreams: Record<UpstreamName, string>;
}

/** The public HTTP surface: everything under /v1, errors in the contract's shapes. */
export function createApp(dependencies: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('strict routing', true);
  app.get('/', (_request, response) => response.redirect(302, '/v1/docs/'));
  const v1 = express.Router({ strict: true });
  v1.use(healthcheckRouter(dependencies.upstreams));
  v1.use(docsRouter());
  app.use('/v1', v1);
  app.use(notFoundHandler);
  app.use(errorHandler(dependencies.logger));
  return app;
}
