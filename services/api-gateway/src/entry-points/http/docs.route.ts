import path from 'node:path';
import { renderOpenApiDocument } from '@destiny/contracts';
import express, { Router } from 'express';

const docsPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>DESTINY Reference Enhancement Repository API</title>
  <link rel="stylesheet" href="/v1/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/v1/docs/assets/swagger-ui-bundle.js"></script>
  <script>window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#swagger-ui' });</script>
</body>
</html>`;

/** The generated OpenAPI 3.1 document and a Swagger UI page over it. */
export function docsRouter(): Router {
  const router = Router({ strict: true, caseSensitive: true });
  // The same generation as the committed packages/contracts/openapi.json (a test keeps them equal).
  const document = renderOpenApiDocument();
  router.get('/openapi.json', (_request, response) => {
    response.type('application/json').send(document);
  });
  router.get('/docs/', (_request, response) => {
    response.type('html').send(docsPage);
  });
  router.get('/docs', (_request, response) => response.redirect(308, '/v1/docs/'));
  router.use('/docs/assets', express.static(path.dirname(require.resolve('swagger-ui-dist/package.json')), { index: false }));
  return router;
}
