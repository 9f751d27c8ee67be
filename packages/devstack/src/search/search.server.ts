// HTTP front of the search stand-in: Elasticsearch's REST routes, content types (including the
// client's `application/vnd.elasticsearch+json; compatible-with=9`) and the product header.
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import pino from 'pino';
import { EsError } from './es-error';
import { applyFilterPath } from './filter-path';
import type { ApiResponse, SearchEngine } from './search.engine';

const logger = pino({ name: 'search-stand-in', level: process.env.DEVSTACK_LOG_LEVEL ?? 'info' });

interface RoutedRequest {
  method: string;
  segments: string[];
  params: URLSearchParams;
  body: () => unknown;
  text: () => string;
}

function noHandler(method: string, path: string): ApiResponse {
  return { status: 400, body: { error: `no handler found for uri [${path}] and method [${method}]` } };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EsError(400, 'x_content_parse_exception', `[1:1] Unexpected character: ${(error as Error).message}`);
  }
}

/** Routes one request to the engine. */
export function route(engine: SearchEngine, request: RoutedRequest, path: string): ApiResponse {
  const { method, segments, params } = request;
  const [first, second, third] = segments;
  const isGetLike = method === 'GET' || method === 'POST';
  if (segments.length === 0) return method === 'GET' || method === 'HEAD' ? engine.info() : noHandler(method, path);

  if (first.startsWith('_')) {
    switch (first) {
      case '_cluster':
        if (second === 'health' && method === 'GET') return engine.health(third);
        break;
      case '_search':
        if (isGetLike) return engine.search(undefined, request.body(), params);
        break;
      case '_count':
        if (isGetLike) return engine.count(undefined, request.body(), params);
        break;
      case '_bulk':
        if (method === 'POST' || method === 'PUT') return engine.bulk(undefined, request.text(), params);
        break;
      case '_mget':
        if (isGetLike) return engine.mget(undefined, request.body(), params);
        break;
      case '_aliases':
        if (method === 'POST') return engine.updateAliases(request.body());
        if (method === 'GET') return engine.getAliases(undefined, undefined);
        break;
      case '_alias':
        if (method === 'GET') return engine.getAliases(undefined, second);
        if (method === 'HEAD') return { status: engine.getAliases(undefined, second).status };
        break;
      case '_pit':
        if (method === 'DELETE') return engine.closePointInTime(request.body());
        break;
      case '_refresh':
        if (isGetLike) return engine.refresh(undefined);
        break;
      case '_mapping':
        if (method === 'GET') return engine.getMapping(undefined);
        break;
      case '_settings':
        if (method === 'GET') return engine.getSettings(undefined);
        if (method === 'PUT') return engine.putSettings(undefined, request.body());
        break;
      case '_all':
      case '_doc':
        break;
      default:
        break;
    }
    if (first !== '_all') return noHandler(method, path);
  }

  const index = first;
  if (segments.length === 1) {
    if (method === 'PUT') return engine.createIndex(index, request.body());
    if (method === 'DELETE') return engine.deleteIndex(index, params);
    if (method === 'HEAD') return engine.indexExists(index);
    if (method === 'GET') return engine.getIndex(index);
    return noHandler(method, path);
  }
  switch (second) {
    case '_search':
      if (isGetLike) return engine.search(index, request.body(), params);
      break;
    case '_count':
      if (isGetLike) return engine.count(index, request.body(), params);
      break;
    case '_bulk':
      if (method === 'POST' || method === 'PUT') return engine.bulk(index, request.text(), params);
      break;
    case '_mget':
      if (isGetLike) return engine.mget(index, request.body(), params);
      break;
    case '_refresh':
      if (isGetLike) return engine.refresh(index);
      break;
    case '_mapping':
      if (method === 'GET') return engine.getMapping(index);
      if (method === 'PUT' || method === 'POST') return engine.putMapping(index, request.body());
      break;
    case '_settings':
      if (method === 'GET') return engine.getSettings(index);
      if (method === 'PUT') return engine.putSettings(index, request.body());
      break;
    case '_delete_by_query':
      if (method === 'POST') return engine.deleteByQuery(index, request.body(), params);
      break;
    case '_pit':
      if (method === 'POST') return engine.openPointInTime(index, params);
      break;
    case '_alias':
    case '_aliases':
      if (method === 'GET') return engine.getAliases(index, third);
      if (method === 'HEAD') return { status: engine.getAliases(index, third).status };
      if ((method === 'PUT' || method === 'POST') && third) return engine.putAlias(index, third, request.body());
      if (method === 'DELETE' && third) return engine.deleteAlias(index, third);
      break;
    case '_doc':
      if (third === undefined) {
        if (method === 'POST') return engine.indexDocument(index, undefined, request.body(), params);
        break;
      }
      if (method === 'PUT' || method === 'POST') return engine.indexDocument(index, third, request.body(), params);
      if (method === 'GET') return engine.getDocument(index, third, params);
      if (method === 'HEAD') return engine.getDocument(index, third, params, true);
      if (method === 'DELETE') return engine.deleteDocument(index, third, params);
      break;
    case '_create':
      if ((method === 'PUT' || method === 'POST') && third !== undefined) return engine.indexDocument(index, third, request.body(), params, 'create');
      break;
    case '_update':
      if (method === 'POST' && third !== undefined) return engine.updateDocument(index, third, request.body(), params);
      break;
    case '_source':
      if (method === 'GET' && third !== undefined) return engine.getSource(index, third, params);
      if (method === 'HEAD' && third !== undefined) return { status: engine.getSource(index, third, params).status };
      break;
    default:
      break;
  }
  return noHandler(method, path);
}

export function createSearchServer(engine: SearchEngine): http.Server {
  return http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const method = (request.method ?? 'GET').toUpperCase();
      const url = new URL(request.url ?? '/', 'http://localhost');
      const accept = String(request.headers.accept ?? '');
      const contentType = accept.includes('vnd.elasticsearch') ? 'application/vnd.elasticsearch+json;compatible-with=9' : 'application/json';
      let result: ApiResponse;
      try {
        let raw = Buffer.concat(chunks);
        if (String(request.headers['content-encoding'] ?? '').includes('gzip')) raw = gunzipSync(raw);
        let text: string | undefined;
        const readText = () => (text ??= raw.toString('utf8'));
        const segments = url.pathname
          .split('/')
          .filter((segment) => segment !== '')
          .map((segment) => decodeURIComponent(segment));
        result = route(engine, { method, segments, params: url.searchParams, body: () => parseJson(readText()), text: readText }, url.pathname);
      } catch (error) {
        if (error instanceof EsError) result = { status: error.status, body: error.toBody() };
        else {
          logger.error({ err: error, method, path: url.pathname }, 'search stand-in request failed');
          result = { status: 500, body: { error: { root_cause: [{ type: 'exception', reason: String((error as Error)?.message ?? error) }], type: 'exception', reason: String((error as Error)?.message ?? error) }, status: 500 } };
        }
      } finally {
        try {
          engine.flush();
        } catch (error) {
          logger.error({ err: error }, 'search stand-in could not write its operation log');
        }
      }
      const headers: Record<string, string> = { 'x-elastic-product': 'Elasticsearch' };
      if (method === 'HEAD' || result.body === undefined) {
        response.writeHead(result.status, { ...headers, 'content-length': '0' });
        response.end();
        return;
      }
      const payload = JSON.stringify(applyFilterPath(result.body, url.searchParams.get('filter_path')));
      response.writeHead(result.status, { ...headers, 'content-type': contentType, 'content-length': String(Buffer.byteLength(payload)) });
      response.end(payload);
    });
    request.on('error', () => response.destroy());
  });
}
